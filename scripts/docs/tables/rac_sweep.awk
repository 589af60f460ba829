# rac_sweep: docs/ractors.md, proc_heavy under lock_barrier, lockless and none,
# and the calc control, for 1..64 worker Ractors on 10 cores (runs ractors/*).
function render(   n, i, nn, k, wall, ops, bar, wt) {
    nn = split("1 2 4 8 16 32 64", n, " ")
    print "| workers | lock_barrier ops/s | µs per barrier | barriers / ops | workers in barrier_join + vmlock_wait | lockless ops/s | none ops/s | calc iters/s |"
    print "|---:|---:|---:|---:|---:|---:|---:|---:|"
    for (i = 1; i <= nn; i++) {
        k = "ractors/lock_barrier/" n[i]
        wall = s(k, "wall_s"); ops = s(k, "ops"); bar = s(k, "barriers")
        # worker thread time: all n+1 threads minus main, which is parked throughout
        wt = (n[i] + 1) * wall - s(k, "parked_s")
        printf "| %d | %.0f | %.2f | %.3f | %.0f%% | %.0f | %.0f | %.0f |\n", n[i], ops / wall,
            (bar > 0 ? wall / bar * 1e6 : 0), (ops > 0 ? bar / ops : 0),
            100 * (s(k, "barrier_join_s") + s(k, "vmlock_wait_s")) / wt,
            s("ractors/lockless/" n[i], "ops_per_s"), s("ractors/none/" n[i], "ops_per_s"), 1000 * s("ractors/calc/" n[i], "ops_per_s")
    }
}
