# val KEY COLUMN FORMAT: one simulated value, inline (docs/data/sim.csv);
# COLUMN may be a quotient of two columns, e.g. vol_switches/syscalls.
# FORMAT: a number of decimals, `c` (an integer with thousands separators),
# `h` (three significant digits with K/M/G), `us` (seconds as µs, 1
# decimal) or `pct` (a fraction as a percentage).
function render(   x, f) {
    x = sv(arg(1), arg(2)); f = arg(3)
    printf "%s", f == "c" ? comma(x) : f == "h" ? human(x) : f == "us" ? fx(1e6 * x, 1) : f == "pct" ? fx(100 * x, 0) "%" : fx(x, f)
}
