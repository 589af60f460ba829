# mn_cap: README and docs/mn.md, 8 Ractors with the default RUBY_MAX_CPU=8:
# the 3.3/3.4 cap of max_cpu - 1 = 7 shared native threads (minus_one)
# against #14280's 8 (exact); runs mn/cap/COUNTER/CAP.
#
# Measured (bug #20489's thread, tenderlovemaking, x86_64 Linux, 3.5.0dev,
# before #14280, so 7 SNTs with the default and enough with 12): the same
# build was not run both ways, so each ratio spans two builds a day apart.
function render(   c, i, a, b, m) {
    split("thread_local none shared", c, " ")
    m["thread_local"] = "4.70 s / 19.08 s (tl 5bfb7753e3, default) vs 2.46 s (tl 3ef0432779, 12): 1.91x"
    m["none"] = "—"
    m["shared"] = "25.30 s / 152.10 s (master 96f23306f0, default) vs 24.87 s (master 4a2702dafb, 12): 1.02x"
    print "| `insn_counter` | gvlsim: `minus_one` wall | `exact` wall | ratio | `wants_snt` (the waiting Ractor) | native threads (`minus_one` / `exact`) | CPU (`minus_one` / `exact`) | measured: wall / user CPU with the default `RUBY_MAX_CPU` vs 12 |"
    print "|---|---:|---:|---:|---:|---:|---:|---|"
    for (i = 1; i <= 3; i++) {
        a = "mn/cap/" c[i] "/minus_one"; b = "mn/cap/" c[i] "/exact"
        printf "| `%s` | %.3f s | %.3f s | %.2fx | %.3f s | %d / %d | %.2f s / %.2f s | %s |\n", c[i], s(a, "wall_s"), s(b, "wall_s"),
            s(a, "wall_s") / s(b, "wall_s"), s(a, "wants_snt_s"), s(a, "native_threads"), s(b, "native_threads"),
            s(a, "cpu_s"), s(b, "cpu_s"), m[c[i]]
    }
}
