# import_seeds [windows]: docs/import.md, thread_name_with_extension replayed under seeds
# 1-90 (docs/data/import-seeds.csv, scripts/docs/imports.sh): wants_gvl against the
# trace's by when the GVL queue's head (worker-1) first ran - at worker-4's first `p`
# (42.1 ms in the trace), at its second (84.4 ms: the trace's outcome) or at the end of the
# first quantum (100.3 ms) - and over all seeds; with ARGS "windows", the medians of seeds
# 1-15, 16-30, ... instead.  The boundaries (63 ms, 95 ms) lie between those three times.
function err(k) { return (value("import-seeds", k, "wants_gvl_s") / value("import-seeds", k, "trace_wants_gvl_s") - 1) * 100 }
function pct(x) { return sprintf("%+.1f%%", x) }
function row(name, a, n,   i, w) {
    if (!n) { printf "| %s | 0 | | | |\n", name; return }
    sorta(a, n)
    for (i = 1; i <= n; i++) w += a[i] >= -20 && a[i] <= 20
    printf "| %s | %d | %s | %s to %s | %d |\n", name, n, pct(median(a, n)), pct(a[1]), pct(a[n]), w
}
function render(   k, i, n, e, h, a1, n1, a2, n2, a3, n3, all, na, win, nw, out) {
    n = NKEY["import-seeds"]
    if (n < 1) die("docs/data/import-seeds: no rows")
    if (arg(1) == "windows") {
        for (i = 1; i + 14 <= n; i += 15) {
            nw = 0
            for (k = i; k < i + 15; k++) win[++nw] = err(KEY["import-seeds", k])
            sorta(win, nw)
            out = out (out == "" ? "" : ", ") pct(median(win, nw))
        }
        printf "%s", out
        return
    }
    for (i = 1; i <= n; i++) {
        k = KEY["import-seeds", i]
        e = err(k); h = value("import-seeds", k, "head_first_run_s")
        all[++na] = e
        if (h < 0.063) a1[++n1] = e
        else if (h < 0.095) a2[++n2] = e
        else a3[++n3] = e
    }
    print "| the GVL queue's head (worker-1) first ran | seeds | `wants_gvl` against the trace: median | range | within 20% |"
    print "|---|---:|---:|---:|---:|"
    row("at worker-4's second `p` (84.4 ms in the trace): the trace's outcome", a2, n2)
    row("at its first `p` (42.1 ms)", a1, n1)
    row("at the first quantum's end (100.3 ms): worker-4 kept the GVL at both", a3, n3)
    row("all of seeds 1-" n, all, na)
}
