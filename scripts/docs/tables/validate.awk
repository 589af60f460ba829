# validate: README, the fidelity targets on this host - the simulator with
# the profile `gvlsim calibrate` wrote here against real Ruby 3.1.2 and the
# executor (docs/data/validate/NAME.csv, the tables of `gvlsim validate
# --measured` that scripts/docs/validate.sh writes).  Targets: the 2-core /
# 1-core ratio within 25% of the measured median, voluntary switches per op
# within 30%; an error beyond its target is bold.

function line(name, label, backend, engine, policy,   ds) {
    ds = "validate/" name
    printf "| %s | %s | %s | %s | %s |\n", label, engine,
        vcell(ds, "cores_ratio", backend, 2, policy, 0.25, "x"),
        vcell(ds, "vol_switches_per_op", backend, 1, policy, 0.30, ""),
        vcell(ds, "vol_switches_per_op", backend, 2, policy, 0.30, "")
}
function engine_of(name, backend,   ds, r) {
    ds = "validate/" name
    r = vrow(ds, "cores_ratio", backend, 2, "")
    if (r == "") die("docs/data/" ds ": no cores_ratio row of " backend)
    return vcol(ds, r, "engine")
}
function render(   rb, pol, i, n) {
    rb = engine_of("pingpong", "ruby")
    print "| target (sizes: below) | measured on | 2 cores / 1 core: simulated / measured (error) | voluntary switches per op, 1 core | the same, 2 cores |"
    print "|---|---|---:|---:|---:|"
    line("pingpong", "queue_pingpong", "ruby", rb, "")
    line("mtime2", "mtime_loop, 2 threads", "ruby", rb, "")
    line("mtime8", "mtime_loop, 8 threads", "ruby", rb, "")
    line("proc2", "proc_heavy, 2 Ractors (time per op)", "ruby", rb, "")
    line("tarai2", "tarai_ractors, 2 Ractors", "ruby", rb, "")
    n = split("eager hot_steal delayed threshold", pol, " ")
    for (i = 1; i <= n; i++) line("pingpong_policies", "queue_pingpong", "pthread", "executor, " pol[i], pol[i])
    line("pingpong", "queue_pingpong", "pthread", "executor, barging", "")
    for (i = 1; i <= n; i++) line("mtime2_policies", "mtime_loop, 2 threads", "pthread", "executor, " pol[i], pol[i])
    line("mtime2", "mtime_loop, 2 threads", "pthread", "executor, barging", "")
    printf "\n%d of %d figures within their target (ratio 25%%, switches per op 30%%).\n", NHIT, NT
}
