# backends_host: README, the host, the Ruby and the conditions of the
# three-backend measurement (docs/data/backends/host.txt, raw.csv).
function render(   h, r, i, q, n, idle, load, below) {
    h = "backends/host"; r = "backends/raw"
    if (param(h, "quick") == 1)
        printf "**A QUICK=1 check run (tiny sizes, 2 runs): it checks the script, not the machine; do not read its numbers.** "
    printf "Host: %s CPUs (%s), kernel %s; %s; gvlsim %s; measured %s. ", param(h, "cpus"), param(h, "cpu"),
        param(h, "kernel"), param(h, "ruby"), param(h, "commit"), param(h, "date")
    printf "Sizes: %s messages, %s File.mtime calls, proc_heavy for %s, tarai %s instructions per Ractor. ",
        comma(param(h, "pingpong_msgs")), comma(param(h, "mtime_calls")), param(h, "proc_time"), comma(param(h, "tarai_insns"))
    printf "Settings: those of the installed Ruby (`--set 'runtime={\"ruby\": \"%s\"}'`), machine profile `dev_vm` for the simulator. ",
        param(h, "ruby_version")
    n = 0
    for (i = 1; i <= NKEY[r]; i++) {
        if (KEY[r, i] ~ /\/sim$/) continue
        for (q = 1; q <= CNT[r, KEY[r, i]]; q++) {
            idle[++n] = field(r, KEY[r, i], "idle_pct", q) + 0; load[n] = field(r, KEY[r, i], "load1", q) + 0
            if (idle[n] < param(h, "quiet_idle") + 0) below++
        }
    }
    sorta(idle, n); sorta(load, n)
    printf "%s runs of each real backend, interleaved (the simulator once: it is deterministic). ", param(h, "runs")
    printf "Idle CPU share in the 0.5 s before a real run: min %d%%, median %d%%, max %d%% (the gate waits for %s%%, at most %s s); %d of %d runs started below it. 1-minute load average: %.2f–%.2f.\n",
        idle[1], median(idle, n), idle[n], param(h, "quiet_idle"), param(h, "quiet_wait"), below, n, load[1], load[n]
}
