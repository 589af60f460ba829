# share KEY COLUMN[+COLUMN...]: a state's share of the thread time of a
# simulated run (the state columns summed over threads, as the summary
# prints them), in percent, inline.  `share KEY cpu_s wall_s` style
# quotients are `val`'s; this one divides by the sum of every *_s state.
function render(   st, n, i, tot, c, nc, x) {
    n = split("running_s wants_gvl_s blocking_s parked_s sleeping_s barrier_init_s barrier_join_s vmlock_wait_s wants_snt_s gc_s", st, " ")
    for (i = 1; i <= n; i++) tot += s(arg(1), st[i])
    nc = split(arg(2), c, "+")
    for (i = 1; i <= nc; i++) x += s(arg(1), c[i])
    printf "%.0f%%", 100 * x / tot
}
