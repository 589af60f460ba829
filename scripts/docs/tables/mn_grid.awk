# mn_grid: docs/mn.md, wall time over Ractors R and cores, shared counter and
# none (the scenario's runtime: max_cpu 12, minus_one); runs mn/grid/*.
function render(   c, v, r, i, j, nc) {
    nc = split("1 2 4 8 16", c, " ")
    split("shared none", v, " ")
    printf "| R |"
    for (i = 1; i <= 2; i++) for (j = 1; j <= nc; j++) printf " %s, %d core%s |", v[i], c[j], c[j] == 1 ? "" : "s"
    print ""
    printf "|---:|"
    for (i = 1; i <= 2 * nc; i++) printf "---:|"
    print ""
    for (r = 1; r <= 16; r++) {
        printf "| %d |", r
        for (i = 1; i <= 2; i++) for (j = 1; j <= nc; j++) printf " %.2f |", s("mn/grid/" v[i] "/" r "/" c[j], "wall_s")
        print ""
    }
}
