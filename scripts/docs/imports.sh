#!/bin/sh
# imports.sh - the real traces of tests/data/gvl-tracing, imported and
# re-simulated: the data behind the import tables of README.md and
# docs/import.md.
#
#   imports.sh [-b GVLSIM]           import and run every line of
#                                    docs/data/import-runs.txt into
#                                    docs/data/import.csv; run the what-if
#                                    sweep into docs/data/import-whatif.csv
#                                    and plot it (docs/img/import_whatif.png,
#                                    when gnuplot is installed); replay
#                                    thread_name_with_extension under seeds
#                                    1-91 into docs/data/import-seeds.csv
#   imports.sh [-b GVLSIM] --check   do the same into a temporary directory
#                                    and fail if any CSV differs from the
#                                    committed one (every import and run is
#                                    re-done: they take a few seconds)
#
# docs/data/import-runs.txt has one line per run, "ID | TRACE | IMPORT
# ARGUMENTS | RUN ARGUMENTS"; `{a,b}` in an ID expands the line once per
# value, which replaces $1 (the first group), $2, ... in the other columns.  A
# line is `gvlsim import gvl-tracing TRACE IMPORT-ARGS --stats` and then
# `gvlsim run SCENARIO RUN-ARGS --reproducible --seed S` for S = 1..$seeds;
# its row in import.csv is the ID, the trace's own totals (columns trace_*:
# `--stats`) and the CSV row of the run whose wants_gvl_s is the median of
# those (column seed: which; a replay is a sequence of races on wake-up
# jitter, and one seed is one draw: docs/import.md).
set -u
name=imports.sh
. "$(dirname "$0")/args.inc"
runs=docs/data/import-runs.txt
csv=docs/data/import.csv
whatif=docs/data/import-whatif.csv
seedcsv=docs/data/import-seeds.csv
png=docs/img/import_whatif.png
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
mach="--machines scenarios/machines"
seeds=91   # odd: the median is one of the runs (docs/import.md: why 91)

# ID | TRACE | IMPORT | RUN, with {a,b} groups expanded
expand() { awk -v NCOLS=4 -f scripts/docs/expand.awk "$runs"; }

# run_all OUT.csv: every line, in order
run_all() {
    i=0
    while IFS='|' read -r id trace imp args; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        "$bin" import gvl-tracing "$trace" $imp $mach -q -o "$tmp/$i.json" --stats "$tmp/$i.stats" ||
            { echo "imports.sh: $id: import failed" >&2; return 1; }
        # the seeds: one sweep process over them (`--param seed=1,...`): its
        # row of seed S is "point,rep,S," and then the row of `gvlsim run
        # --seed S`, byte for byte (a process per seed cost ten times the
        # CPU, in process start-ups); -j does not change the rows
        # shellcheck disable=SC2086
        "$bin" sweep "$tmp/$i.json" $args $mach -q --reproducible -j 2 --param seed="$(seq -s, 1 $seeds)" \
            -o "$tmp/$i.sweep.csv" || { echo "imports.sh: $id: a run failed" >&2; return 1; }
        cut -d, -f4- "$tmp/$i.sweep.csv" >"$tmp/$i.runs.csv"
        tail -n +2 "$tmp/$i.runs.csv" >"$tmp/$i.rows"
        [ "$(wc -l <"$tmp/$i.rows")" -eq "$seeds" ] || { echo "imports.sh: $id: not $seeds rows" >&2; return 1; }
        if [ "$i" -eq 1 ]; then
            printf 'id,%s,%s\n' "$(head -n 1 "$tmp/$i.stats" | sed 's/\([^,]*\)/trace_\1/g')" "$(head -n 1 "$tmp/$i.runs.csv")"
            wcol=$(head -n 1 "$tmp/$i.runs.csv" | tr , '\n' | grep -nx wants_gvl_s | cut -d: -f1)
            scol=$(head -n 1 "$tmp/$i.runs.csv" | tr , '\n' | grep -nx seed | cut -d: -f1)
        fi
        rm -f "$tmp/$i.sweep.csv" "$tmp/$i.runs.csv"
        # the run of median wants_gvl (ties: the lower seed first)
        row=$(LC_ALL=C sort -t, -k"$wcol,$wcol"g -k"$scol,$scol"n "$tmp/$i.rows" | sed -n "$(((seeds + 1) / 2))p")
        printf '%s,%s,%s\n' "$id" "$(tail -n 1 "$tmp/$i.stats")" "$row"
    done <"$tmp/list" >"$tmp/all.csv" || return 1
    cp "$tmp/all.csv" "$1"
}

# the what-if: bug #19717's repro, recorded on Ruby 3.2, under every GVL policy and 1-8 cores
whatif_run() {
    # shellcheck disable=SC2086
    "$bin" import gvl-tracing tests/data/gvl-tracing/ping-pong-3_2.json.gz --ruby 3.2 \
        --machine gvltrace_2023 $mach -q -o "$tmp/whatif.json" || return 1
    # shellcheck disable=SC2086
    "$bin" sweep "$tmp/whatif.json" $mach -q --reproducible -j 2 \
        --param runtime.gvl_policy=barging,eager,hot_steal,delayed,threshold --param machine.cores=1,2,4,8 \
        -o "$1"
}

