# readme_exec: README, the real executor on this host, in brief
# (docs/data/exec/raw.csv; medians).
function render(   r, p, e1, e2, lo, hi, i, pol, x1, x2, q, lo1, hi1, lo2, hi2) {
    r = "exec/raw"; p = r
    print "| real runs, this host (medians) | 1 core | 2 cores | what it shows |"
    print "|---|---:|---:|---|"
    printf "| queue_pingpong, %s messages, eager | %.2f s | %.2f s (%.2fx) | main thread %s voluntary switches on 2 cores (the report: 1.40M for 1M) |\n", comma(param("exec/host", "pingpong_msgs")),
        med(p, "pingpong/1", "wall_s"), med(p, "pingpong/2", "wall_s"), med(p, "pingpong/2", "wall_s") / med(p, "pingpong/1", "wall_s"),
        human(med(p, "pingpong/2", "main_vol_switches"))
    e1 = med(r, "mtime/2/eager/1", "wall_s"); e2 = med(r, "mtime/2/eager/2", "wall_s")
    printf "| mtime_loop, 2 threads, %s calls, eager | %.2f s | %.2f s (%.2fx) | %.2f hand-offs and %.2f switches per call on 2 cores |\n",
        comma(param("exec/host", "mtime_calls")), e1, e2, e2 / e1, med(r, "mtime/2/eager/2", "gvl_handoffs") / param("exec/host", "mtime_calls"),
        med(r, "mtime/2/eager/2", "vol_switches") / param("exec/host", "mtime_calls")
    split("hot_steal delayed threshold barging", pol, " ")
    for (i = 1; i <= 4; i++) {
        x1 = med(r, "mtime/2/" pol[i] "/1", "wall_s"); x2 = med(r, "mtime/2/" pol[i] "/2", "wall_s")
        if (i == 1 || x1 < lo1) lo1 = x1; if (i == 1 || x1 > hi1) hi1 = x1
        if (i == 1 || x2 < lo2) lo2 = x2; if (i == 1 || x2 > hi2) hi2 = x2
        q = x2 / x1; if (i == 1 || q < lo) lo = q; if (i == 1 || q > hi) hi = q
    }
    printf "| the same, hot_steal / delayed / threshold / barging | %.2f–%.2f s | %.2f–%.2f s | %.2f–%.2fx of their 1-core time |\n", lo1, hi1, lo2, hi2, lo, hi
    printf "| proc_heavy, 2 worker Ractors, `lock_barrier` vs `lockless` | | %s vs %s ops/s | %.0fx |\n", human(med(r, "proc/lock_barrier", "ops_per_s")),
        human(med(r, "proc/lockless", "ops_per_s")), med(r, "proc/lockless", "ops_per_s") / med(r, "proc/lock_barrier", "ops_per_s")
    printf "| tarai, 2 Ractors, `shared` vs `thread_local` counter | %.2f vs %.2f s | %.2f vs %.2f s | %.1fx on 2 cores |\n",
        med(r, "counter/shared/1", "wall_s"), med(r, "counter/thread_local/1", "wall_s"), med(r, "counter/shared/2", "wall_s"),
        med(r, "counter/thread_local/2", "wall_s"), med(r, "counter/shared/2", "wall_s") / med(r, "counter/thread_local/2", "wall_s")
}
