# engines_speed DATASET: docs/engines.md, events per second of the native
# and the SimGrid engine on the same scenarios (docs/data/DATASET/raw.csv
# and host.txt, written by scripts/engines_bench.sh).  The ratio is taken
# run by run (the runs were interleaved: the q-th native run beside the q-th
# SimGrid run), then min / median / max.
function render(   d, r, n, i, q, m, lab, labels, rt, loads) {
    d = arg(1); r = d "/raw"
    n = split(param(d "/host", "labels"), labels, " ")
    print "| scenario | events | native, M events/s | SimGrid, M events/s | native / SimGrid |"
    print "|---|---:|---:|---:|---:|"
    for (i = 1; i <= n; i++) {
        lab = labels[i]
        m = CNT[r, lab "/native"]
        if (m != CNT[r, lab "/simgrid"]) die("docs/data/" r ": " lab ": unpaired runs")
        for (q = 1; q <= m; q++) rt[q] = field(r, lab "/native", "mevps", q) / field(r, lab "/simgrid", "mevps", q)
        sortn(rt, m)
        printf "| %s | %s | %s | %s | %s / %s / %s |\n", param(d "/host", "desc." lab),
            comma(value(r, lab "/native", "events")), mmm(r, lab "/native", "mevps", "%.2f"),
            mmm(r, lab "/simgrid", "mevps", "%.2f"), fx(rt[1], 1), fx(median(rt, m), 1), fx(rt[m], 1)
    }
    m = values(r, labels[1] "/native", "load1", loads)
    printf "\nHost: %s CPUs (%s), kernel %s; gvlsim %s; measured %s, %s runs of each, interleaved, " \
        "min / median / max; 1-minute load average at the first scenario's runs %.2f–%.2f.\n",
        param(d "/host", "cpus"), param(d "/host", "cpu"), param(d "/host", "kernel"),
        param(d "/host", "commit"), param(d "/host", "date"), param(d "/host", "runs"), loads[1], loads[m]
}
function sortn(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } }
