# rac_share KEY COLUMN[+COLUMN...]: the share of the worker threads' time a
# proc_heavy run spent in the given states, in percent, inline.  Worker
# time is every thread's time minus the main thread's, which is parked
# throughout.
function render(   c, nc, i, x, wt) {
    wt = s(arg(1), "threads") * s(arg(1), "wall_s") - s(arg(1), "parked_s")
    nc = split(arg(2), c, "+")
    for (i = 1; i <= nc; i++) x += s(arg(1), c[i])
    printf "%.0f%%", 100 * x / wt
}
