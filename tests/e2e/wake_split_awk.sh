#!/bin/sh
# wake_split_awk.sh BINARY - scripts/wake_split.awk on a made-up `perf
# script` text of two CPUs (tests/e2e/run.sh passes the binary; the script
# reads no gvlsim output): wakes with the other CPU idle, kept on the
# waker's CPU or not, pulled there or sent to the idle CPU (a remote wake,
# recorded by the idle task there), each in the bins of the idle CPU's idle
# time and the wakee's sleep; a wake with both CPUs busy and one of another
# program's thread left out.
set -u
bin=$1
. tests/e2e/lib.inc
# line COMM TID CPU TIME_US EVENT FIELDS...
line() {
    c=$1 tid=$2 cpu=$3 t=$4 ev=$5
    shift 5
    printf '%16s %5s [%03d] 100.%06d: %s: %s\n' "$c" "$tid" "$cpu" "$t" "$ev" "$*"
}
sw() { line "$1" "$2" "$3" "$4" sched:sched_switch "prev_comm=$1 prev_pid=$2 prev_prio=120 prev_state=$5 ==> next_comm=$6 next_pid=$7 next_prio=120"; }
wake() { line "$1" "$2" "$3" "$4" sched:sched_wakeup "comm=$5 pid=$6 prio=120 target_cpu=$(printf %03d "$7")"; }
{
    sw swapper 0 0 1 R gvlsim 10          # A (10) runs on CPU 0
    sw swapper 0 1 2 R gvlsim 20          # B (20) on CPU 1 ...
    sw gvlsim 20 1 5 S swapper 0          # ... sleeps at 5: CPU 1 idle from 5
    sw swapper 0 0 6 R gvlsim 10          # (CPU 0 stays A's)
    wake gvlsim 10 0 8 gvlsim 20 0        # t=8: B (last on the idle CPU 1) pulled onto CPU 0: idle 3 us, slept 3 us
    wake gvlsim 10 0 30 gvlsim 10 0       # (a wake of A itself by A: A's last CPU is 0: kept; idle 25, slept never)
    wake swapper 0 1 100 gvlsim 20 1      # t=100: B sent to idle CPU 1 (remote): idle 95 us, slept 95 us
    sw swapper 0 1 110 R gvlsim 20        # B runs on CPU 1: both busy
    wake gvlsim 10 0 120 gvlsim 30 0      # both busy: left out
    wake gvlsim 10 0 130 other 40 0       # another program's thread: left out
} >"$tmp/perf.txt"
run_cmd awk -f scripts/wake_split.awk "$tmp/perf.txt"
expect_code 0 "wake_split.awk"
expect_empty err "wake_split.awk"
expect_line out "wakee last on the waker's CPU: 1 of 1 onto the waker's CPU" "kept"
expect_line out "  by the idle CPU's idle time: 20-50us 1/1" "kept by idle time"
expect_line out "wakee last on the idle CPU: 1 of 2 onto the waker's CPU" "pulled"
expect_line out "  by the idle CPU's idle time: 0-5us 1/1 50-200us 0/1" "pulled by idle time"
expect_line out "  by the wakee's sleep: 0-5us 1/1 50-200us 0/1" "pulled by sleep"
finish "$script"
