# pol_pingpong RECIPE CORES: docs/policies.md, a ping-pong under every policy
# on 1 and CORES cores (runs pol/RECIPE/POLICY/CORES).
function render(   r, c2, i, j, p, c, k, k1, pol, cs) {
    r = arg(1); c2 = arg(2)
    split("eager hot_steal delayed threshold barging", pol, " ")
    cs[1] = 1; cs[2] = c2
    print "| policy | cores | wall (s) | x 1 core | vs eager | main-thread vol. switches | all vol. switches | GVL hand-offs | wasted wakes | parked (s) | waiting for the GVL (s) |"
    print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for (i = 1; i <= 5; i++) {
        p = pol[i]; k1 = "pol/" r "/" p "/1"
        for (j = 1; j <= 2; j++) {
            c = cs[j]; k = "pol/" r "/" p "/" c
            printf "| %s | %d | %.3f | %.2f | %.3f | %d | %d | %d | %d | %.3f | %.3f |\n", p, c, s(k, "wall_s"),
                s(k, "wall_s") / s(k1, "wall_s"), s(k, "wall_s") / s("pol/" r "/eager/" c, "wall_s"),
                s(k, "main_vol_switches"), s(k, "vol_switches"), s(k, "gvl_handoffs"), s(k, "wasted_wakes"),
                s(k, "parked_s"), s(k, "wants_gvl_s")
        }
    }
}
