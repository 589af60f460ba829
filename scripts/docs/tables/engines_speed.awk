# engines_speed DATASET: docs/engines.md, events per second of the native
# and the SimGrid engine on the same scenarios (docs/data/DATASET/raw.csv
# and host.txt, written by scripts/engines_bench.sh).
function render(   d, r, n, i, lab, labels, a, m, loads) {
    d = arg(1); r = d "/raw"
    n = split(param(d "/host", "labels"), labels, " ")
    print "| scenario | events | native, M events/s | SimGrid, M events/s | native / SimGrid |"
    print "|---|---:|---:|---:|---:|"
    for (i = 1; i <= n; i++) {
        lab = labels[i]
        printf "| %s | %s | %s | %s | %sx |\n", param(d "/host", "desc." lab),
            comma(value(r, lab "/native", "events")), mmm(r, lab "/native", "mevps", "%.2f"),
            mmm(r, lab "/simgrid", "mevps", "%.2f"),
            ratio(med(r, lab "/native", "mevps"), med(r, lab "/simgrid", "mevps"), 0)
    }
    m = values(r, labels[1] "/native", "load1", loads)
    printf "\nHost: %s CPUs (%s), kernel %s; gvlsim %s; measured %s, %s runs of each, interleaved, " \
        "min / median / max; 1-minute load average at the first scenario's runs %.2f–%.2f.\n",
        param(d "/host", "cpus"), param(d "/host", "cpu"), param(d "/host", "kernel"),
        param(d "/host", "commit"), param(d "/host", "date"), param(d "/host", "runs"), loads[1], loads[m]
}
