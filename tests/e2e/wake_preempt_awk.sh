#!/bin/sh
# wake_preempt_awk.sh BINARY - scripts/wake_preempt.awk on a made-up `perf
# script` of three threads on two CPUs (tests/e2e/run.sh passes the
# binary; the script reads no gvlsim output): a wake onto the waker's CPU
# with the other CPU idle that preempts it (the wakee's first), one with
# the other CPU busy that does not, and one whose wakee last waited on the
# other CPU and preempts; a wake sent to the other CPU (not counted);
# the two preempted wakers off their CPU for 8 and 215 us.
set -u
bin=$1
. tests/e2e/lib.inc
# wk T WAKER CPU WAKEE TARGET / sw T CPU PREV_COMM PREV PREV_STATE NEXT_COMM NEXT
wk() { printf '          gvlsim %5d [%03d] %s: sched:sched_wakeup: comm=gvlsim pid=%d prio=120 target_cpu=%03d\n' "$2" "$3" "$1" "$4" "$5"; }
sw() { printf '          %s %5d [%03d] %s: sched:sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> next_comm=%s next_pid=%d next_prio=120\n' "$3" "$4" "$2" "$1" "$3" "$4" "$5" "$6" "$7"; }
{
    sw 99.999990 1 gvlsim 103 S swapper/1 0
    sw 100.000000 0 swapper/0 0 R gvlsim 101
    wk 100.000010 101 0 102 0        # other CPU idle; the wakee's first wake
    sw 100.000012 0 gvlsim 101 R gvlsim 102   # preempts: 101 off from here
    sw 100.000020 0 gvlsim 102 S gvlsim 101   # ... to here, 8 us
    wk 100.000030 101 0 103 1        # sent to CPU 1: not a wake onto the waker's CPU
    sw 100.000040 1 swapper/1 0 R gvlsim 103  # 103 waited 10 us on CPU 1
    wk 100.000050 101 0 102 0        # other CPU busy; 102 last waited 2 us on CPU 0
    sw 100.000070 0 gvlsim 101 S gvlsim 102   # the waker slept: no preemption
    sw 100.000075 1 gvlsim 103 S swapper/1 0
    wk 100.000080 102 0 103 0        # other CPU idle; 103 last waited on CPU 1
    sw 100.000085 0 gvlsim 102 R gvlsim 103   # preempts: 102 off from here
    sw 100.000300 0 gvlsim 103 S gvlsim 102   # ... to here, 215 us
} >"$tmp/perf.txt"
run_cmd awk -f scripts/wake_preempt.awk "$tmp/perf.txt"
expect_code 0 "wake_preempt.awk"
expect_empty err "wake_preempt.awk"
expect_line out "  other CPU idle                            2, preempting      2 (100%)" "other CPU idle"
expect_line out "  other CPU busy                            1, preempting      0 (0%)" "other CPU busy"
expect_line out "    2-10us on this CPU                      1, preempting      0 (0%)" "waited 2 us on this CPU"
expect_line out "    10-50us on another CPU                  1, preempting      1 (100%)" "waited 10 us on the other CPU"
expect_line out "    none seen                               1, preempting      1 (100%)" "first wake"
expect_line out "involuntary switches of the run's threads by another of them: 2" "involuntary switches"
expect_line out "  the preempting thread woken under 10us before: 2; the preempted one off its CPU: 5-20us 1 over 200us 1" "off-CPU times"
finish "$script"
