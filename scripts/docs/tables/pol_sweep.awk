# pol_sweep: docs/policies.md, mtime_loop with 2 threads on 2 cores over the
# syscall duration: each policy's wall time relative to eager's (runs
# sweep/syscall/DURATION_NS/POLICY).
function render(   d, nd, i, j, p, np) {
    nd = split("500 1000 2000 5000 10000 20000 50000 100000 200000 500000 1000000 2000000 5000000 10000000 20000000", d, " ")
    np = policies(p)
    p[1] = "eager (s)"
    thead("call", p, 1, np, "---:")
    p[1] = "eager"
    for (i = 1; i <= nd; i++) {
        printf "| %s | %.3f |", dur(d[i]), s("sweep/syscall/" d[i] "/eager", "wall_s")
        for (j = 2; j <= np; j++)
            printf " %.2f |", s("sweep/syscall/" d[i] "/" p[j], "wall_s") / s("sweep/syscall/" d[i] "/eager", "wall_s")
        print ""
    }
}
