# import_whatif: README, the what-if sweep of bug #19717's repro recorded
# on Ruby 3.2 (docs/data/import-whatif.csv: every GVL policy x 1, 2, 4, 8
# cores): the wall time, and the time the threads spent waiting for the GVL.
function render(   k, i, pol, c, pols, np, cores, nc, row, W, G, j) {
    for (i = 1; i <= NKEY["import-whatif"]; i++) {
        k = KEY["import-whatif", i]
        pol = value("import-whatif", k, "runtime.gvl_policy"); c = value("import-whatif", k, "machine.cores")
        if (!(pol in seenp)) { seenp[pol] = 1; pols[++np] = pol }
        if (!(c in seenc)) { seenc[c] = 1; cores[++nc] = c }
        W[pol, c] = value("import-whatif", k, "wall_s"); G[pol, c] = value("import-whatif", k, "wants_gvl_s")
    }
    printf "| policy |"; for (j = 1; j <= nc; j++) printf " %s core%s |", cores[j], cores[j] == 1 ? "" : "s"; print ""
    printf "|---|"; for (j = 1; j <= nc; j++) printf "---:|"; print ""
    for (i = 1; i <= np; i++) {
        printf "| `%s` |", pols[i]
        for (j = 1; j <= nc; j++) printf " %.3f s, %s ms |", W[pols[i], cores[j]], fx(G[pols[i], cores[j]] * 1e3, 1)
        print ""
    }
}
