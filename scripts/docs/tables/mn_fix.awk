# mn_fix: README and docs/mn.md, bug #20489: tarai in 8 Ractors with
# RUBY_MAX_CPU=12, the fix's commit message (50c2c4bdde, tenderlovemaking,
# x86_64 Linux) beside the model (runs mn/fix/*, x86_20489).
function render(   c, i, k, m) {
    split("shared thread_local none", c, " ")
    m["shared"] = "24.87 s, 195.55 s (3.5.0dev master 4a2702dafb: the counter of 3.3 / 3.4)"
    m["thread_local"] = "2.46 s, 19.34 s (the fix's build, tl 3ef0432779)"
    m["none"] = "2.53 s, 19.86 s (3.2.0: no counter)"
    print "| `insn_counter`, 8 Ractors, `RUBY_MAX_CPU=12` | measured: wall, user CPU (the fix's commit message) | gvlsim: wall, CPU | CPU / wall | x `none` | line transfers | native threads |"
    print "|---|---|---:|---:|---:|---:|---:|"
    for (i = 1; i <= 3; i++) {
        k = "mn/fix/" c[i]
        printf "| `%s` | %s | %.3f s, %.2f s | %.2f | %.3fx | %s | %d |\n", c[i], m[c[i]], s(k, "wall_s"), s(k, "cpu_s"),
            s(k, "cpu_s") / s(k, "wall_s"), s(k, "wall_s") / s("mn/fix/none", "wall_s"), comma(s(k, "line_transfers")), s(k, "native_threads")
    }
}
