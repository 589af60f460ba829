# xval DATASET LABEL COLUMN FORMAT: a measured value, inline: the median over
# the runs of LABEL in docs/data/DATASET/raw.csv (COLUMN may be "a/b": the
# median of the per-run quotient).  FORMAT as for `val`.
function render(   p, x, f, d) {
    d = arg(1) "/raw"
    if (split(arg(3), p, "/") == 2) x = medq(d, arg(2), p[1], p[2])
    else x = med(d, arg(2), arg(3))
    f = arg(4)
    printf "%s", f == "c" ? comma(x) : f == "h" ? human(x) : f == "pct" ? fx(100 * x, 0) "%" : fx(x, f)
}
