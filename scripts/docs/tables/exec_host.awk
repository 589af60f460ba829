# exec_host DATASET: docs/exec-results.md, the host and conditions of a
# measurement (docs/data/DATASET/host.txt, raw.csv).
function render(   d, r, n, i, idle, load, a, b, waited, q) {
    d = arg(1); r = d "/raw"
    printf "Host: %s CPUs (%s), kernel %s; gvlsim %s built with `-O2`; measured %s.\n", param(d "/host", "cpus"),
        param(d "/host", "cpu"), param(d "/host", "kernel"), param(d "/host", "commit"), param(d "/host", "date")
    printf "%s runs per configuration, interleaved. ", param(d "/host", "runs")
    n = 0
    for (i = 1; i <= NKEY[r]; i++) {
        for (q = 1; q <= CNT[r, KEY[r, i]]; q++) {
            idle[++n] = field(r, KEY[r, i], "idle_pct", q) + 0; load[n] = field(r, KEY[r, i], "load1", q) + 0
            if (idle[n] < param(d "/host", "quiet_idle") + 0) waited++
        }
    }
    sorta(idle, n); sorta(load, n)
    printf "Idle CPU share in the 0.5 s before a run: min %d%%, median %d%%, max %d%% (the gate waits for %s%%, at most %s s); ",
        idle[1], median(idle, n), idle[n], param(d "/host", "quiet_idle"), param(d "/host", "quiet_wait")
    printf "%d of %d runs started below it. 1-minute load average: %.2f–%.2f.\n", waited, n, load[1], load[n]
}
