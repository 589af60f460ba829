#!/bin/sh
# engines_bench.sh GVLSIM OUTDIR [RUNS] - the native and the SimGrid engine
# on the same scenarios, RUNS times each (default 3), interleaved (native,
# simgrid, native, ...).  Writes OUTDIR/raw.csv, one row per run:
#   key      LABEL/ENGINE
#   events   engine_events of the run
#   host_s   its host_s (the simulation, engine creation included, without
#            the process start-up)
#   mevps    events / host_s, in millions per second
#   load1    the 1-minute load average before the run
# and OUTDIR/host.txt (CPU, kernel, date, tree, the labels and what they
# run).  `make bench` prints them (scripts/bench.d/30-engines.sh); `make
# docs-measure` writes docs/data/engines, from which docs/engines.md's
# table is rendered (scripts/docs/tables/engines_speed.awk).
set -u
bin=${1:?usage: engines_bench.sh GVLSIM OUTDIR [RUNS]}
out=${2:?usage: engines_bench.sh GVLSIM OUTDIR [RUNS]}
runs=${3:-3}
cd "$(dirname "$0")/.." || exit 2
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
if ! "$bin" run tests/data/minimal.json --engine simgrid -q -o /dev/null; then
    echo "engines_bench: this gvlsim has no SimGrid engine" >&2
    exit 7
fi
mkdir -p "$out" || exit 5

# label | what it is (the table's first column) | gvlsim run arguments
cases='pingpong|queue_pingpong, 100k messages, 2 cores|scenarios/queue_pingpong.json --set machine.cores=2 --set ractors.0.threads.0.program.0.times=20000 --set ractors.0.threads.1.program.0.times=100000
mtime|mtime_loop, 1M calls, 8 threads, 8 cores|scenarios/mtime_loop.json --set machine.cores=8
io|io_plus_cpu, 10 s, threshold policy|scenarios/io_plus_cpu.json --set runtime.gvl_policy=threshold
proc|proc_heavy, 8 Ractors, VM lock barriers, 100 ms|scenarios/proc_heavy.json --set stop.time=100ms
mn|mn_pingpong, 100k hand-offs, M:N|scenarios/examples/mn_pingpong.json --set ractors.1.threads.0.program.0.times=100000 --set ractors.1.threads.1.program.0.times=100000'

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || commit="$commit+changes"
echo "key,events,host_s,mevps,load1" >"$out/raw.csv.tmp"
for i in $(seq "$runs"); do
    echo "$cases" | while IFS='|' read -r label desc args; do
        for e in native simgrid; do
            load=$(cut -d' ' -f1 /proc/loadavg)
            # shellcheck disable=SC2086
            "$bin" run $args --engine $e -q -o - </dev/null | awk -F, -v k="$label/$e" -v l="$load" '
                NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                { printf "%s,%s,%s,%.4f,%s\n", k, $c["engine_events"], $c["host_s"],
                         $c["engine_events"] / $c["host_s"] / 1e6, l }' >>"$out/raw.csv.tmp" || exit 1
        done
    done || exit 1
done
{
    echo "cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
    echo "cpus=$(nproc)"
    echo "kernel=$(uname -r)"
    echo "date=$(date -u +%Y-%m-%d)"
    echo "commit=$commit"
    echo "runs=$runs"
    echo "labels=$(echo "$cases" | cut -d'|' -f1 | tr '\n' ' ' | sed 's/ $//')"
    echo "$cases" | awk -F'|' '{ printf "desc.%s=%s\nargs.%s=%s\n", $1, $2, $1, $3 }'
} >"$out/host.txt.tmp"
mv "$out/raw.csv.tmp" "$out/raw.csv" && mv "$out/host.txt.tmp" "$out/host.txt"
