# sched_regimes: docs/calibrate.md, the queue ping-pong (eager) on one CPU
# under each os_scheduler, per message: the bug reports' measured
# main-thread counts beside report_m4 and linux_desktop (runs sched/*, 1M
# messages), and the executor on one host of the fidelity tables (ARGS:
# HOST, the committed validate runs
# docs/data/validate/hosts/HOST/pingpong_policies.rows.csv, eager on 1 core:
# medians) beside that host's calibrated profile (200k messages; the runs
# sched/host/* of docs/data/sim-runs.txt take HOST/host.json).
function render(   m, hd) {
    print "| machine | `os_scheduler` | main thread: voluntary switches per message | involuntary switches per message | GVL hand-offs per message | wall per message |"
    print "|---|---|---:|---:|---:|---:|"
    printf "| the report's M4 (kernel not given), measured | | %.3f | %.4f (main thread) | | %.2f µs |\n", 1140773 / 1e6, 9487 / 1e6, 3.619
    group("`report_m4`", "report_m4")
    printf "| ko1's desktop (Linux 6.8), measured | | %.3f | %.4f (main thread) | | %.2f µs |\n", 1657676 / 1e6, 48541 / 1e6, 7.874
    group("`linux_desktop`", "linux_desktop")
    if (ARGS == "") die("sched_regimes: no host (the marker's argument: a directory of docs/data/validate/hosts)")
    hd = "validate/hosts/" ARGS
    m = hd "/pingpong_policies.rows"
    printf "| `%s` (%s, Linux %s), executor, measured | | %.3f | %.3f (all threads) | %.3f | %.2f µs |\n", ARGS, param(hd "/host", "cpu"), param(hd "/host", "kernel"),
        emed(m, "main_vol_switches") / emed(m, "ops"), emed(m, "invol_switches") / emed(m, "ops"),
        emed(m, "gvl_handoffs") / emed(m, "ops"), 1e6 * emed(m, "wall_s") / emed(m, "ops")
    group("its profile", "host")
}
function group(label, name,   sch, n, i, r, ops) {
    n = split("fifo cfs eevdf eevdf_delay_dequeue", sch, " ")
    for (i = 1; i <= n; i++) {
        r = "sched/" name "/" sch[i]; ops = s(r, "ops")
        printf "| %s | `%s` | %.3f | %.4f (all threads) | %.3f | %.2f µs |\n", i == 1 ? label : "", sch[i],
            s(r, "main_vol_switches") / ops, s(r, "invol_switches") / ops, s(r, "gvl_handoffs") / ops, 1e6 * s(r, "wall_s") / ops
    }
}
# emed(ds, col): the median of col over the executor's (backend pthread)
# runs of point 0 (eager, 1 core)
function emed(ds, col,   a, n, i) {
    if (field(ds, 0, "runtime.gvl_policy", 1) != "eager" || field(ds, 0, "machine.cores", 1) != 1) die(ds ": point 0 is not eager on 1 core")
    n = 0
    for (i = 1; i <= CNT[ds, 0]; i++) if (field(ds, 0, "backend", i) == "pthread") a[++n] = field(ds, 0, col, i) + 0
    if (!n) die(ds ": no executor run of point 0")
    sorta(a, n)
    return median(a, n)
}
