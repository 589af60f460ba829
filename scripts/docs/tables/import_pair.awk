# import_pair: docs/import.md, bug #19717's traces each replayed under
# barging (3.2's GVL) and eager (3.3's), on gvltrace_2023 (runs pair/*).
function pv(id, pol, col) { return value("import", "pair/" id "/" pol, col) }
function render(   ids, n, i, pols, j, id, p) {
    n = split("ping-pong-3_2 ping-pong-3_3 ping-pong-pr8331-3_3", ids, " ")
    split("barging eager", pols, " ")
    print "| trace | trace: wall, wants_gvl | replay GVL | wall | wants_gvl | futex wakes | voluntary switches |"
    print "|---|---|---|---:|---:|---:|---:|"
    for (i = 1; i <= n; i++)
        for (j = 1; j <= 2; j++) {
            id = ids[i]; p = pols[j]
            printf "| %s | %s | `%s` | %.3f s | %.1f ms | %s | %s |\n", j == 1 ? id : "",
                j == 1 ? sprintf("%.3f s, %.1f ms", pv(id, p, "trace_wall_s"), pv(id, p, "trace_wants_gvl_s") * 1e3) : "",
                p, pv(id, p, "wall_s"), pv(id, p, "wants_gvl_s") * 1e3, comma(pv(id, p, "wakeups")), comma(pv(id, p, "vol_switches"))
        }
}
