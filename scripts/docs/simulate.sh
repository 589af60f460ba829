#!/bin/sh
# simulate.sh - the simulated results behind the tables of the docs.
#
#   simulate.sh [-b GVLSIM] [-j N]          run every run of docs/data/sim-runs.txt,
#                                           write docs/data/sim.csv and
#                                           docs/data/sim-summaries.txt
#   simulate.sh [-b GVLSIM] --list [PREFIX] print the runs (expanded), one per line:
#                                           ID|SCENARIO|ARGUMENTS|FLAGS
#   simulate.sh [-b GVLSIM] [-j N] --run-list LIST OUT.csv
#                                           run the runs listed in LIST (--list's
#                                           format), write OUT.csv
#   simulate.sh [-b GVLSIM] [-j N] --check [EVENTS]
#                                           check docs/data/sim.csv against the
#                                           simulator of this tree (below)
#
# docs/data/sim-runs.txt has one line per run, "ID | SCENARIO | ARGUMENTS
# [| summary | csv=NAME]"; `{a,b}` in an ID expands the line once per value
# and the value replaces $1 (the first group), $2, ... in SCENARIO and
# ARGUMENTS.  ARGUMENTS are `gvlsim run` arguments split on blanks (no
# quoting).  Every run is `gvlsim run SCENARIO ARGUMENTS --reproducible`:
# the row of the CSV is "ID," followed by the run's CSV row.  With the flag
# `summary` the run's summary (stderr) goes to docs/data/sim-summaries.txt
# as well.  With `csv=NAME` the row goes to docs/data/NAME.csv instead of
# sim.csv: runs of scenarios with named measures have more columns than
# sim.csv's header (every run of one NAME must have the same columns).
#
# --check (part of `make test`) proves, in seconds rather than the minutes a
# full run takes, that the committed CSV is what this tree's simulator
# prints: the CSV header must be today's, the IDs those of sim-runs.txt, and
# a subset of the runs is re-run and must give the committed rows byte for
# byte: the cheapest run of every group of IDs (the part before the first
# "/"), then the others by increasing engine_events while their sum stays
# within EVENTS (default 40M; `all` re-runs everything).  The csv=NAME
# datasets are re-run whole.  The simulator is
# deterministic, so any model change that moves a documented number moves
# the rows of the cheap runs too and fails the check; `make docs` then
# regenerates the data and the tables.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/gvlsim
jobs=$(nproc 2>/dev/null || echo 2)
mode=all
while [ $# -gt 0 ]; do
    case $1 in
        -b) bin=$2; shift 2 ;;
        -j) jobs=$2; shift 2 ;;
        --list) mode=list; prefix=${2:-}; shift $(( $# > 1 ? 2 : 1 )) ;;
        --run-list) mode=runlist; list=$2; out=$3; shift 3 ;;
        --check) mode=check; budget=${2:-40000000}; shift $(( $# > 1 ? 2 : 1 )) ;;
        *) echo "usage: simulate.sh [-b GVLSIM] [-j N] [--list [PREFIX] | --run-list LIST OUT.csv | --check [EVENTS]]" >&2
           exit 2 ;;
    esac
done
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
[ -x "$bin" ] || { echo "simulate.sh: $bin is not executable (run make)" >&2; exit 2; }
cd "$top" || exit 2
runs=docs/data/sim-runs.txt
csv=docs/data/sim.csv
sums=docs/data/sim-summaries.txt
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# expand: sim-runs.txt -> ID|SCENARIO|ARGUMENTS|FLAGS, in file order
expand() { awk -v NCOLS=4 -f scripts/docs/expand.awk "$runs"; }

# header: the CSV header of this gvlsim, with the id column
header() {
    printf 'id,'
    "$bin" run tests/data/minimal.json -q --reproducible | head -n 1
}

# the csv=NAME of a FLAGS field, or nothing
dataset() {
    case $1 in *csv=*) printf '%s' "${1#*csv=}" | sed 's/[ ,|].*//' ;; esac
}

# ds_list LIST NAME: the lines of LIST that go to NAME.csv ("" = sim.csv)
ds_list() {
    while IFS='|' read -r id scn args flags; do
        [ "$(dataset "$flags")" = "$2" ] && printf '%s|%s|%s|%s\n' "$id" "$scn" "$args" "$flags"
    done <"$1"
    return 0
}

