#!/bin/sh
# sweep_syscall.sh [GVLSIM] [OUT.csv] - syscall duration x GVL policy x cores.
#
# Two workloads, each at 15 log-spaced syscall durations from 0.5 us to
# 20 ms (1-2-5 series), under every GVL policy, on 1 and 2 cores:
#   mtime2  scenarios/mtime_loop.json with 2 worker threads sharing 100,000
#           calls; the call is on the CPU (a stat-like syscall) of the given
#           duration.  Read wall_s (or ops_per_s).
#   io_cpu  scenarios/io_plus_cpu.json: one thread's I/O call (it sleeps in
#           the kernel for the given duration) beside a CPU-bound thread,
#           10 s.  Read ops_per_s: I/O calls per second.
# Writes plain `gvlsim run` CSV rows (one header); the scenario column names
# the point: "sweep_syscall/<workload>/dur_us=<D>" (D in microseconds).
# JOBS=N runs N simulations at once (default 1); the rows keep their order.
# Plot with: gnuplot scripts/plot_sweep_syscall.gp
set -eu
bin=${1:-./gvlsim}
out=${2:-out/sweep_syscall.csv}
jobs=${JOBS:-1}
[ -x "$bin" ] || { echo "sweep_syscall.sh: $bin is not executable (run make)" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

durs="0.5 1 2 5 10 20 50 100 200 500 1000 2000 5000 10000 20000"
policies="eager hot_steal delayed threshold barging"

# one line per run: index, then the gvlsim arguments
i=0
for w in mtime2 io_cpu; do
    for d in $durs; do
        for p in $policies; do
            for c in 1 2; do
                i=$((i + 1))
                name="sweep_syscall/$w/dur_us=$d"
                common="--set name=$name --set runtime.gvl_policy=$p --set machine.cores=$c -q --no-header"
                if [ "$w" = mtime2 ]; then
                    echo "$i scenarios/mtime_loop.json $common --set ractors.0.threads.1.count=2" \
                         "--set ractors.0.threads.1.program.0.times_total=100000" \
                         "--set ractors.0.threads.1.program.0.body.1.dur=${d}us"
                else
                    echo "$i scenarios/io_plus_cpu.json $common" \
                         "--set ractors.0.threads.0.program.0.body.1.dur=${d}us"
                fi
            done
        done
    done
done >"$tmp/runs"

# shellcheck disable=SC2016
xargs -P "$jobs" -L 1 sh -c 'n=$1; shift; "$0" run "$@" -o "'"$tmp"'/$n.csv"' "$bin" <"$tmp/runs"

"$bin" run scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=1 \
    -q -o "$tmp/header.csv"
head -n 1 "$tmp/header.csv" >"$tmp/all.csv"
n=1
while [ "$n" -le "$i" ]; do
    cat "$tmp/$n.csv" >>"$tmp/all.csv"
    n=$((n + 1))
done
cp "$tmp/all.csv" "$out.tmp" && mv "$out.tmp" "$out"
echo "sweep_syscall.sh: $i runs -> $out"
