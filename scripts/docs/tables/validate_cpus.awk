# validate_cpus: README, how many CPUs the 2-core runs kept busy (metric
# cpus_busy of gvlsim validate: CPU time over wall time) - the simulator,
# the executor and Ruby, the measured as median (min-max) - per host in
# the order of the tables (lib.awk: vhosts, vrow).  Not a target: it says
# where the threads ran (a guest that packs a 2-core run's threads on one
# vCPU gives about 1.0).  A target not measured on a host, or measured
# before the metric existed, is a dash.
function cbusy(ds, r) {
    if (r == "") return "-"
    return sprintf("%.2f (%.2f–%.2f)", vcol(ds, r, "measured_median"), vcol(ds, r, "measured_min"), vcol(ds, r, "measured_max"))
}
function cline(host, name, label,   ds, r) {
    ds = "validate/hosts/" host "/" name
    r = ds in HAVE ? vrow(ds, "cpus_busy", "pthread", 2, "") : ""
    if (r == "") { print "| `" host "` | " label " | - | - | - |"; return }
    print "| `" host "` | " label " | " sprintf("%.2f", vcol(ds, r, "simulated")) " | " cbusy(ds, r) " | " cbusy(ds, vrow(ds, "cpus_busy", "ruby", 2, "")) " |"
}
function render(   h, n, i, k, nt, name, label) {
    n = vhosts(h, "")
    if (!n) die("no host directory under docs/data/validate/hosts")
    print "| host | scenario, 2 cores | simulated | executor: median (min–max) | Ruby: median (min–max) |"
    print "|---|---|---:|---:|---:|"
    nt = vmain(name, label)
    for (i = 1; i <= n; i++)
        for (k = 1; k <= nt; k++) cline(h[i], name[k], label[k])
}