# run_ds LIST OUT.csv: the runs of LIST (all of one dataset), OUT.csv with
# the header of their first row (which every row must share)
run_ds() {
    n=0
    : >"$tmp/ds.csv"
    while IFS='|' read -r id scn args flags; do
        n=$((n + 1))
        # shellcheck disable=SC2086
        "$bin" run "$scn" $args --reproducible -q -o "$tmp/ds1.csv" || {
            echo "simulate.sh: run failed: $id" >&2; return 1; }
        h="id,$(head -n 1 "$tmp/ds1.csv")"
        if [ "$n" -eq 1 ]; then
            printf '%s\n' "$h" >"$tmp/ds.csv"
            first=$h
        elif [ "$h" != "$first" ]; then
            echo "simulate.sh: $id: its columns differ from the dataset's first run" >&2
            return 1
        fi
        printf '%s,' "$id" >>"$tmp/ds.csv"
        tail -n +2 "$tmp/ds1.csv" >>"$tmp/ds.csv"
    done <"$1"
    cp "$tmp/ds.csv" "$2.tmp" && mv "$2.tmp" "$2"
}

# run_list LIST OUT.csv [SUMMARIES]: run every line of LIST, write the CSV
run_list() {
    n=0
    while IFS='|' read -r id scn args flags; do
        n=$((n + 1))
        err=/dev/null
        [ "$flags" = summary ] && err=$tmp/$n.err
        q=-q
        [ "$flags" = summary ] && q=
        echo "$n $err $q $scn $args"
    done <"$1" >"$tmp/cmds"
    # shellcheck disable=SC2016
    xargs -P "$jobs" -L 1 sh -c 'n=$1; e=$2; shift 2
        "$0" run "$@" --reproducible --no-header -o "'"$tmp"'/$n.csv" 2>"$e" || {
            echo "simulate.sh: run $n failed: $*" >&2; exit 255; }' "$bin" <"$tmp/cmds" || return 1
    header >"$tmp/all.csv" || return 1
    i=0
    while IFS='|' read -r id scn args flags; do
        i=$((i + 1))
        printf '%s,' "$id"
        cat "$tmp/$i.csv"
        if [ -n "${3:-}" ] && [ "$flags" = summary ]; then
            { echo "## $id"; cat "$tmp/$i.err"; } >>"$tmp/sums"
        fi
    done <"$1" >>"$tmp/all.csv"
    cp "$tmp/all.csv" "$2.tmp" && mv "$2.tmp" "$2" || return 1
    if [ -n "${3:-}" ]; then
        : >>"$tmp/sums"
        # the summaries as committed when only their host times differ, so
        # that `make docs` on an unchanged tree rewrites nothing
        if [ -f "$3" ] && [ "$(norm_sums "$tmp/sums")" = "$(norm_sums "$3")" ]; then return 0; fi
        cp "$tmp/sums" "$3.tmp" && mv "$3.tmp" "$3"
    fi
}

# a summaries file without its host times (they differ from run to run)
norm_sums() { sed 's/ in [0-9.]* s host time$/ in N s host time/' "$1"; }

case $mode in
list)
    expand | awk -F'|' -v p="$prefix" 'index($1, p) == 1'
    ;;
runlist)
    run_list "$list" "$out" || exit 1
    ;;
all)
    expand >"$tmp/all"
    dup=$(cut -d'|' -f1 "$tmp/all" | sort | uniq -d | head -n 3)
    [ -z "$dup" ] || { echo "simulate.sh: $runs: duplicate IDs: $dup" >&2; exit 1; }
    t0=$(date +%s)
    ds_list "$tmp/all" "" >"$tmp/list"
    run_list "$tmp/list" "$csv" "$sums" || exit 1
    for d in $(while IFS='|' read -r _ _ _ f; do dataset "$f"; echo; done <"$tmp/all" | sort -u); do
        ds_list "$tmp/all" "$d" >"$tmp/dl"
        run_ds "$tmp/dl" "docs/data/$d.csv" || exit 1
    done
    echo "simulate.sh: $(wc -l <"$tmp/all") runs in $(( $(date +%s) - t0 )) s -> $csv, $sums"
    ;;