# thread_name_with_extension, a sequence of races, under seeds 1-$seeds (docs/import.md): per
# seed the trace's wall and wants_gvl, the replay's, and when the GVL queue's head (worker-1,
# READY since 0.25 ms) first ran: in the trace at 84.4 ms, at worker-4's second release
seeds_run() {
    # shellcheck disable=SC2086
    "$bin" import gvl-tracing tests/data/gvl-tracing/thread_name_with_extension.json.gz --ruby 3.2 \
        --machine gvltrace_2023 $mach -q -o "$tmp/tn.json" --stats "$tmp/tn.stats" || return 1
    tr=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $c["wall_s"] "," $c["wants_gvl_s"] }' \
        "$tmp/tn.stats")
    echo "seed,trace_wall_s,trace_wants_gvl_s,wall_s,wants_gvl_s,head_first_run_s" >"$1"
    for s in $(seq 1 $seeds); do
        # shellcheck disable=SC2086
        "$bin" run "$tmp/tn.json" $mach -q --reproducible --seed "$s" -o "$tmp/tn.csv" --trace "$tmp/tn.trace.json" ||
            { echo "imports.sh: thread_name_with_extension: run failed (seed $s)" >&2; return 1; }
        # worker-1's track, then its first running slice (µs)
        head=$(awk '/"name":"thread_name"/ && /"name":"worker-1 / { sub(/.*"tid":/, ""); sub(/,.*/, ""); t = $0 }
                    t != "" && /"cat":"thread","name":"running"/ && index($0, "\"tid\":" t ",") {
                        sub(/.*"ts":/, ""); sub(/,.*/, ""); print $0 / 1e6; exit }' "$tmp/tn.trace.json")
        [ -n "$head" ] || { echo "imports.sh: thread_name_with_extension: worker-1 never ran (seed $s)" >&2; return 1; }
        awk -F, -v s="$s" -v tr="$tr" -v head="$head" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
            NR == 2 { print s "," tr "," $c["wall_s"] "," $c["wants_gvl_s"] "," head }' "$tmp/tn.csv" >>"$1"
    done
}

expand >"$tmp/list"
if [ $check -eq 1 ]; then
    fail=0
    run_all "$tmp/got.csv" || exit 1
    if ! cmp -s "$csv" "$tmp/got.csv"; then
        echo "docs data: $csv differs from what this tree's gvlsim gives: run make docs"
        diff "$csv" "$tmp/got.csv" | head -n 6 | cut -c1-240
        fail=1
    fi
    whatif_run "$tmp/whatif.csv" || exit 1
    if ! cmp -s "$whatif" "$tmp/whatif.csv"; then
        echo "docs data: $whatif differs from what this tree's gvlsim gives: run make docs"
        diff "$whatif" "$tmp/whatif.csv" | head -n 6 | cut -c1-240
        fail=1
    fi
    seeds_run "$tmp/seeds.csv" || exit 1
    if ! cmp -s "$seedcsv" "$tmp/seeds.csv"; then
        echo "docs data: $seedcsv differs from what this tree's gvlsim gives: run make docs"
        diff "$seedcsv" "$tmp/seeds.csv" | head -n 6 | cut -c1-240
        fail=1
    fi
    [ "$fail" -eq 0 ] && echo "docs data: $csv ($(wc -l <"$tmp/list") imports and runs), $whatif and $seedcsv match this tree's gvlsim"
    exit "$fail"
fi
run_all "$tmp/all2.csv" && cp "$tmp/all2.csv" "$csv.tmp" && mv "$csv.tmp" "$csv" || exit 1
whatif_run "$tmp/whatif.csv" && cp "$tmp/whatif.csv" "$whatif.tmp" && mv "$whatif.tmp" "$whatif" || exit 1
seeds_run "$tmp/seeds.csv" && cp "$tmp/seeds.csv" "$seedcsv.tmp" && mv "$seedcsv.tmp" "$seedcsv" || exit 1
mkdir -p docs/img
"$bin" plot "$whatif" --x cores --y wants_gvl_s --logy --series runtime.gvl_policy --series-title policy \
    --title "bug #19717 repro, recorded on Ruby 3.2, replayed" --xlabel cores --ylabel "time the threads waited for the GVL" \
    -o "$png" >/dev/null 2>"$tmp/plot.err"
rc=$?
if [ $rc -eq 7 ]; then
    echo "imports.sh: gnuplot is not installed: $png not redrawn (its script is ${png%.png}.gp)"
elif [ $rc -ne 0 ]; then
    cat "$tmp/plot.err" >&2
    exit 1
fi
echo "imports.sh: $(wc -l <"$tmp/list") imports and runs -> $csv; the what-if sweep -> $whatif, $png; $seeds seeds -> $seedcsv"
