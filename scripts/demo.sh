#!/bin/sh
# demo.sh BINARY OUTDIR - run the demo list (scenarios/demo.txt): one sweep
# CSV per line, a gnuplot script + PNG where a plot is asked for, and two
# small Perfetto traces with the CSV row of each traced run.  It ends with
# the list of every file it wrote.  Called by `make demo` after `make deps`.
# Exit status: 0 if every sweep ran (a missing gnuplot only skips the PNGs),
# 1 otherwise.
set -u
if [ $# -ne 2 ]; then
    echo "usage: scripts/demo.sh BINARY OUTDIR" >&2
    exit 2
fi
bin=$1
out=$2
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
mkdir -p "$out" || exit 1
. scripts/demo_list.sh

failed=0
made=""
noplot=0
t0=$(date +%s)
one() {  # NAME SCENARIO SWEEP_ARGS PLOT_ARGS
    name=$1 scn=$2 sweep=$3 plot=$4
    case "$scn" in
    @*) csv="$out/${scn#@}.csv"
        [ -s "$csv" ] || { echo "demo: $name: no ${scn#@}.csv to plot, skipped"; return; } ;;
    *)  csv="$out/$name.csv"
        if [ ! -f "$scn" ]; then
            echo "demo: $name: $scn does not exist here, skipped"
            return
        fi
        echo "demo: $name: gvlsim sweep $scn${sweep:+ $sweep}"
        eval "set -- $sweep"
        if ! "$bin" sweep "$scn" "$@" --reproducible -q -o "$csv"; then
            echo "demo: $name: the sweep failed (see above)" >&2
            failed=1
            [ -s "$csv" ] || return
        fi
        made="$made $csv" ;;
    esac
    [ -n "$plot" ] || return
    eval "set -- $plot"
    "$bin" plot "$csv" "$@" -o "$out/$name.png" 2>"$out/.plot.err"
    rc=$?
    if [ $rc -eq 0 ]; then
        made="$made $out/$name.png"
    elif [ $rc -eq 7 ]; then
        noplot=1
    else
        cat "$out/.plot.err" >&2
        failed=1
    fi
    made="$made $out/$name.gp"
}
demo_list_each one
rm -f "$out/.plot.err"

# Two timelines for ui.perfetto.dev (short runs: a trace of the full 1M
# messages would hold tens of millions of events)
echo "demo: traces"
if "$bin" run scenarios/queue_pingpong.json -q --set machine.cores=2 \
        --set ractors.0.threads.0.program.0.times=400 --set ractors.0.threads.1.program.0.times=2000 \
        --trace "$out/queue_pingpong_2core.trace.json.gz" -o "$out/queue_pingpong_2core.trace.csv" &&
   "$bin" run scenarios/mtime_loop.json -q --set machine.cores=2 \
        --set ractors.0.threads.1.program.0.times_total=2000 \
        --trace "$out/mtime_loop_8threads_2core.trace.json.gz" -o "$out/mtime_loop_8threads_2core.trace.csv"; then
    made="$made $out/queue_pingpong_2core.trace.json.gz $out/queue_pingpong_2core.trace.csv"
    made="$made $out/mtime_loop_8threads_2core.trace.json.gz $out/mtime_loop_8threads_2core.trace.csv"
else
    failed=1
fi

echo
echo "demo: done in $(( $(date +%s) - t0 )) s; outputs:"
for f in $made; do echo "  $f"; done
[ $noplot -eq 0 ] || echo "demo: gnuplot is not installed: no PNGs (the .gp scripts are written; install gnuplot-nox and run gnuplot -d FILE.gp)"
echo "demo: open the .trace.json.gz files in https://ui.perfetto.dev (docs/output.md)"
exit $failed
