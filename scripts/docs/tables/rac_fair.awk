# rac_fair KEY: the range of the worker Ractors' ops/s in a proc_heavy run
# (ractor_ops_per_s without the main Ractor), "min–max", inline.
function render(   r, n, i, lo, hi) {
    n = split(s(arg(1), "ractor_ops_per_s"), r, ";")
    for (i = 2; i <= n; i++) {
        if (i == 2 || r[i] + 0 < lo) lo = r[i] + 0
        if (i == 2 || r[i] + 0 > hi) hi = r[i] + 0
    }
    printf "%s–%s", human(lo), human(hi)
}
