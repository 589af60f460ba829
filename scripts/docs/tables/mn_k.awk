# mn_k: docs/mn.md, the shared counter's slowdown against the number k of
# Ractors executing at once (k Ractors on 16 cores, max_cpu 16, exact):
# each model's wall time over the run without a counter (runs mn/k/K/*).
function render(   k, i, nk, n) {
    nk = split("1 2 3 4 6 8 12 16", k, " ")
    print "| k | `line` | `penalty`, `line_transfer` 90 ns | `penalty`, `line_transfer` 23.74 ns (fit to k = 8) |"
    print "|---:|---:|---:|---:|"
    for (i = 1; i <= nk; i++) {
        n = s("mn/k/" k[i] "/none", "wall_s")
        printf "| %d | %.2fx | %.2fx | %.2fx |\n", k[i], s("mn/k/" k[i] "/line", "wall_s") / n,
            s("mn/k/" k[i] "/penalty", "wall_s") / n, s("mn/k/" k[i] "/penalty_fit", "wall_s") / n
    }
}
