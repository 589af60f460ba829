# exec_proc: docs/exec-results.md, proc_heavy with 2 worker Ractors on 2
# cores on the real executor (docs/data/exec/raw.csv and summaries.txt).
function render(   r, c, i, k, b, j, nj, per) {
    r = "exec/raw"
    split("lock_barrier lockless none", c, " ")
    print "| invariant_check | aggregate ops/s (min / median / max) | barriers (median) | joins (median) | µs per barrier | CPU/wall |"
    print "|---|---|---:|---:|---:|---:|"
    for (i = 1; i <= 3; i++) {
        k = "proc/" c[i]
        b = med(r, k, "barriers")
        nj = summary_values("exec/summaries", k, "joins", j)
        per = (c[i] == "lock_barrier" && b > 0) ? fx(1e6 * med(r, k, "wall_s") / b, 1) : "-"
        printf "| %s | %s | %s | %s | %s | %.2f |\n", c[i], mmm(r, k, "ops_per_s", "%.0f"), comma(b), (nj ? comma(median(j, nj)) : "-"),
            per, medq(r, k, "cpu_s", "wall_s")
    }
}
