#!/bin/sh
# regress.sh BINARY [--update] - the seed suite against its baselines.
#
# Runs every sweep of the demo list (scenarios/demo.txt: the seed
# scenarios of the bug reports, every GVL policy, the duration sweeps) with
# --reproducible into build/regress/NAME.csv and compares each with its
# baseline tests/regress/NAME.csv (`gvlsim compare`: simulated rows must
# not move at all).  --update rewrites the baselines from the new rows
# instead (`gvlsim compare --update`), so that a deliberate model change
# shows in review as a diff of tests/regress/*.csv.
#
# Environment: REGRESS_ARGS (more `gvlsim sweep` arguments for every sweep,
# e.g. --machines DIR), REGRESS_ONLY (names to run, space-separated),
# REGRESS_BASE (the baselines' directory), REGRESS_OUT (the new rows'),
# GVLSIM_DEMO_LIST (another list).
# Exit status: 0 every sweep matches its baseline, 1 some metric moved (the
# tables above say which), otherwise the worst error (3: a baseline is
# missing or does not match the suite's configurations, ...).
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ] || { [ $# -eq 2 ] && [ "$2" != --update ]; }; then
    echo "usage: scripts/regress.sh BINARY [--update]" >&2
    exit 2
fi
bin=$1
update=${2:-}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
base=${REGRESS_BASE:-tests/regress}
out=${REGRESS_OUT:-build/regress}
mkdir -p "$out" "$base" || exit 5
. scripts/demo_list.sh

worst=0
nrun=0
nbad=0
names=""
note() { [ "$1" -gt "$worst" ] && worst=$1; }
one() {  # NAME SCENARIO SWEEP_ARGS PLOT_ARGS
    name=$1 scn=$2 sweep=$3
    case "$scn" in @*) return ;; esac     # a second plot of a sweep: nothing to run
    if [ -n "${REGRESS_ONLY:-}" ]; then
        case " $REGRESS_ONLY " in *" $name "*) ;; *) return ;; esac
    fi
    if [ ! -f "$scn" ]; then
        echo "regress: $name: $scn does not exist here, skipped"
        return
    fi
    names="$names $name"
    nrun=$((nrun + 1))
    eval "set -- $sweep ${REGRESS_ARGS:-}"
    if ! "$bin" sweep "$scn" "$@" --reproducible -q -o "$out/$name.csv"; then
        echo "regress: $name: the sweep failed (see above)" >&2
        nbad=$((nbad + 1))
        note 4
        return
    fi
    if [ -n "$update" ]; then
        "$bin" compare "$base/$name.csv" "$out/$name.csv" --update -q || { nbad=$((nbad + 1)); note $?; }
        echo "regress: $name: baseline $base/$name.csv written"
        return
    fi
    if [ ! -f "$base/$name.csv" ]; then
        echo "regress: $name: no baseline $base/$name.csv (make regress-update writes it)" >&2
        nbad=$((nbad + 1))
        note 3
        return
    fi
    "$bin" compare "$base/$name.csv" "$out/$name.csv" >"$out/$name.report" 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then
        echo "regress: $name: ok ($(sed 's/^[^:]*: [^:]*: //' "$out/$name.report" | head -1))"
    else
        echo "regress: $name:"
        sed 's/^/  /' "$out/$name.report"
        nbad=$((nbad + 1))
        note $rc
    fi
}
demo_list_each one

# a baseline that no sweep of the list makes any more is stale
if [ -z "${REGRESS_ONLY:-}" ]; then
    for f in "$base"/*.csv; do
        [ -e "$f" ] || continue
        n=$(basename "$f" .csv)
        case " $names " in *" $n "*) ;; *)
            echo "regress: $f: no sweep of the list makes it (remove it, or restore its line)" >&2
            nbad=$((nbad + 1))
            note 3 ;;
        esac
    done
fi
if [ -n "$update" ]; then
    echo "regress: $nrun baselines written in $base; review them with git diff"
elif [ "$worst" -eq 0 ]; then
    echo "regress: $nrun sweeps, each equal to its baseline"
else
    echo "regress: $nrun sweeps, $nbad not equal to their baseline (exit $worst)"
fi
exit $worst
