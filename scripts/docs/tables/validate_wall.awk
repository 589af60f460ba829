# validate_wall: README, the wall times (ops per second for proc_heavy)
# behind the fidelity tables, medians: the simulator, the executor and Ruby
# (docs/data/validate/hosts/HOST/NAME.csv), per host in the order of the
# tables (lib.awk: vhosts, vrow).  A target
# not measured on a host is a dash.
function vrow2(ds, metric, backend, cores,   r) {
    r = vrow(ds, metric, backend, cores, "")
    if (r == "") die("docs/data/" ds ": no " metric " row of " backend " on " cores " cores")
    return r
}
function c2(ds, row, name,   f) { split(row, f, ","); return f[COL[ds, name]] }
function w(x, metric) { return metric == "ops_per_s" ? human(x) : sprintf("%.3f", x) }
function wline(host, name, label, metric,   ds, c, p, q, out) {
    ds = "validate/hosts/" host "/" name
    out = "| `" host "` | " label " |"
    for (c = 1; c <= 2; c++) {
        if (!(ds in HAVE)) { out = out " - |"; continue }
        p = vrow2(ds, metric, "pthread", c); q = vrow2(ds, metric, "ruby", c)
        out = out " " w(c2(ds, p, "simulated"), metric) " / " w(c2(ds, p, "measured_median"), metric) " / " w(c2(ds, q, "measured_median"), metric) " |"
    }
    print out
}
function render(   h, n, i, k, nt, name, label, ops) {
    n = vhosts(h, "")
    if (!n) die("no host directory under docs/data/validate/hosts")
    print "| host | scenario | 1 core: simulated / executor / Ruby | 2 cores: simulated / executor / Ruby |"
    print "|---|---|---:|---:|"
    nt = vmain(name, label)
    for (i = 1; i <= n; i++)
        for (k = 1; k <= nt; k++) {
            ops = name[k] == "proc2"  # stop.time: ops per second
            wline(h[i], name[k], label[k] (ops ? ", ops/s" : ", wall s"), ops ? "ops_per_s" : "wall_s")
        }
}
