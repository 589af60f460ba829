#!/bin/sh
# bench.sh GVLSIM BENCH_ENGINE - speed figures (never part of `make test`).
# Host timings vary run to run on a shared machine: each simulation is run
# RUNS times (default 3) and min / median / max are printed.
set -u
bin=${1:?usage: bench.sh GVLSIM BENCH_ENGINE}
engine=${2:?usage: bench.sh GVLSIM BENCH_ENGINE}
runs=${RUNS:-3}
echo "== engine (tests/bench/bench_engine.c): native, then SimGrid with the ratio"
"$engine" native | tee "${TMPDIR:-/tmp}/gvlsim-bench.$$"
if "$engine" simgrid >"${TMPDIR:-/tmp}/gvlsim-bench-sg.$$" 2>/dev/null; then
    paste -d'\n' "${TMPDIR:-/tmp}/gvlsim-bench.$$" "${TMPDIR:-/tmp}/gvlsim-bench-sg.$$" | awk '
        { for (i = 1; i <= NF; i++) if ($(i + 1) == "M" && $(i + 2) == "events/s") rate[NR % 2] = $i }
        NR % 2 == 0 { print; printf "%-46s native/simgrid = %.1fx\n", "", rate[1] / rate[0] }'
else
    echo "(no SimGrid engine in this build)"
fi
rm -f "${TMPDIR:-/tmp}/gvlsim-bench.$$" "${TMPDIR:-/tmp}/gvlsim-bench-sg.$$"
echo
echo "== simulations: host seconds over $runs runs (min / median / max), events, events/s"
sim() {
    label=$1; shift
    times=""
    for i in $(seq "$runs"); do
        line=$("$bin" run "$@" -o /dev/null 2>&1 | grep 'engine:')
        t=$(echo "$line" | sed 's/.* in \([0-9.]*\) s host time/\1/')
        ev=$(echo "$line" | sed 's/.*engine: \([^ ]*\) events.*/\1/')
        times="$times $t"
    done
    echo "$times" | tr ' ' '\n' | grep . | sort -n | awk -v l="$label" -v ev="$ev" '
        { t[NR] = $1 } END {
          med = t[int((NR + 1) / 2)];
          printf "%-46s %6.3f / %6.3f / %6.3f s   %8s events   ~%.1fM events/s\n", l, t[1], med, t[NR], ev,
                 (ev ~ /M$/ ? ev * 1e6 : (ev ~ /k$/ ? ev * 1e3 : ev)) / med / 1e6 }'
}
sim "queue_pingpong 1M messages, 1 core" scenarios/queue_pingpong.json --set machine.cores=1
sim "queue_pingpong 1M messages, 2 cores" scenarios/queue_pingpong.json --set machine.cores=2
sim "mtime_loop 1M calls, 8 threads, 2 cores" scenarios/mtime_loop.json --set machine.cores=2
sim "mtime_loop 1M calls, 8 threads, 8 cores" scenarios/mtime_loop.json --set machine.cores=8
# further lines are added by the Ractor, M:N and executor work (scripts/bench.d/*.sh)
for extra in scripts/bench.d/*.sh; do
    [ -e "$extra" ] || continue
    echo
    . "$extra"
done
