# validate_wall: README, the wall times (ops per second for proc_heavy)
# behind the fidelity table, medians: the simulator, the executor and Ruby
# (docs/data/validate/NAME.csv; scripts/docs/tables/validate.awk has vrow).
function vrow2(ds, metric, backend, cores,   i, k, n) {
    if (!(ds in HAVE)) die("no dataset docs/data/" ds)
    for (i = 1; i <= NKEY[ds]; i++) {
        k = KEY[ds, i]
        for (n = 1; n <= CNT[ds, k]; n++)
            if (field(ds, k, "metric", n) == metric && field(ds, k, "backend", n) == backend &&
                field(ds, k, "machine.cores", n) == cores) return ROW[ds, k, n]
    }
    die("docs/data/" ds ": no " metric " row of " backend " on " cores " cores")
}
function c2(ds, row, name,   f) { split(row, f, ","); return f[COL[ds, name]] }
function w(x, metric) { return metric == "ops_per_s" ? human(x) : sprintf("%.3f", x) }
function wline(name, label, metric,   ds, c, r, p, q, out) {
    ds = "validate/" name
    out = "| " label " |"
    for (c = 1; c <= 2; c++) {
        p = vrow2(ds, metric, "pthread", c); q = vrow2(ds, metric, "ruby", c)
        out = out " " w(c2(ds, p, "simulated"), metric) " / " w(c2(ds, p, "measured_median"), metric) " / " w(c2(ds, q, "measured_median"), metric) " |"
    }
    print out
}
function render() {
    print "| scenario | 1 core: simulated / executor / Ruby | 2 cores: simulated / executor / Ruby |"
    print "|---|---:|---:|"
    wline("pingpong", "queue_pingpong, wall s", "wall_s")
    wline("mtime2", "mtime_loop, 2 threads, wall s", "wall_s")
    wline("mtime8", "mtime_loop, 8 threads, wall s", "wall_s")
    wline("proc2", "proc_heavy, 2 Ractors, ops/s", "ops_per_s")
    wline("tarai2", "tarai_ractors, 2 Ractors, wall s", "wall_s")
}
