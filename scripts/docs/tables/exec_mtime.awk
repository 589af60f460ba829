# exec_mtime: docs/exec-results.md, mtime_loop on the real executor, 2 and 8
# threads, every policy, 1 and 2 cores (docs/data/exec/raw.csv; per-call
# columns are medians over the runs).
function render(   r, t, i, j, p, np, a, b, calls) {
    r = "exec/raw"; calls = param("exec/host", "mtime_calls")
    np = policies(p)
    print "| T | policy | 1 core (s) | 2 cores (s) | 2c/1c | vol. sw./call 1c | vol. sw./call 2c | wasted wakes/call 2c | hand-offs/call 2c | CPU/wall 2c |"
    print "|---|---|---|---|---:|---:|---:|---:|---:|---:|"
    split("2 8", t, " ")
    for (i = 1; i <= 2; i++) for (j = 1; j <= np; j++) {
        a = "mtime/" t[i] "/" p[j] "/1"; b = "mtime/" t[i] "/" p[j] "/2"
        printf "| %d | %s | %s | %s | %s | %.2f | %.2f | %.3f | %.3f | %.2f |\n", t[i], p[j], mmm(r, a, "wall_s", "%.3f"), mmm(r, b, "wall_s", "%.3f"),
            (j == 1 ? "**" : "") ratio(med(r, b, "wall_s"), med(r, a, "wall_s"), 2) (j == 1 ? "**" : ""),
            med(r, a, "vol_switches") / calls, med(r, b, "vol_switches") / calls, med(r, b, "wasted_wakes") / calls,
            med(r, b, "gvl_handoffs") / calls, medq(r, b, "cpu_s", "wall_s")
    }
}
