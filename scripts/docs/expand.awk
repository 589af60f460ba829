# expand.awk - the run lists of the docs (docs/data/sim-runs.txt,
# docs/data/import-runs.txt): "ID | COLUMN | ..." lines, comments (#) and
# blank lines skipped, each printed as "ID|COLUMN|..." with its columns
# trimmed.  `{a,b}` in an ID expands the line once per value, in order; the
# value replaces $1 (the first group), $2, ... in the other columns.
BEGIN { FS = "|" }
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
function out(id, vals, nv,   i, k, line, c) {
    line = id
    for (k = 2; k <= NC; k++) {
        c = COLS[k]
        for (i = nv; i >= 1; i--) gsub("\\$" i, vals[i], c)
        line = line "|" c
    }
    print line
}
# expand the first {..} group of id, recursively
function ex(id, vals, nv,   a, b, list, n, i, v2, j) {
    a = index(id, "{")
    if (!a) { out(id, vals, nv); return }
    b = index(substr(id, a), "}") + a - 1
    n = split(substr(id, a + 1, b - a - 1), list, ",")
    for (i = 1; i <= n; i++) {
        for (j = 1; j <= nv; j++) v2[j] = vals[j]
        v2[nv + 1] = list[i]
        ex(substr(id, 1, a - 1) list[i] substr(id, b + 1), v2, nv + 1)
    }
}
/^[ \t]*(#|$)/ { next }
{
    NC = NCOLS ? NCOLS : NF
    for (k = 1; k <= NC; k++) COLS[k] = trim($k)
    split("", none)
    ex(COLS[1], none, 0)
}
