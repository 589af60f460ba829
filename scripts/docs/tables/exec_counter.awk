# exec_counter: docs/exec-results.md, tarai_ractors (the instruction counter)
# with 2 worker Ractors on the real executor (docs/data/exec/raw.csv and
# summaries.txt).
function render(   r, c, i, a, b, v, n) {
    r = "exec/raw"
    split("shared thread_local none", c, " ")
    print "| insn_counter | 1 core (s, min / median / max) | 2 cores (s) | 2c/1c | CPU/wall 2c | counter value / instructions, 2c |"
    print "|---|---|---|---:|---:|---:|"
    for (i = 1; i <= 3; i++) {
        a = "counter/" c[i] "/1"; b = "counter/" c[i] "/2"
        n = summary_values("exec/summaries", b, "kept", v)
        printf "| %s | %s | %s | %s | %.2f | %s |\n", c[i], mmm(r, a, "wall_s", "%.3f"), mmm(r, b, "wall_s", "%.3f"),
            (i == 1 ? "**" : "") ratio(med(r, b, "wall_s"), med(r, a, "wall_s"), 2) (i == 1 ? "**" : ""), medq(r, b, "cpu_s", "wall_s"),
            n ? fx(median(v, n), 2) : "-"
    }
}
