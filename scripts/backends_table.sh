#!/bin/sh
# backends_table.sh DIR [--update FILE] - the README's table of the seed
# scenarios on the three backends, rendered from DIR/raw.csv and
# DIR/host.txt (written by scripts/backends_results.sh).  Prints the
# Markdown; with --update, replaces the text between FILE's two
# "backends-table" markers with it instead.  tests/e2e/backends_table.sh
# checks that README.md holds what this renders from the committed data.
#
# Per scenario and backend: the result on 1 and 2 cores (wall seconds, or
# aggregate ops/s for proc_heavy, which runs for a fixed time) as
# min / median / max over the runs (one value for the deterministic
# simulator), the 2-core / 1-core ratio of the medians, and the medians of
# voluntary switches per op (per message, File.mtime call, Proc).
set -eu
dir=${1:?usage: backends_table.sh DIR [--update FILE]}
raw=$dir/raw.csv
[ -r "$raw" ] && [ -r "$dir/host.txt" ] || { echo "backends_table: no $raw or $dir/host.txt" >&2; exit 1; }

render() {
    awk -F': ' '
        $1 == "host" { host = $2 } $1 == "ruby" { ruby = $2 } $1 == "date" { date = $2 }
        $1 == "runs" { runs = $2 } $1 == "sizes" { sizes = $2 } $1 == "quiet" { quiet = $2 }
        $1 == "check" { check = $2 }
        END {
            if (check != "") printf "**%s.** ", toupper(substr(check, 1, 1)) substr(check, 2)
            printf "Measured %s on %s, %s; %s; %s. Settings: those of the installed Ruby (`--set runtime={\"ruby\": ...}`), machine profile `dev_vm` for the simulator. %s.\n\n", date, host, ruby, runs, sizes, quiet
        }' "$dir/host.txt"
    awk -F, '
        function median(a, n,   i, j, t) {
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
            return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        function fmt(v) { return v >= 100000 ? sprintf("%.0fk", v / 1000) : v >= 100 ? sprintf("%.0f", v) : sprintf("%.3f", v) }
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        {
            label = $c["label"]; cores = $c["cores_run"]; b = $c["backend_run"]
            key = label SUBSEP b SUBSEP cores
            v = (label ~ /^proc/) ? $c["ops_per_s"] : $c["wall_s"]
            n[key]++; val[key, n[key]] = v
            if ($c["ops"] > 0 && $c["vol_switches"] != "") { m[key]++; sw[key, m[key]] = $c["vol_switches"] / $c["ops"] }
            if (!(label in seen)) { seen[label] = 1; order[++nl] = label }
            if (!((label, b) in eng)) eng[label, b] = $c["engine"]
        }
        END {
            title["pingpong"] = "queue_pingpong: wall s"
            title["mtime2"] = "mtime_loop, 2 threads: wall s"
            title["mtime8"] = "mtime_loop, 8 threads: wall s"
            title["proc_off"] = "proc_heavy, 2 Ractors, YJIT off: ops/s"
            title["proc_on"] = "proc_heavy, 2 Ractors, YJIT on: ops/s"
            title["tarai"] = "tarai, 2 Ractors: wall s"
            print "| scenario | backend | 1 core | 2 cores | 2 cores / 1 core | vol. switches per op, 1 / 2 cores |"
            print "|---|---|---|---|---|---|"
            split("sim pthread ruby", bs, " ")
            for (l = 1; l <= nl; l++) {
                label = order[l]
                first = 1
                for (k = 1; k <= 3; k++) {
                    b = bs[k]
                    if (!((label, b) in eng)) continue
                    cell[1] = cell[2] = "-"; med[1] = med[2] = 0; swc[1] = swc[2] = "-"
                    for (cores = 1; cores <= 2; cores++) {
                        key = label SUBSEP b SUBSEP cores
                        if (!n[key]) continue
                        delete a
                        for (i = 1; i <= n[key]; i++) a[i] = val[key, i] + 0
                        med[cores] = median(a, n[key])
                        cell[cores] = n[key] == 1 ? fmt(a[1]) : fmt(a[1]) " / " fmt(med[cores]) " / " fmt(a[n[key]])
                        if (m[key]) {
                            delete s
                            for (i = 1; i <= m[key]; i++) s[i] = sw[key, i]
                            swc[cores] = sprintf("%.2f", median(s, m[key]))
                        }
                    }
                    ratio = med[1] > 0 && med[2] > 0 ? sprintf("%.2fx", med[2] / med[1]) : "-"
                    name = b == "ruby" ? eng[label, b] : b
                    printf "| %s | %s | %s | %s | %s | %s / %s |\n", first ? title[label] : "", name, cell[1], cell[2], ratio, swc[1], swc[2]
                    first = 0
                }
            }
        }' "$raw"
}

if [ $# -ge 3 ] && [ "$2" = --update ]; then
    table=$(mktemp)
    trap 'rm -f "$table"' EXIT
    render >"$table"
    "$(dirname "$0")/splice_doc.sh" "$3" backends-table "$table"
    echo "backends_table: $3 updated from $dir" >&2
else
    render
fi
