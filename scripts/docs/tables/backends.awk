# backends: README, the seed scenarios on the three backends side by side
# (docs/data/backends/raw.csv, written by scripts/backends_results.sh; rows
# keyed LABEL/CORES/BACKEND).  Per scenario and backend: the result on 1 and
# 2 cores - wall seconds, or aggregate ops/s for proc_heavy, which runs for
# a fixed time - as min / median / max over the runs (one value for the
# deterministic simulator), the 2-core / 1-core ratio of the medians, and
# the medians of voluntary switches per op (message, File.mtime call, Proc).
function bnum(v) { return v >= 1000 ? human(v) : v >= 100 ? fx(v, 0) : fx(v, 3) }
function render(   r, labels, title, nl, l, bs, k, b, c, key, col, cell, m, sw, n, a, name, first, shown, rt) {
    r = "backends/raw"
    nl = split("pingpong mtime2 mtime8 proc_off proc_on tarai", labels, " ")
    title["pingpong"] = "queue_pingpong: wall s"
    title["mtime2"] = "mtime_loop, 2 threads: wall s"
    title["mtime8"] = "mtime_loop, 8 threads: wall s"
    title["proc_off"] = "proc_heavy, 2 Ractors, YJIT off: ops/s"
    title["proc_on"] = "proc_heavy, 2 Ractors, YJIT on: ops/s"
    title["tarai"] = "tarai, 2 Ractors: wall s"
    split("sim pthread ruby", bs, " ")
    print "| scenario | backend | 1 core | 2 cores | 2 cores / 1 core | vol. switches per op, 1 / 2 cores |"
    print "|---|---|---|---|---|---|"
    for (l = 1; l <= nl; l++) {
        first = 1
        col = labels[l] ~ /^proc/ ? "ops_per_s" : "wall_s"
        for (k = 1; k <= 3; k++) {
            b = bs[k]; shown = 0
            for (c = 1; c <= 2; c++) {
                key = labels[l] "/" c "/" b
                cell[c] = "-"; m[c] = 0; sw[c] = "-"
                if (!has(r, key)) continue
                shown = 1
                n = values(r, key, col, a); m[c] = median(a, n)
                cell[c] = n == 1 ? bnum(a[1]) : bnum(a[1]) " / " bnum(m[c]) " / " bnum(a[n])
                if (field(r, key, "ops", 1) > 0) sw[c] = fx(medq(r, key, "vol_switches", "ops"), 2)
                name = b == "ruby" ? field(r, key, "engine", 1) : b
            }
            if (!shown) continue
            rt = "-"
            if (m[1] > 0 && m[2] > 0) rt = fx(m[2] / m[1], 2) "x"
            printf "| %s | %s | %s | %s | %s | %s / %s |\n", (first ? title[labels[l]] : ""), name, cell[1], cell[2],
                rt, sw[1], sw[2]
            first = 0
        }
    }
}
