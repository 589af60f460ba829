# lib.awk - the data of the docs' tables, and helpers for their renderers.
#
# scripts/docs/render.awk runs, for each marker in a Markdown file,
#     awk -v ARGS='...' -f lib.awk -f tables/NAME.awk DATA-FILES...
# where tables/NAME.awk defines render(), which prints the table (or, for
# an inline value, the value).  lib.awk loads every data file first:
#   - a CSV (name ending in .csv) under its path below docs/data without
#     the extension ("sim", "exec/raw"): rows keyed by their first column
#     (several rows may share a key: repeated measurements);
#   - any other file as lines ("exec/host").
# A missing dataset, key or column stops the rendering with a message
# (exit 2): a table is never rendered from data that is not there.
BEGIN { FS = "," }
FNR == 1 {
    DS = FILENAME; sub(/^.*docs\/data\//, "", DS); sub(/\.[A-Za-z0-9]+$/, "", DS)
    ISCSV = FILENAME ~ /\.csv$/
    HAVE[DS] = 1
    if (ISCSV) { nh = split($0, hd, ","); for (i = 1; i <= nh; i++) COL[DS, hd[i]] = i; next }
}
ISCSV {
    n = ++CNT[DS, $1]
    ROW[DS, $1, n] = $0
    if (n == 1) KEY[DS, ++NKEY[DS]] = $1
    next
}
{ LINE[DS, ++NLINE[DS]] = $0 }
END { if (!DIED) render(); exit DIED }

function die(msg) { print "render: " msg > "/dev/stderr"; DIED = 2; exit 2 }

# has(ds, key): the dataset has rows for key
function has(ds, key) { return (ds, key, 1) in ROW }

# field(ds, key, col, n): column col of the n-th row of key
function field(ds, key, col, n,   f) {
    if (!(ds in HAVE)) die("no dataset docs/data/" ds)
    if (!((ds, col) in COL)) die("docs/data/" ds ": no column " col)
    if (!((ds, key, n) in ROW)) die("docs/data/" ds ": no row " key (n > 1 ? " #" n : ""))
    split(ROW[ds, key, n], f, ",")
    return f[COL[ds, col]]
}
# value(ds, key, col): the value of the (first) row of key
function value(ds, key, col) { return field(ds, key, col, 1) }
# s(key, col): a simulated value (docs/data/sim.csv)
function s(key, col) { return field("sim", key, col, 1) }

# values(ds, key, col, a): every row's value, sorted ascending into a[1..n]; n
function values(ds, key, col, a,   n, i, j, t) {
    n = CNT[ds, key] + 0
    if (!n) die("docs/data/" ds ": no row " key)
    for (i = 1; i <= n; i++) a[i] = field(ds, key, col, i) + 0
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n
}
function median(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
# sorta(a, n): sort a[1..n] ascending
function sorta(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } }
# med(ds, key, col): the median over key's rows
function med(ds, key, col,   a, n) { n = values(ds, key, col, a); return median(a, n) }
# mmm(ds, key, col, fmt): "min / median / max" over key's rows, each in fmt
function mmm(ds, key, col, fmt,   a, n) {
    n = values(ds, key, col, a)
    return sprintf(fmt " / " fmt " / " fmt, a[1], median(a, n), a[n])
}

# fx(x, d): x with d decimals
function fx(x, d) { return sprintf("%." d "f", x) }
# comma(x): x rounded to an integer, with thousands separators
function comma(x,   t, neg, r) {
    t = sprintf("%.0f", x); neg = t ~ /^-/; if (neg) t = substr(t, 2)
    r = ""
    while (length(t) > 3) { r = "," substr(t, length(t) - 2) r; t = substr(t, 1, length(t) - 3) }
    return (neg ? "-" : "") t r
}
# human(x): 5.56M, 67.8K, 134K style (three significant digits)
function human(x,   a) {
    a = x < 0 ? -x : x
    if (a >= 1e9) return sg(x / 1e9) "G"
    if (a >= 1e6) return sg(x / 1e6) "M"
    if (a >= 1e3) return sg(x / 1e3) "K"
    return sg(x)
}
function sg(x,   a) { a = x < 0 ? -x : x; return a >= 100 ? fx(x, 0) : a >= 10 ? fx(x, 1) : fx(x, 2) }
# ratio(a, b, d): a / b with d decimals, "-" when b is 0
function ratio(a, b, d) { return b + 0 == 0 ? "-" : fx(a / b, d) }
# arg(i): the i-th word of the marker's arguments
function arg(i,   w) { split(ARGS, w, " "); return w[i] }
# dur(ns): a duration in ns as "0.5 µs", "20 µs", "1 ms", "20 ms"
function dur(ns) {
    if (ns >= 1e6) return (ns / 1e6) " ms"
    return (ns / 1e3) " µs"
}
# POL: the five GVL policies, in the order of the docs
function policies(a) { return split("eager hot_steal delayed threshold barging", a, " ") }
# sv(key, col): a simulated value, or a quotient of two when col is "a/b"
function sv(key, col,   p) {
    if (split(col, p, "/") == 2) return s(key, p[1]) / s(key, p[2])
    return s(key, col)
}
# medq(ds, key, a, b): the median over key's rows of column a / column b
function medq(ds, key, a, b,   x, n, i, j, t) {
    n = CNT[ds, key] + 0
    if (!n) die("docs/data/" ds ": no row " key)
    for (i = 1; i <= n; i++) x[i] = field(ds, key, b, i) > 0 ? field(ds, key, a, i) / field(ds, key, b, i) : 0
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
    return median(x, n)
}
# param(ds, name): "name=value" lines of a text dataset (docs/data/exec/host.txt)
function param(ds, name,   i, l) {
    for (i = 1; i <= NLINE[ds]; i++) {
        l = LINE[ds, i]
        if (index(l, name "=") == 1) return substr(l, length(name) + 2)
    }
    die("docs/data/" ds ": no " name "=")
}
# summary_values(ds, label, what, v): from the stderr summaries of the runs of
# label (docs/data/exec/summaries.txt, "## label" sections), the value of
# `what`: "joins" (barrier joins) or "kept" (the shared counter's final value
# over the instructions executed); sorted into v[1..n]; returns n
function summary_values(ds, label, what, v,   i, l, on, n, w, t, j) {
    n = 0
    for (i = 1; i <= NLINE[ds]; i++) {
        l = LINE[ds, i]
        if (l ~ /^## /) { on = (l == "## " label); continue }
        if (!on) continue
        if (what == "joins" && l ~ /barriers:/) { sub(/.*completed, /, "", l); sub(/ joins.*/, "", l); v[++n] = l + 0 }
        if (what == "kept" && l ~ /instructions:/) { split(l, w, " "); v[++n] = w[2] > 0 ? w[6] / w[2] : 0 }
    }
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    return n
}
# thead(first, a, from, to, align): a table header "| first | a[from] | ... |"
# and its separator; align is the first column's ("---" or "---:"), the
# others are right-aligned
function thead(first, a, from, to, align,   j) {
    printf "| %s |", first; for (j = from; j <= to; j++) printf " %s |", a[j]; print ""
    printf "|%s|", align; for (j = from; j <= to; j++) printf "---:|"; print ""
}
# vmain(name, label): the issue's five targets on Ruby 3.1, in the order of
# the tables of their wall times and CPUs: their directory names and labels
# into name[1..5], label[1..5]; returns 5
function vmain(name, label) {
    name[1] = "pingpong"; label[1] = "queue_pingpong"
    name[2] = "mtime2"; label[2] = "mtime_loop, 2 threads"
    name[3] = "mtime8"; label[3] = "mtime_loop, 8 threads"
    name[4] = "proc2"; label[4] = "proc_heavy, 2 Ractors"
    name[5] = "tarai2"; label[5] = "tarai_ractors, 2 Ractors"
    return 5
}
# The fidelity tables (tables/validate*.awk), one per measured host, from
# the `gvlsim validate -o` tables docs/data/validate/hosts/HOST/NAME.csv:
# vhosts(h, only): the host directories' names (HOST) into h[1..n], in the
# order they were measured (the earliest time_ line of HOST/host.txt, else
# its date=; then the name); only the host `only` when not ""; n
function vhosts(h, only,   ds, n, i, j, t, key, k) {
    n = 0
    for (ds in HAVE) {
        if (ds !~ /^validate\/hosts\/[^\/]+\/host$/) continue
        t = ds; sub(/^validate\/hosts\//, "", t); sub(/\/host$/, "", t)
        if (only != "" && t != only) continue
        h[++n] = t
        key[n] = vfirst_time(ds) " " t
    }
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
        if (key[j] < key[i]) { k = key[i]; key[i] = key[j]; key[j] = k; k = h[i]; h[i] = h[j]; h[j] = k }
    return n
}
# vfirst_time(ds): the earliest start of a target in a host.txt (its time_
# lines), else its date=
function vfirst_time(ds,   i, l, t) {
    t = ""
    for (i = 1; i <= NLINE[ds]; i++) {
        l = LINE[ds, i]
        if (l !~ /^time_/) continue
        sub(/^[^=]*=/, "", l); sub(/,.*/, "", l)
        if (t == "" || l < t) t = l
    }
    if (t == "") for (i = 1; i <= NLINE[ds]; i++) if (LINE[ds, i] ~ /^date=/) { t = LINE[ds, i]; sub(/^date=/, "", t) }
    return t
}
# vrow(ds, metric, backend, cores, policy): the table row of that metric,
# backend and configuration (policy "" when the target has no policy column)
function vrow(ds, metric, backend, cores, policy,   i, k, n, c) {
    if (!(ds in HAVE)) die("no dataset docs/data/" ds)
    for (i = 1; i <= NKEY[ds]; i++) {
        k = KEY[ds, i]
        for (n = 1; n <= CNT[ds, k]; n++) {
            if (field(ds, k, "metric", n) != metric || field(ds, k, "backend", n) != backend) continue
            if (field(ds, k, "machine.cores", n) != cores) continue
            if (policy != "" && field(ds, k, "runtime.gvl_policy", n) != policy) continue
            return ROW[ds, k, n]
        }
    }
    return ""
}
# vcol(ds, row, name): column name of such a row
function vcol(ds, row, name,   f) {
    split(row, f, ",")
    return f[COL[ds, name]]
}
# vedges(): the note on the figures of ranges that cross their target
# (NEDGE, EDGES), "" if none
function vedges() {
    if (!NEDGE) return ""
    return sprintf("\n‡ On %d figure%s the simulated value crosses its target when one measurement of the host's profile moves across its interquartile range (`gvlsim validate --sensitivity`: each measurement at its q1 and at its q3, the keys derived from it again, each such profile simulated under one seed; the range holds the profile's own figure under that seed):\n\n%s",
        NEDGE, NEDGE == 1 ? "" : "s", EDGES)
}
# vfig(x, unit): a ratio as 2.48x (unit "x"), else as vnum
function vfig(x, unit) {
    return unit == "x" ? sprintf("%.2fx", x) : vnum(x)
}
# vnum(x): 3 significant digits, plain
function vnum(x,   a) {
    a = x < 0 ? -x : x
    if (a == 0) return "0"
    if (a >= 100) return sprintf("%.0f", x)
    if (a >= 1) return sprintf("%.2f", x)
    return sprintf("%.3g", x)
}
# vcell(ds, metric, backend, cores, policy, target, unit): "sim / measured
# (error)", the error bold beyond the target; counts a hit in NHIT and a
# figure in NT.  A table simulated under several seeds (`validate --seeds`:
# simulated is their median, with simulated_min and simulated_max) marks
# with a dagger a figure whose seeds disagree, some within the target and
# some beyond it; counted in NMIX, the seeds in SEEDS.  A table with the
# ranges of `validate --sensitivity` (range_min, range_max) marks with a
# double dagger a figure whose range crosses its target (some move of one
# of the profile's measurements across its interquartile range puts it
# within the target and another beyond): counted in NEDGE, listed in EDGES
# (a line each, labelled VLABEL) by vedges().
function vcell(ds, metric, backend, cores, policy, target, unit,   r, sim, md, err, e, lo, hi, rl, rh, what, sp) {
    r = vrow(ds, metric, backend, cores, policy)
    if (r == "") return "-"
    sim = vcol(ds, r, "simulated"); md = vcol(ds, r, "measured_median"); err = vcol(ds, r, "rel_error")
    if (sim == "" || md == "") return "-"
    e = err == "" ? "n/a" : sprintf("%+.0f%%", 100 * err)
    if (err != "") {
        NT++
        if ((err < 0 ? -err : err) <= target) NHIT++
        else e = "**" e "**"
        if (((ds, "simulated_min") in COL) && md + 0 != 0 && vcol(ds, r, "simulated_min") != "") {
            SEEDS = vcol(ds, r, "simulated_runs")
            lo = vcol(ds, r, "simulated_min") / md - 1; hi = vcol(ds, r, "simulated_max") / md - 1
            if (!(lo >= -target && hi <= target) && !(hi < -target || lo > target)) { NMIX++; e = e " †" }
        }
        if (((ds, "range_min") in COL) && md + 0 != 0 && vcol(ds, r, "range_min") != "") {
            rl = vcol(ds, r, "range_min"); rh = vcol(ds, r, "range_max")
            lo = rl / md - 1; hi = rh / md - 1
            if (!(lo >= -target && hi <= target) && !(hi < -target || lo > target)) {
                NEDGE++; e = e " ‡"
                what = metric == "cores_ratio" ? "2 cores / 1 core" : "switches per op, " cores (cores == 1 ? " core" : " cores")
                # the seeds' own spread beside it: a move simulated under one seed is
                # also another draw, so a range within that spread may be the draws'
                sp = ""
                if (((ds, "simulated_min") in COL) && vcol(ds, r, "simulated_min") != "")
                    sp = sprintf(", the %d seeds alone %s–%s", vcol(ds, r, "simulated_runs"),
                        vfig(vcol(ds, r, "simulated_min"), unit), vfig(vcol(ds, r, "simulated_max"), unit))
                EDGES = EDGES sprintf("- %s, %s: %s–%s over the IQRs (error %+.0f%% to %+.0f%%%s); most sensitive to %s (`%s`)\n",
                    VLABEL, what, vfig(rl, unit), vfig(rh, unit), 100 * lo, 100 * hi, sp,
                    vcol(ds, r, "sensitive_to"), vcol(ds, r, "sensitive_measurement"))
            }
        }
    }
    if (unit == "x") return sprintf("%.2fx / %.2fx (%s)", sim, md, e)
    return vnum(sim) " / " vnum(md) " (" e ")"
}
