#!/bin/sh
# bench_exec.sh GVLSIM - timings of the real executor (`make bench` runs it
# through scripts/bench.d/exec.sh; never part of `make test`).  Real
# timings vary 1.3-1.8x from run to run on a shared host: each line is
# RUNS runs (default 3), min / median / max of the wall time.  The full
# result tables are scripts/exec_results.sh (docs/exec-results.md).
set -u
bin=${1:?usage: bench_exec.sh GVLSIM}
runs=${RUNS:-3}
[ "$(nproc)" -ge 2 ] && cores2=2 || cores2=1
echo "== real executor (gvlsim exec): wall seconds over $runs runs (min / median / max)"
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
real() {
    label=$1; shift
    times=""
    for i in $(seq "$runs"); do
        line=$("$bin" exec "$@" -o "$out" 2>&1 | grep -m1 'wall ') || { echo "$label: failed"; return; }
        times="$times $(echo "$line" | sed 's/.*wall \([0-9.]*\) s.*/\1/')"
    done
    echo "$times" | tr ' ' '\n' | grep . | sort -n | awk -v l="$label" '
        { t[NR] = $1 } END { printf "%-52s %8.3f / %8.3f / %8.3f s\n", l, t[1], t[int((NR + 1) / 2)], t[NR] }'
}
pp="scenarios/queue_pingpong.json --set ractors.0.threads.0.program.0.times=10000 --set ractors.0.threads.1.program.0.times=50000"
real "queue_pingpong 50k messages, 1 core" $pp --set machine.cores=1
real "queue_pingpong 50k messages, $cores2 cores" $pp --set machine.cores=$cores2
mt="scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=100000"
real "mtime_loop 100k calls, 8 threads, eager, 1 core" $mt --set machine.cores=1
real "mtime_loop 100k calls, 8 threads, eager, $cores2 cores" $mt --set machine.cores=$cores2
real "mtime_loop 100k calls, 8 threads, hot_steal, $cores2 cores" $mt --set machine.cores=$cores2 --set runtime.gvl_policy=hot_steal
ph="tests/data/exec_proc_heavy.json --set ractors.1.threads.0.program.0.times=20000 --set machine.cores=$cores2"
real "proc_heavy 2 Ractors x 20k escapes, lock_barrier" $ph --set runtime.invariant_check=lock_barrier
real "proc_heavy 2 Ractors x 20k escapes, lockless" $ph --set runtime.invariant_check=lockless
ct="scenarios/tarai_ractors.json --set ractors.1.count=2 --set ractors.1.threads.0.program.0.insns=100000000 --set machine.cores=$cores2"
real "tarai 2 Ractors x 100M insns, shared counter" $ct --set runtime.insn_counter=shared
real "tarai 2 Ractors x 100M insns, thread_local counter" $ct --set runtime.insn_counter=thread_local
