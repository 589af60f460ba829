#!/bin/sh
# bpf_awk.sh BINARY - scripts/bpf's reports on made-up records (the probes
# themselves need root and a kernel with BTF: bpf_record.sh).  Process 100,
# threads 101-103, CPUs 0 and 1 (1 idle):
# - 101 wakes 102 on CPU 0 (102 slept with lag 5 us, last ran there); two
#   tasks queued, 101 right of V (not eligible): EEVDF picks 102, and 102
#   preempts 101 (a switch with 101 still runnable);
# - 102 wakes 103 on CPU 0 (lag 0, placed at V with 102), 102 protected
#   (vprot a slice ahead): no preemption, 102 sleeps 40 us later and 103
#   runs on CPU 0;
# - 103 wakes 101 onto CPU 1 (its previous CPU, idle); the waker's CPU's
#   utilization with the wakee there 650 and 720 for the first two (their
#   own CPU's), 600 + 180 (the wakee's estimate) = 780 for the third;
# - two queued tasks moved by a balance, one ran 1 us before (cache-hot);
#   CPU 1 left idle with a task waiting on CPU 0, the newidle balance ran.
# The same records with 101 eligible and protected at the first wake: the
# rule then says no preemption, and agrees with one wake of two.
set -u
bin=$1
. tests/e2e/lib.inc
rec() {
    cat <<'R'
3 1000 1 100 103 0 1 0
3 2000 0 100 0 101 0 0
1 10000 0 100 102 101 0 995000 2395000 5000 1400000 0 0 100 120 650 1
2 10100 0 100 102 101 0 995000 2395000 1010000 2400000 2400000 -5120000 1024 1000000 2 1 0 1400000 1400000
3 11000 0 100 101 102 0 1
1 20000 0 100 103 102 0 2000000 3400000 0 1400000 0 0 100 120 720 1
2 20100 0 100 103 102 0 2000000 3400000 2000000 3400000 3400000 0 1024 2000000 2 1 0 1400000 1400000
3 60100 0 100 102 103 1 0
1 70000 0 100 101 103 1 0 0 0 1400000 0 0 150 180 600 1
2 70500 1 100 101 0 1 0 0 0 0 0 0 0 0 1 0 0 1400000 0
3 70600 1 100 0 101 0 0
4 80000 100 102 0 1 2 0 79000 80000
4 85000 100 103 0 1 2 0 0 900000
4 86000 100 101 1 0 0 0 0 900000
5 90000 1 100 101 400000 30000 1 2
R
}
rec >"$tmp/rec.txt"
run_cmd awk -f scripts/bpf/sched_wakes.awk "$tmp/rec.txt"
expect_code 0 "sched_wakes.awk"
expect_empty err "sched_wakes.awk"
expect_line out "process 100: 3 wake-ups recorded" "the process"
expect_line out "  with two tasks on the queue: 2, preempting 1 (50%); EEVDF's rule from the recorded state agrees with 2 (100%)" "two-task wakes"
expect_line out "    the waker not eligible                            1, preempting      1 (100%)" "not eligible"
expect_line out "    the waker protected (RUN_TO_PARITY)               1, preempting      0 (0%)" "protected"
expect_line out "    lag>0                                             1, preempting      1 (100%)" "by lag: positive"
expect_line out "    lag=0                                             1, preempting      0 (0%)" "by lag: zero"
expect_line out "  last ran on the waker's CPU, other CPU idle       2, to the waker's CPU      2 (100%)" "placement: kept"
expect_line out "  last ran on the other CPU,   other CPU idle       1, to the waker's CPU      0 (0%)" "placement: sent to its idle CPU"
expect_line out "    last ran on the waker's  CPU 600:1/1 700:1/1" "placement by utilization: the waker's CPU's own"
expect_line out "    last ran on the other    CPU 700:0/1" "placement by utilization: with the wakee's estimate added"
expect_line out "  ran on the waker's CPU        1, after a median 40.0 us" "the queued wakee"
expect_line out "4. queued tasks moved by load balancing: 2" "migrations"
expect_line out "  cache-hot (ran under 500 us before)               1" "a hot one"
expect_line out "  cache-cold                                        1" "a cold one"
expect_line out "  a CPU left idle by the process: 1 times, 1 of them with a task waiting on the other CPU; there the newidle balance:" "going idle"
expect_line out "    the balance ran                                 1" "the gates"
expect_line out "  lag=0                                             2 (67%)" "sleeps"
expect_line out "  102 <- 101                1, preempting      1 (100%); of a delayed sleeper      0, preempting      0 (-)" "by thread: a pair's wakes"
expect_line out "  103 <- 102                1, preempting      0 (0%); of a delayed sleeper      0, preempting      0 (-)" "by thread: the other pair's"
expect_line out "  102                       1 sleeps: delayed 0%, lag>0 100%, lag=0 0%, lag<0 0%" "by thread: a thread's sleeps"
expect_line out "  102                       1 woken: the waker's lead within 20 us at 1 (moving - us a wake), the waker eligible at 0" "by thread: the waker's lead, not eligible"
expect_line out "  103                       1 woken: the waker's lead within 20 us at 1 (moving - us a wake), the waker eligible at 1" "by thread: the waker's lead, eligible"

