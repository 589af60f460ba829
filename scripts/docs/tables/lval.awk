# lval DATASET KEY COLUMN FORMAT: one simulated value of a csv=DATASET run
# of docs/data/sim-runs.txt (docs/data/DATASET.csv), inline; COLUMN may be
# a quotient "a/b".  FORMAT: a number of decimals, `c` (thousands
# separators) or `ms` (seconds as milliseconds, no decimals).
function render(   p, x, f) {
    if (split(arg(3), p, "/") == 2) x = value(arg(1), arg(2), p[1]) / value(arg(1), arg(2), p[2])
    else x = value(arg(1), arg(2), arg(3))
    f = arg(4)
    printf "%s", f == "c" ? comma(x) : f == "ms" ? fx(1000 * x, 0) : fx(x, f)
}
