# validate_host: README, the host and the conditions of the fidelity
# measurement (docs/data/validate/host.txt, written by
# scripts/validate_results.sh; the machine profile docs/data/validate/host.json).
function render(   h, i, l, v, lo, hi, n, cpus, busy) {
    h = "validate/host"
    cpus = param(h, "cpus") + 0
    for (i = 1; i <= NLINE[h]; i++) {
        l = LINE[h, i]
        if (l !~ /^load_/) continue
        sub(/^[^=]*=/, "", l)
        split(l, v, ",")  # idle %, load before, load after
        if (!n++) lo = hi = v[2] + 0
        if (v[2] + 0 < lo) lo = v[2] + 0
        if (v[3] + 0 < lo) lo = v[3] + 0
        if (v[2] + 0 > hi) hi = v[2] + 0
        if (v[3] + 0 > hi) hi = v[3] + 0
    }
    if (!n) die("docs/data/" h ": no load_ lines")
    if (param(h, "quick") == 1)
        printf "**A QUICK=1 check run (a quick calibration, 1 run): it checks the script, not the machine; do not read its numbers.** "
    busy = hi > cpus
    if (busy)
        printf "**Measured while other jobs loaded the host (1-minute load average up to %.1f on %d CPUs): the measured columns are the other jobs' as much as the scenarios'; on a busy host a \"2 cores\" run is mostly a one-core run.** ", hi, cpus
    printf "Host: %s CPUs (%s), kernel %s; %s; gvlsim %s; measured %s; %s runs of each real backend per configuration, interleaved; 1-minute load average %.2f–%.2f. ",
        cpus, param(h, "cpu"), param(h, "kernel"), param(h, "ruby"), param(h, "commit"), param(h, "date"), param(h, "runs"), lo, hi
    printf "The simulator runs with the profile `gvlsim calibrate` wrote on that host (`docs/data/validate/host.json`).\n"
}
