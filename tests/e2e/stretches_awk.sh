#!/bin/sh
# stretches_awk.sh BINARY - scripts/stretches.awk on a made-up `perf script`
# text of a two-thread ping-pong (tests/e2e/run.sh passes the binary; the
# script reads no gvlsim output): the worker and the main thread told apart
# by their opens, switches out by state, a stretch of 150 opens, and each
# wake's outcome - preempted at once, the waker's next traced call first, or
# its sleep first - in the bin of how long the wakee had run.
set -u
bin=$1
. tests/e2e/lib.inc
# line TIME_US TID EVENT FIELDS...: one line as `perf script` prints it
# (TIME_US under a second)
line() {
    t=$1 tid=$2 ev=$3
    shift 3
    printf '          gvlsim %5s [000] 100.%06d: %s: %s\n' "$tid" "$t" "$ev" "$*"
}
sw() { line "$1" "$2" sched:sched_switch "prev_comm=gvlsim prev_pid=$2 prev_prio=120 prev_state=$3 ==> next_comm=gvlsim next_pid=$4 next_prio=120"; }
wake() { line "$1" "$2" sched:sched_wakeup "comm=gvlsim pid=$3 prio=120 target_cpu=000"; }
open_() { line "$1" "$2" syscalls:sys_enter_openat "dfd: 0xffffff9c, filename: 0x0, flags: 0x0, mode: 0x0"; }
{
    sw 1 10 S 20                      # main (10) sleeps, the worker (20) runs
    i=0
    while [ $i -lt 150 ]; do open_ $((2 + i)) 20; i=$((i + 1)); done
    wake 160 20 10                    # the worker wakes main ...
    sw 161 20 R 10                    # ... and is preempted at once
    open_ 165 10                      # main runs 12 us
    wake 172 10 20                    # main wakes the worker ...
    sw 173 10 S 20                    # ... and sleeps first
    wake 180 20 10                    # the worker wakes main ...
    open_ 181 20                      # ... and makes its next call first
    sw 190 20 S 10
} >"$tmp/trace.txt"
run_cmd awk -f scripts/stretches.awk "$tmp/trace.txt"
expect_code 0 "stretches.awk on the made-up trace"
expect_line out "worker: thread 20, 151 opens; main: thread 10, 1 opens" "threads told apart by their opens"
expect_line out "switches out: main 2 slept, 0 preempted; worker 1 slept, 1 preempted" "switches out by state"
expect_line out "worker stretches of 100 or more opens: 1, carrying 150 of 151 messages (99%)" "the stretch"
expect_line out "worker->main:  0-5 us 1/0  10-15 us 0/1  (all: 1/1, 50.0% preempted at once)" \
    "preempted, and the next call first, in the wakee's bins"
expect_line out "main->worker:  >= 40 us 0/1  (all: 0/1, 0.0% preempted at once)" "a waker that sleeps first: not preempted"
printf 'x 1 y\n' >"$tmp/none.txt"
run_cmd awk -f scripts/stretches.awk "$tmp/none.txt"
expect_code 1 "no opening threads"
expect_line err "stretches: fewer than two threads opened files" "said why"
finish "$script"
