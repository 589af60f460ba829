# output_demo: docs/output.md, what `make demo` shows (eager, the scenarios'
# machines); the same runs as the demo's sweeps (runs pol/*, mtime1/*,
# demo/io/*, ractors/*, mn/demo/*).
function render(   a, b, i, j, c, n, d, lo, hi, x, v) {
    print "| demo | result |"
    print "|---|---|"
    a = "pol/pingpong/eager/1"; b = "pol/pingpong/eager/2"
    printf "| queue_pingpong, 1M messages | %.3f s on 1 core, %.3f s on 2 cores (%.1fx); %s / %s voluntary switches of the main thread |\n",
        s(a, "wall_s"), s(b, "wall_s"), s(b, "wall_s") / s(a, "wall_s"), comma(s(a, "main_vol_switches")), comma(s(b, "main_vol_switches"))
    printf "| mtime_loop, 1 thread | %.3f s, %.3f s, %.3f s on 1, 2 and 8 cores |\n", s("mtime1/1", "wall_s"), s("mtime1/2", "wall_s"), s("mtime1/8", "wall_s")
    split("2 8", n, " ")
    for (i = 1; i <= 2; i++) {
        a = "pol/mtime" n[i] "/eager/"
        printf "| mtime_loop, %d threads | %.3f s on 1 core, %.3f s on 2, %.3f s on 8 (%.1fx, %.1fx) |\n", n[i], s(a 1, "wall_s"), s(a 2, "wall_s"),
            s(a 8, "wall_s"), s(a 2, "wall_s") / s(a 1, "wall_s"), s(a 8, "wall_s") / s(a 1, "wall_s")
    }
    split("10000 50000 200000 1000000 5000000", d, " ")
    printf "| io_plus_cpu, 10 s | I/O calls/s for calls of 10 µs to 5 ms:"
    for (c = 1; c <= 2; c++) {
        lo = hi = s("demo/io/" d[1] "/" c, "ops_per_s")
        for (j = 2; j <= 5; j++) { x = s("demo/io/" d[j] "/" c, "ops_per_s"); if (x < lo) lo = x; if (x > hi) hi = x }
        printf " %s on %d core%s%s", (fx(lo, 1) == fx(hi, 1) ? fx(lo, 1) : fx(lo, 1) "–" fx(hi, 1)), c, (c == 1 ? "" : "s"), (c == 1 ? "," : "")
    }
    printf " (about one per 100 ms quantum of the CPU-bound thread); for 20 ms calls %.1f / %.1f |\n",
        s("demo/io/20000000/1", "ops_per_s"), s("demo/io/20000000/2", "ops_per_s")
    split("lock_barrier lockless none", v, " ")
    split("1 2 4 8 16", n, " ")
    printf "| proc_heavy, 10 cores | Proc calls/s for 1, 2, 4, 8, 16 worker Ractors:"
    for (i = 1; i <= 3; i++) {
        printf " %s", v[i]
        for (j = 1; j <= 5; j++) printf "%s%s", (j == 1 ? " " : ", "), human(s("ractors/" v[i] "/" n[j], "ops_per_s"))
        printf "%s", i < 3 ? ";" : " |\n"
    }
    split("shared thread_local none", v, " ")
    split("1 2 4 8", n, " ")
    printf "| tarai_ractors | wall s for 1, 2, 4, 8 Ractors:"
    for (i = 1; i <= 3; i++) {
        printf " %s", v[i]
        for (j = 1; j <= 4; j++) printf "%s%.2f", (j == 1 ? " " : ", "), s("mn/demo/" v[i] "/" n[j], "wall_s")
        printf "%s", i < 3 ? ";" : " |\n"
    }
}
