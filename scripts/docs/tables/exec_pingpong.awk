# exec_pingpong DATASET: docs/exec-results.md, queue_pingpong on the real
# executor, 1 and 2 cores (docs/data/DATASET/raw.csv, labels pingpong/CORES).
function render(   d, r, c, k, msgs) {
    d = arg(1); r = d "/raw"; msgs = param(d "/host", "pingpong_msgs")
    print "| cores | wall s (min / median / max) | µs per message | vol. switches | main thread vol. | invol. | GVL hand-offs | CPU/wall |"
    print "|---|---|---:|---:|---:|---:|---:|---:|"
    for (c = 1; c <= 2; c++) {
        k = "pingpong/" c
        printf "| %d | %s | %.2f | %s | %s | %s | %s | %.2f |\n", c, mmm(r, k, "wall_s", "%.3f"), 1e6 * med(r, k, "wall_s") / msgs,
            comma(med(r, k, "vol_switches")), comma(med(r, k, "main_vol_switches")), comma(med(r, k, "invol_switches")),
            comma(med(r, k, "gvl_handoffs")), medq(r, k, "cpu_s", "wall_s")
    }
    printf "| 2 cores / 1 core (medians) | %.2fx | | | | | | |\n", med(r, "pingpong/2", "wall_s") / med(r, "pingpong/1", "wall_s")
}
