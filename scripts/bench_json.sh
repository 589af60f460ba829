# bench_json.sh - sourced by scripts/bench.sh: `make bench` figures as JSON
# for benchmark-tracking CI (github-action-benchmark's custom formats).
#
#   bench_json_add smaller|bigger NAME UNIT VALUE [RANGE [EXTRA]]
#       record one figure: VALUE a plain number, RANGE a free text such as
#       "0.61 .. 0.72" (min .. max over the runs), EXTRA a note (host, runs)
#   bench_json_write FILE_SMALLER FILE_BIGGER
#       write the figures, each file atomically (a temporary file renamed):
#       FILE_SMALLER in the "customSmallerIsBetter" format (times, costs
#       per event, bytes, cost ratios), FILE_BIGGER in "customBiggerIsBetter"
#       (events per second, speed-ups).  Each file is a JSON array of
#       {"name", "unit", "value", "range", "extra"} objects, one per figure
#       (range and extra "" when not given).
#
# A figure's NAME is its identity across runs: keep it stable.  Anyone adding
# a bench line (scripts/bench.d/*.sh) calls bench_json_add beside the echo.
# Names, units and notes may hold any text but control characters (a tab, a
# newline: refused); quotes and backslashes are escaped.  tests/e2e/bench_json.sh
# checks the files are strict JSON that `gvlsim compare --key name` reads.

BENCH_JSON_ROWS=$(mktemp "${TMPDIR:-/tmp}/gvlsim-bench.XXXXXX")

bench_json_add() {
    case "$1" in smaller|bigger) ;; *) echo "bench_json_add: smaller or bigger, not '$1'" >&2; return 1 ;; esac
    if ! printf '%s\n' "$4" | grep -Eqx -- '-?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?'; then
        echo "bench_json_add: '$2': value '$4' is not a number" >&2
        return 1
    fi
    case "$2$3${5:-}${6:-}" in *[[:cntrl:]]*)
        echo "bench_json_add: '$2': a control character (tab, newline) in a name, unit or note" >&2
        return 1 ;;
    esac
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "${5:-}" "${6:-}" >> "$BENCH_JSON_ROWS"
}

# _bench_json_one DIRECTION FILE
_bench_json_one() {
    dir=$(dirname "$2")
    mkdir -p "$dir" || return 1
    tmp=$(mktemp "$dir/.bench.XXXXXX") || return 1
    if awk -F '\t' -v want="$1" '
        # a JSON string: quotes and backslashes escaped, one character at a
        # time (gsub replacement escapes differ between awks)
        function js(s,    o, i, c) {
            o = ""
            for (i = 1; i <= length(s); i++) {
                c = substr(s, i, 1)
                o = o ((c == "\\" || c == "\"") ? "\\" c : c)
            }
            return "\"" o "\""
        }
        BEGIN { n = 0; printf "[" }
        $1 == want {
            # a JSON number whatever the figure looked like (".5", "1.", "017")
            printf "%s\n  {\"name\": %s, \"unit\": %s, \"value\": %.10g", (n++ ? "," : ""), js($2), js($3), $4 + 0
            # every object has the same five keys (range and extra "" when
            # there is none), so a table reader sees one set of columns
            printf ", \"range\": %s, \"extra\": %s}", js($5), js($6)
        }
        END { printf "%s]\n", (n ? "\n" : "") }' "$BENCH_JSON_ROWS" > "$tmp" && mv "$tmp" "$2"; then
        return 0
    fi
    rm -f "$tmp"
    return 1
}

bench_json_write() {
    _bench_json_one smaller "$1" && _bench_json_one bigger "$2"
    rc=$?
    rm -f "$BENCH_JSON_ROWS"
    return $rc
}
