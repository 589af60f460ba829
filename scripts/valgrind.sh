#!/bin/sh
# valgrind.sh BINARY UNIT_TESTS... - memcheck the unit tests (and the fuzz
# corpus replays, replay_NAME) and a few CLI runs; fails on any error or leak.
set -u
# tests that measure progress of real threads relax it under valgrind
export GVLSIM_UNDER_VALGRIND=1
bin=$1; shift
vg="valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect"
fail=0
for t in "$@"; do
    args=
    case $(basename "$t") in
    test_oom) continue ;;   # interposes malloc itself
    replay_*) n=$(basename "$t" | sed 's/^replay_//'); args="tests/fuzz/corpus/$n tests/fuzz/crashers/$n" ;;
    esac
    echo "== valgrind $(basename "$t")"
    # shellcheck disable=SC2086
    $vg "$t" $args >/dev/null 2>"$t.vg" </dev/null || { cat "$t.vg"; fail=1; }
done
for args in "run scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=2000 -q -o /dev/null" \
            "run tests/data/deadlock.json -q" \
            "run scenarios/proc_heavy.json --set ractors.1.count=4 --set stop.time=1ms -q -o /dev/null" \
            "run tests/data/deadlock_ractors.json --machines scenarios/machines -q" \
            "check scenarios/queue_pingpong.json tests/data/bad/queue_pingpong.json" \
            "run tests/data/deadlock.json -q --trace /tmp/gvlsim.vg.trace.json.gz" \
            "sweep scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=200 --param machine.cores=1,2 --param runtime.gvl_policy=eager,nosuch -j 2 -q -o /dev/null" \
            "sweep scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=200 --param machine.cores=1,2 --format json -q -o /dev/null" \
            "run scenarios/mtime_loop.json --machines /nonexistent --machines scenarios/machines --seed -1" \
            "help --man" "help --completion-data" "help sweep" \
            "plot tests/golden/mtime8_2core.csv --x cores --y wall_s --script-only -o /tmp/gvlsim.vg.png" \
            "plot tests/regress/pingpong_policies.csv --x cores --y wall_s --series runtime.gvl_policy --ref scenarios/measured/queue_pingpong.csv --ratio-to cores=1 --script-only -o /tmp/gvlsim.vg.png" \
            "plot tests/regress/pingpong_policies.csv --x cores --series runtime.gvl_policy --breakdown --script-only -o /tmp/gvlsim.vg.png" \
            "compare tests/regress/mtime_loop.csv tests/regress/mtime_loop.csv --report markdown --all" \
            "compare tests/regress/mtime_loop.csv tests/regress/mtime_policies.csv --report json" \
            "compare tests/regress/io_sweep.csv tests/regress/syscall_sweep.csv" \
            "merge tests/regress/syscall_sweep.csv --format jsonl -q -o /dev/null" \
            "sweep scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=200 --param machine.cores=1,2,3 --shard 2/3 -q -o /dev/null" \
            "sweep scenarios/mtime_loop.json --param machine.cores=1,2,3 --emit-jobs slurm --shards 2 -q -o /tmp/gvlsim.vg.csv" \
            "validate scenarios/mtime_loop.json --set runtime={\"ruby\":\"3.1\"} --set ractors.0.threads.1.count=2 --set ractors.0.threads.1.program.0.times_total=200000 --backend sim,pthread,ruby --set machine=docs/data/validate/hosts/xeon-2vcpu-2026-12-02/host.json --measured docs/data/validate/hosts/xeon-2vcpu-2026-12-02/mtime2.rows.csv --report json -q -o /tmp/gvlsim.vg.csv" \
            "validate scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=200 --backend sim,pthread --param machine.cores=1 --reps 1 --max-spread 1000 -q --rows /tmp/gvlsim.vg.csv" \
            "run scenarios/tarai_ractors.json --set ractors.1.count=2 --set machine.cores=2 --set machine.corun_slowdown=1.4 --set ractors.1.threads.0.program.0.insns=2000000 -q -o /dev/null" \
            "run scenarios/queue_pingpong.json --set runtime.gvl_policy=barging --set machine=dev_vm --set machine.cores=1 --set ractors.0.threads.0.program.0.times=200 --set ractors.0.threads.1.program.0.times=1000 -q -o /dev/null"; do
    echo "== valgrind gvlsim $args"
    # shellcheck disable=SC2086
    $vg "$bin" $args >/dev/null 2>/tmp/gvlsim.vg.$$
    [ $? -eq 99 ] && { cat /tmp/gvlsim.vg.$$; fail=1; }
done
rm -f /tmp/gvlsim.vg.$$ /tmp/gvlsim.vg.trace.json.gz /tmp/gvlsim.vg.gp
[ $fail -eq 0 ] && echo "valgrind: clean"
exit $fail