check)
    fail=0
    [ -r "$csv" ] || { echo "simulate.sh: no $csv (run make docs)" >&2; exit 1; }
    if [ "$(header)" != "$(head -n 1 "$csv")" ]; then
        echo "docs data: the CSV columns of gvlsim changed since $csv was made: run make docs"
        exit 1
    fi
    expand >"$tmp/all"
    for d in $(while IFS='|' read -r _ _ _ f; do dataset "$f"; echo; done <"$tmp/all" | sort -u); do
        ds_list "$tmp/all" "$d" >"$tmp/dl"
        run_ds "$tmp/dl" "$tmp/ds_got.csv" || exit 1
        if ! cmp -s "$tmp/ds_got.csv" "docs/data/$d.csv"; then
            echo "docs data: docs/data/$d.csv differs from what this tree's gvlsim gives: run make docs"
            diff "docs/data/$d.csv" "$tmp/ds_got.csv" | head -n 6 | cut -c1-240
            fail=1
        fi
    done
    ds_list "$tmp/all" "" >"$tmp/list"
    cut -d'|' -f1 "$tmp/list" >"$tmp/ids.want"
    tail -n +2 "$csv" | cut -d, -f1 >"$tmp/ids.have"
    if ! cmp -s "$tmp/ids.want" "$tmp/ids.have"; then
        echo "docs data: the runs of $runs and the rows of $csv differ: run make docs"
        diff "$tmp/ids.want" "$tmp/ids.have" | head -n 6
        exit 1
    fi
    ev=$(head -n 1 "$csv" | tr ',' '\n' | grep -nx engine_events | cut -d: -f1)
    # pick: line numbers (in the list) of the runs to re-run
    tail -n +2 "$csv" | awk -F, -v ev="$ev" -v budget="$budget" '
        { id[NR] = $1; cost[NR] = $ev; g = $1; sub(/\/.*/, "", g); grp[NR] = g
          if (!(g in best) || $ev < cost[best[g]]) best[g] = NR }
        END {
            for (g in best) { pick[best[g]] = 1; used += cost[best[g]] }
            # the others by increasing cost (a selection sort: a few hundred rows)
            n = NR
            for (k = 1; k <= n; k++) {
                m = 0
                for (i = 1; i <= n; i++) if (!(i in pick) && !(i in seen) && (!m || cost[i] < cost[m])) m = i
                if (!m) break
                seen[m] = 1
                if (budget != "all" && used + cost[m] > budget) break
                pick[m] = 1; used += cost[m]
            }
            for (i = 1; i <= n; i++) if (i in pick) print i
            for (i in pick) np++; printf "%d of %d runs, %d events\n", np, n, used > "/dev/stderr"
        }' >"$tmp/pick" 2>"$tmp/pick.msg" || exit 1
    awk 'NR == FNR { p[$1] = 1; next } FNR in p' "$tmp/pick" "$tmp/list" >"$tmp/sel"
    run_list "$tmp/sel" "$tmp/got.csv" "$tmp/got.sums" || exit 1
    tail -n +2 "$tmp/got.csv" >"$tmp/got"
    awk 'NR == FNR { p[$1 + 1] = 1; next } FNR in p' "$tmp/pick" "$csv" >"$tmp/want"
    if ! cmp -s "$tmp/want" "$tmp/got"; then
        echo "docs data: rows of $csv differ from what this tree's gvlsim gives: run make docs"
        diff "$tmp/want" "$tmp/got" | head -n 6 | cut -c1-240
        fail=1
    fi
    # summaries of re-run runs: the same text but for the host time
    if [ -s "$tmp/got.sums" ]; then
        awk '/^## / { on = 0 } NR == FNR && /^## / { want[$0] = 1 } NR == FNR { next }
             /^## / && ($0 in want) { on = 1 } on' "$tmp/got.sums" "$sums" >"$tmp/want.sums"
        if [ "$(norm_sums "$tmp/want.sums")" != "$(norm_sums "$tmp/got.sums")" ]; then
            echo "docs data: summaries in $sums differ from what this tree's gvlsim prints: run make docs"
            diff "$tmp/want.sums" "$tmp/got.sums" | head -n 6
            fail=1
        fi
    fi
    [ "$fail" -eq 0 ] && echo "docs data: $csv matches this tree's gvlsim ($(cat "$tmp/pick.msg") re-run)"
    exit "$fail"
    ;;
esac