# 101 wakes 102 twice more, the lead 12 us then 40 us (not near): one step
# (15 -> 12 us), the far one counted as woken only
{ rec; printf '%s\n' "2 100100 0 100 102 101 0 2000000 3400000 2012000 3400000 3400000 0 1024 2000000 2 1 0 1400000 1400000" \
    "2 120100 0 100 102 101 0 2000000 3400000 2040000 3400000 3400000 0 1024 2000000 2 1 0 1400000 1400000"; } >"$tmp/rec3.txt"
run_cmd awk -f scripts/bpf/sched_wakes.awk "$tmp/rec3.txt"
expect_line out "  102                       3 woken: the waker's lead within 20 us at 2 (moving -3.000 us a wake), the waker eligible at 0" "by thread: the lead's step"

# the first wake's waker eligible and protected: the rule now disagrees
rec | sed 's/^2 10100 0 100 102 101 0 995000 2395000 1010000 2400000 2400000 -5120000/2 10100 0 100 102 101 0 995000 2395000 990000 2400000 2400000 -5120000/' >"$tmp/rec2.txt"
run_cmd awk -f scripts/bpf/sched_wakes.awk "$tmp/rec2.txt"
expect_line out "  with two tasks on the queue: 2, preempting 1 (50%); EEVDF's rule from the recorded state agrees with 1 (50%)" "a disagreeing rule"

run_cmd awk -f scripts/bpf/sched_wakes.awk -v tgid=7 "$tmp/rec.txt"
expect_code 1 "sched_wakes.awk, another process"
expect_line err "sched_wakes.awk: no wake-up of process 7 recorded" "another process: the message"

# futex calls of process 100: thread 101's timed wait woken after 3 us and
# another timed one 2 us later (a timer that found the GVL owned), then an
# EAGAIN timed wait followed by an untimed one; an untimed wait; two wakes
cat >"$tmp/fx.txt" <<'R'
10 1000 3000 100 101 0 393 1 0
10 6000 40000 100 101 0 393 1 -110
10 50000 1500 100 101 0 393 1 -11
10 60000 9000 100 101 0 128 0 0
10 60500 800 100 102 1 129 0 1
10 61000 700 100 102 1 129 0 0
10 70000 500 200 201 1 129 0 1
R
run_cmd awk -f scripts/bpf/futex_calls.awk "$tmp/fx.txt"
expect_code 0 "futex_calls.awk"
expect_line out "process 100: 6 futex calls" "futex: the process"
expect_line out "  timed    woken             1" "a timed wait woken"
expect_line out "  timed    EAGAIN            1" "a timed wait that met the store"
expect_line out "  untimed  woken             1" "an untimed wait"
expect_line out "  FUTEX_WAIT (a lock)            woken             1" "the untimed wait by its operation"
expect_line out "  woken      2-4:1" "its duration"
expect_line out "  woke a waiter         1" "a wake that woke"
expect_line out "  woke nobody           1" "a wake that did not"
expect_line out "after a timed wait, the same thread waits timed again within 100 us: 2; otherwise: 1" "what followed"
expect_line out "  after a timed wait                              1        0   8.50" "a lock wait by the call before it"

# the lock waits by the call before: thread 103's condvar wait returns at
# once (signalled on its way in) and its re-lock 1.5 us later returns at
# once too; thread 104's, 2.5 us after its own wake of nobody, sleeps
cat >"$tmp/fx3.txt" <<'R'
10 80000 900 100 103 0 137 0 -11
10 82400 700 100 103 0 128 0 -11
10 90000 600 100 104 1 129 0 0
10 93100 9000 100 104 1 128 0 0
R
run_cmd awk -f scripts/bpf/futex_calls.awk "$tmp/fx3.txt"
expect_code 0 "futex_calls.awk: lock waits"
expect_line out "  after a condvar wait returned at once           0        1   1.50" "a re-lock after a condvar wait returned at once"
expect_line out "  after a wake that woke nobody                   1        0   2.50" "a lock wait after a wake"
finish bpf_awk.sh
