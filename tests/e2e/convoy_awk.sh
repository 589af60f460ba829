#!/bin/sh
# convoy_awk.sh BINARY - scripts/convoy.awk on a made-up timeline and on
# one the simulator writes.  Made up: worker#0 (tid 2) runs 0-1, releases
# the GVL to worker#1 asleep (its wait 0-12 us), calls for 9 us, waits 12
# (the convoy), runs, calls, runs at once (free), calls, waits 2 (short);
# worker#1 runs 12-13, calls 13-20 (no wait after: free), runs 27-28.1.
# So 4 calls: convoy 1, short 1, free 2, out of the convoy in 2 runs (2
# calls, 1); two hand-offs to a sleeper (a 9 and 7 us, b 12 and 10: the
# convoy holds); two collisions: worker#1's wait at 0 while worker#0 runs
# until 1 (d 1 us, slept) and worker#0's at 28 while worker#1 runs until
# 28.1 (d 0.1 us, 2 us: not slept).
set -u
bin=$1
. tests/e2e/lib.inc
ev() { printf '{"ph":"X","cat":"thread","name":"%s","pid":1,"tid":%s,"ts":%s,"dur":%s,"args":{"cpu":0}},\n' "$@"; }
{
    echo '{"traceEvents":['
    for t in "1 main" "2 worker#0" "3 worker#1" "4 timer thread"; do
        printf '{"ph":"M","name":"thread_name","pid":1,"tid":%s,"args":{"name":"%s"}},\n' "${t%% *}" "${t#* }"
    done
    ev running 1 0 50
    ev running 2 0.000 1.000; ev blocking 2 1.000 9.000; ev wants_gvl 2 10.000 12.000
    ev running 2 22.000 1.000; ev blocking 2 23.000 2.000; ev running 2 25.000 1.000
    ev blocking 2 26.000 2.000; ev wants_gvl 2 28.000 2.000; ev running 2 30.000 1.000
    ev wants_gvl 3 0.000 12.000; ev running 3 12.000 1.000; ev blocking 3 13.000 7.000
    ev running 3 27.000 1.100
    ev blocking 4 0 100
    echo ']}'
} >"$tmp/t.json"
run_cmd awk -f scripts/convoy.awk "$tmp/t.json"
expect_code 0 "made-up timeline"
expect_match out '^calls 4: convoy 1, mid 0, short 1, free 2$' "the calls by their wait"
expect_match out '^out of the convoy: 0\.750 of the calls, in 2 runs \(0\.5000 a call\): mean 1\.5 calls, median 2, p90 2, longest 2$' \
    "the runs out of the convoy"
expect_match out '^race: 2 hand-offs to a sleeper; escape 0\.0000$' "the hand-offs to a sleeper"
expect_match out '^  a \(release -> the releaser wants the GVL\) +p10 7\.00  p50 9\.00  p90 9\.00 us$' "a"
expect_match out '^  b \(release -> the successor.s release\) +p10 10\.00  p50 12\.00  p90 12\.00 us$' "b"
expect_match out '^  wake \(release -> the successor runs\) +p10 9\.00  p50 11\.00  p90 11\.00 us$' "wake"
expect_match out '^collisions 2 \(a wait begun while the other runs\), slept 1 \(5 us or more\)$' "the collisions"
expect_match out '^  d 0\.00-0\.25 us: 1, slept 0\.00$' "a release 0.1 us into a wait"
expect_match out '^  d 1 us or more: 1, slept 1\.00$' "a release 1 us into a wait"

# a thread's states out of time order, and a trace without thread states: exit 1, said
sed 's/"ts":22.000/"ts":2.000/' "$tmp/t.json" >"$tmp/bad.json"
run_cmd awk -f scripts/convoy.awk "$tmp/bad.json"
expect_code 1 "states out of order"
expect_match err "worker#0's states not in time order" "out of order named"
printf '{"traceEvents":[\n]}\n' >"$tmp/none.json"
run_cmd awk -f scripts/convoy.awk "$tmp/none.json"
expect_code 1 "no thread states"
expect_match err "no thread states" "no thread states said"

# the simulator's timeline of a 2-thread File.mtime loop: every call counted once
run run scenarios/mtime_loop.json --set ractors.0.threads.1.count=2 \
    --set ractors.0.threads.1.program.0.times_total=2000 --set machine.cores=2 -q --trace "$tmp/sim.json"
expect_code 0 "a traced run"
run_cmd awk -f scripts/convoy.awk "$tmp/sim.json"
expect_code 0 "the simulator's timeline"
expect_match out '^calls 2000: ' "every call of the loop"
expect_match out '^race: [0-9]+ hand-offs to a sleeper; escape [01]\.[0-9]{4}$' "its race"
finish convoy_awk.sh
