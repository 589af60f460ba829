#!/bin/sh
# valgrind.sh BINARY UNIT_TESTS... - memcheck the unit tests (and the fuzz
# corpus replays, replay_NAME) and a few CLI runs; fails on any error or leak.
#
# The cases that only simulate run VALGRIND_JOBS at a time (default: the
# CPUs; each memcheck is one process on one CPU), their reports printed in
# the cases' order; those that run real threads (test_exec, a validate with
# pthread runs) after them, one at a time, alone: under memcheck their
# threads already run one at a time, slowly, and their watchdogs see it.
set -u
# tests that measure progress of real threads relax it under valgrind
export GVLSIM_UNDER_VALGRIND=1
bin=$1; shift
jobs=${VALGRIND_JOBS:-$(nproc 2>/dev/null || echo 1)}
vg="valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# the cases, one per line: "N<TAB>KIND<TAB>PROGRAM ARGS" (KIND unit: any
# failure counts, its report is its stderr; cli: only memcheck's exit 99
# counts, since some runs fail on purpose; cli1: the same on the first CPU
# alone, taskset around valgrind), in sim.list or real.list
n=0
add() {  # add LIST KIND PROGRAM ARGS...
    list=$1 kind=$2
    shift 2
    n=$((n + 1))
    printf '%d\t%s\t%s\n' "$n" "$kind" "$*" >>"$tmp/$list.list"
}
: >"$tmp/sim.list"
: >"$tmp/real.list"
for t in "$@"; do
    args=
    list=sim
    case $(basename "$t") in
    test_oom) continue ;;   # interposes malloc itself
    test_exec) list=real ;;
    # (the run target's corpus simulates each input twice: about 100 s
    # under memcheck, so memcheck takes its crashers; make test's ASan+UBSan
    # replay takes the whole corpus)
    replay_run) args="tests/fuzz/crashers/run" ;;
    replay_*) n_=$(basename "$t" | sed 's/^replay_//'); args="tests/fuzz/corpus/$n_ tests/fuzz/crashers/$n_" ;;
    esac
    add $list unit "$t" $args
done
for args in "run scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=2000 -q -o /dev/null" \
            "run tests/data/deadlock.json -q" \
            "run scenarios/proc_heavy.json --set ractors.1.count=4 --set stop.time=1ms -q -o /dev/null" \
            "run tests/data/deadlock_ractors.json --machines scenarios/machines -q" \
            "check scenarios/queue_pingpong.json tests/data/bad/queue_pingpong.json" \
            "run tests/data/deadlock.json -q --trace $tmp/vg.trace.json.gz" \
            "sweep scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=200 --param machine.cores=1,2 --param runtime.gvl_policy=eager,nosuch -j 2 -q -o /dev/null" \
            "sweep scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=200 --param machine.cores=1,2 --format json -q -o /dev/null" \
            "run scenarios/mtime_loop.json --machines /nonexistent --machines scenarios/machines --seed -1" \
            "help --man" "help --completion-data" "help sweep" \
            "plot tests/golden/mtime8_2core.csv --x cores --y wall_s --script-only -o $tmp/vg1.png" \
            "plot tests/regress/pingpong_policies.csv --x cores --y wall_s --series runtime.gvl_policy --ref scenarios/measured/queue_pingpong.csv --ratio-to cores=1 --script-only -o $tmp/vg2.png" \
            "plot tests/regress/pingpong_policies.csv --x cores --series runtime.gvl_policy --breakdown --script-only -o $tmp/vg3.png" \
            "compare tests/regress/mtime_loop.csv tests/regress/mtime_loop.csv --report markdown --all" \
            "compare tests/regress/mtime_loop.csv tests/regress/mtime_policies.csv --report json" \
            "compare tests/regress/io_sweep.csv tests/regress/syscall_sweep.csv" \
            "merge tests/regress/syscall_sweep.csv --format jsonl -q -o /dev/null" \
            "sweep scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=200 --param machine.cores=1,2,3 --shard 2/3 -q -o /dev/null" \
            "sweep scenarios/mtime_loop.json --param machine.cores=1,2,3 --emit-jobs slurm --shards 2 -q -o $tmp/vg1.csv" \
            "validate scenarios/mtime_loop.json --set runtime={\"ruby\":\"3.1\"} --set ractors.0.threads.1.count=2 --set ractors.0.threads.1.program.0.times_total=200000 --backend sim,pthread,ruby --set machine=docs/data/validate/hosts/xeon-2vcpu-2026-12-02/host.json --measured docs/data/validate/hosts/xeon-2vcpu-2026-12-02/mtime2.rows.csv --report json -q -o $tmp/vg2.csv" \
            "validate scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=200 --backend sim,pthread --param machine.cores=1 --reps 1 --max-spread 1000 -q --rows $tmp/vg3.csv" \
            "run scenarios/tarai_ractors.json --set ractors.1.count=2 --set machine.cores=2 --set machine.corun_slowdown=1.4 --set ractors.1.threads.0.program.0.insns=2000000 -q -o /dev/null" \
            "run scenarios/queue_pingpong.json --set runtime.gvl_policy=barging --set machine=dev_vm --set machine.cores=1 --set ractors.0.threads.0.program.0.times=200 --set ractors.0.threads.1.program.0.times=1000 -q -o /dev/null"; do
    case $args in *--backend\ sim,pthread\ *) list=real ;; *) list=sim ;; esac
    # the validate with real runs on one CPU: on two, its cache and wake
    # probes take a minute under memcheck (one thread at a time, each turn
    # of their spinning threads a time slice); test_calib memchecks them
    kind=cli
    [ $list = real ] && command -v taskset >/dev/null 2>&1 && kind=cli1
    add $list $kind "$bin" $args
done
# one case: its memcheck report in N.vg, "N<TAB>PROGRAM ARGS" in N.bad when it failed
cat >"$tmp/case.sh" <<'CASE'
tmp=$1 vg=$2 line=$3
n=$(printf '%s' "$line" | cut -f1)
kind=$(printf '%s' "$line" | cut -f2)
cmd=$(printf '%s' "$line" | cut -f3)
set -f
pin=
[ "$kind" = cli1 ] && pin="taskset -c 0"
# shellcheck disable=SC2086
$pin $vg $cmd >/dev/null 2>"$tmp/$n.vg" </dev/null
rc=$?
bad=0
case $kind in
unit) [ $rc -eq 0 ] || bad=1 ;;
cli|cli1) [ $rc -ne 99 ] || bad=1 ;;
esac
[ $bad -eq 0 ] || printf '%s\t%s\n' "$n" "$cmd" >"$tmp/$n.bad"
exit 0
CASE
echo "== valgrind: $(wc -l <"$tmp/sim.list") cases that simulate, $jobs at a time"
tr '\n' '\0' <"$tmp/sim.list" | xargs -0 -n 1 -P "$jobs" sh "$tmp/case.sh" "$tmp" "$vg"
echo "== valgrind: $(wc -l <"$tmp/real.list") cases on real threads, one at a time"
tr '\n' '\0' <"$tmp/real.list" | xargs -0 -n 1 -P 1 sh "$tmp/case.sh" "$tmp" "$vg"
fail=0
i=1
while [ $i -le $n ]; do
    if [ -f "$tmp/$i.bad" ]; then
        echo "== valgrind FAILED: $(cut -f2 "$tmp/$i.bad")"
        cat "$tmp/$i.vg"
        fail=1
    fi
    i=$((i + 1))
done
[ $fail -eq 0 ] && echo "valgrind: clean ($n cases)"
exit $fail
