# pol_io_sweep: docs/policies.md, io_plus_cpu on 2 cores over the I/O wait:
# the I/O thread's calls per second under each policy (runs
# sweep/io/DURATION_NS/POLICY).
function render(   d, nd, i, j, p, np) {
    nd = split("2000 10000 50000 200000 1000000 5000000 20000000", d, " ")
    np = policies(p)
    thead("I/O wait", p, 1, np, "---:")
    for (i = 1; i <= nd; i++) {
        printf "| %s |", dur(d[i])
        for (j = 1; j <= np; j++) printf " %s |", comma1(s("sweep/io/" d[i] "/" p[j], "ops_per_s"))
        print ""
    }
}
# calls per second: one decimal below 100, else an integer with separators
function comma1(x) { return x < 100 ? fx(x, 1) : comma(x) }
