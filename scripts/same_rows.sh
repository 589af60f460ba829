#!/bin/bash
# same_rows.sh REF_GVLSIM [GVLSIM [JOBS]] - a speed change must not change a
# result: run a matrix of configurations (every seed scenario and scenario
# language example; fifo and the three fair OS classes; the five GVL
# policies; 1 to 1,024 cores; up to 1,000 threads, 64 Ractors, co-running
# cores, the shared counter, barriers, machine profiles, seeds) with both
# builds, and compare each CSV row, and a few traces, byte for byte.
# REF_GVLSIM is the build to compare with (e.g. main's, or one from
# scripts/bench_base.sh); GVLSIM defaults to ./gvlsim, JOBS to 2.  Prints
# the configurations that differ; exits 1 if any does.  A few minutes.
set -u
ref=${1:?usage: same_rows.sh REF_GVLSIM [GVLSIM [JOBS]]}
new=${2:-./gvlsim}
jobs=${3:-2}
M="--machines scenarios/machines"
pp="scenarios/queue_pingpong.json --set ractors.0.threads.0.program.0.times=400 --set ractors.0.threads.1.program.0.times=2000"
mt="scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=4000"
io="scenarios/io_plus_cpu.json --set stop.time=100ms"
ta="scenarios/tarai_ractors.json --set ractors.1.threads.0.program.0.insns=2000000"
ph="scenarios/proc_heavy.json --set stop.time=500us"
th="tests/bench/threads.json $M --set ractors.0.threads.1.program.0.times_total=20000"
tr="tests/bench/threads_ractors.json $M --set ractors.1.threads.0.program.0.times_total=300"

cases() {
    for sch in fifo cfs eevdf eevdf_delay_dequeue; do
        S="--set machine.os_scheduler=$sch"
        for pol in eager hot_steal delayed threshold barging; do
            P="--set runtime.gvl_policy=$pol"
            for c in 1 2 3 8; do
                echo "$pp $S $P --set machine.cores=$c"
                echo "$mt $S $P --set machine.cores=$c"
            done
            echo "$io $S $P"
            echo "$io $S $P --set machine.cores=4"
            echo "$th $S $P --set machine.cores=8 --set ractors.0.threads.1.count=1000"
            echo "$mt $S $P --set machine.cores=130 --set ractors.0.threads.1.count=300"
        done
        for c in 1 2 8 64 1024; do
            echo "$pp $S --set machine.cores=$c"
            echo "$th $S --set machine.cores=$c --set ractors.0.threads.1.count=100"
            echo "$tr $S --set machine.cores=$c --set ractors.1.threads.0.count=3"
        done
        for c in 2 4; do
            echo "$pp $S --set machine.cores=$c --set machine.corun_slowdown=1.4"
            echo "$mt $S --set machine.cores=$c --set machine.corun_slowdown=1.25 --set runtime.gvl_policy=barging"
            echo "$ta $S --set ractors.1.count=3 --set machine.cores=$c --set machine.corun_slowdown=1.3"
        done
        echo "$ta $S --set ractors.1.count=3 --set machine.cores=2"
        echo "$ta $S --set runtime.counter_model=penalty --set runtime.max_cpu=8"
        echo "$ph $S --set ractors.1.count=4"
        echo "$ph $S --set machine.mutex_impl=glibc"
        echo "$ph $S --set runtime.invariant_check=lockless"
        for f in scenarios/examples/*.json; do
            echo "$f $M $S"
            echo "$f $M $S --set runtime.gvl_policy=barging"
        done
        for f in tests/data/lang/*.json; do
            echo "$f $M $S"
            for c in 1 2 8; do echo "$f $M $S --set machine.cores=$c --set runtime.gvl_policy=hot_steal"; done
        done
        echo "scenarios/puma_like.json $M $S --set stop.time=500ms"
        echo "scenarios/puma_like.json $M $S --set stop.time=500ms --set runtime.gvl_policy=delayed"
        echo "tests/golden/mixed_ops.json $M $S"
        echo "tests/golden/mn_mixed.json $M $S"
        for m in linux_desktop dev_vm x86_20489 m1pro_macos; do
            echo "$pp $S --set machine=$m"
            echo "$mt $S --set machine=$m --set machine.cores=4"
        done
    done
    for seed in 2 3 4; do
        echo "$pp --seed $seed --set machine.cores=2"
        echo "$mt --seed $seed --set machine.cores=8"
        echo "$io --seed $seed"
    done
}

# one NUMBER ARGS...: both builds' output (rows or error, and exit status)
one() {
    n=$1; shift
    a=$("$ref" run "$@" --reproducible -q 2>&1); ra=$?
    b=$("$new" run "$@" --reproducible -q 2>&1); rb=$?
    [ "$a" = "$b" ] && [ $ra = $rb ] || echo "differs [$n]: $*"
}

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gvlsim-same.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cases > "$tmp/cases"
export -f one
export ref new
# shellcheck disable=SC2016
nl -ba "$tmp/cases" | xargs -P "$jobs" -L1 bash -c 'one "$@"' _ > "$tmp/out"
ntr=0
for t in "$pp --set machine.cores=2" "$th --set machine.cores=8 --set ractors.0.threads.1.count=50" \
         "$ph --set ractors.1.count=2" "$ta --set ractors.1.count=3"; do
    ntr=$((ntr + 1))
    # shellcheck disable=SC2086
    "$ref" run $t --reproducible -q -o /dev/null --trace "$tmp/a.json" >/dev/null 2>&1
    # shellcheck disable=SC2086
    "$new" run $t --reproducible -q -o /dev/null --trace "$tmp/b.json" >/dev/null 2>&1
    cmp -s "$tmp/a.json" "$tmp/b.json" || echo "trace differs: $t" >> "$tmp/out"
done
n=$(wc -l < "$tmp/cases")
d=$(grep -c . "$tmp/out")
sort -t'[' -k2 -n "$tmp/out"
echo "same_rows: $n configurations and $ntr traces, $d differ"
[ "$d" -eq 0 ]
