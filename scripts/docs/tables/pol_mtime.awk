# pol_mtime RECIPE: docs/policies.md, mtime_loop under every policy on 1, 2
# and 8 cores (RECIPE: mtime8 or mtime2, runs pol/RECIPE/POLICY/CORES).
function render(   r, i, j, p, c, k, k1, pol, cs, sys) {
    r = arg(1)
    split("eager hot_steal delayed threshold barging", pol, " ")
    split("1 2 8", cs, " ")
    print "| policy | cores | wall (s) | x 1 core | vol. switches / call | wasted wakes / call | GVL hand-offs / call | Ruby running (% of wall) | waiting for the GVL (µs / call) | in the syscall (µs / call) |"
    print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for (i = 1; i <= 5; i++) {
        p = pol[i]; k1 = "pol/" r "/" p "/1"
        for (j = 1; j <= 3; j++) {
            c = cs[j]; k = "pol/" r "/" p "/" c
            sys = s(k, "syscalls")
            printf "| %s | %d | %.3f | %.2f | %.3f | %.4f | %.3f | %.0f | %.2f | %.2f |\n", p, c, s(k, "wall_s"),
                s(k, "wall_s") / s(k1, "wall_s"), s(k, "vol_switches") / sys, s(k, "wasted_wakes") / sys,
                s(k, "gvl_handoffs") / sys, 100 * s(k, "running_s") / s(k, "wall_s"),
                1e6 * s(k, "wants_gvl_s") / sys, 1e6 * s(k, "blocking_s") / sys
        }
    }
}
