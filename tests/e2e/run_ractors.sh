#!/bin/sh
# run_ractors.sh BINARY - multi-Ractor runs from the command line: the VM
# lock and barrier columns, per-Ractor throughput, the summary line, a
# deadlock in a barrier storm, and the machine's mutex_impl key.
set -u
bin=$1
. tests/e2e/lib.inc

# -- two workers under YJIT's lock + barrier: every op is a barrier
run run scenarios/proc_heavy.json --set ractors.1.count=2 --set stop.time=2ms --reproducible
expect_code 0 "proc_heavy"
expect_match out '^proc_heavy,sim,native,eager,lock_barrier,none,10,3,3,1,1,0\.002000000,' "row"
# ractor_ops_per_s has one value per Ractor instance (main first), then
# barriers, vmlock_acquires, vmlock_waits: barriers > 0
expect_match out ',0\.000;[0-9.]+;[0-9.]+,[1-9][0-9]*,[1-9][0-9]*,[0-9]+,0,' "per-Ractor rates and barriers"
expect_match err '^  VM lock: [0-9.]+k? acquisitions \([0-9]+ slept\); [0-9.]+k? barriers, one per [0-9.]+ us$' "summary"
expect_match err 'thread time: running [0-9.]+% .*barrier_join [0-9.]+%' "summary states"

# -- the fix: only the first escape takes the lock
run run scenarios/proc_heavy.json --set runtime.invariant_check=lockless --set stop.time=200us -q --no-header
expect_code 0 "lockless"
expect_match out '^proc_heavy,sim,native,eager,lockless,' "lockless row"

# -- a worker parked forever while the others storm the barrier: deadlock
run run tests/data/deadlock_ractors.json --machines scenarios/machines -o "$tmp/dead.csv"
expect_code 4 "deadlock"
expect_match err 'deadlock at 0\.[0-9]+ s: 2 threads blocked and nothing left to happen:' "deadlock"
expect_line err '  thread main/main: in join, waiting for 1 other thread to finish, at /ractors/0/threads/0/program/0 (line 8)' "deadlock: main"
expect_line err '  thread stuck/popper: parked in queue_pop on queue "never" (empty) at /ractors/2/threads/0/program/1 (line 14)' "deadlock: popper"
checks=$((checks + 1))
[ ! -e "$tmp/dead.csv" ] || fail "deadlock left an output file"

# -- mutex_impl is validated like any enum
run check scenarios/proc_heavy.json --set machine.mutex_impl=darwn
expect_code 3 "bad mutex_impl"
expect_match err 'mutex_impl.*"darwn".*did you mean "darwin"' "bad mutex_impl"

finish "$script"
