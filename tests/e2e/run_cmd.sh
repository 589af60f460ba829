#!/bin/sh
# run_cmd.sh BINARY - `gvlsim run`: CSV on stdout or in a file, atomic
# output, determinism, overrides, and every failure class with its exit code.
set -u
bin=$1
. tests/e2e/lib.inc
small="--set ractors.0.threads.1.program.0.times_total=2000"

# -- a run: header + one row on stdout, a summary on stderr
run run scenarios/mtime_loop.json $small --set machine.cores=2
expect_code 0 "run to stdout"
expect_lines out 2 "run to stdout"
expect_match out '^scenario,backend,engine,policy,' "header"
expect_match out '^mtime_loop,sim,native,eager,none,none,2,1,9,1,' "row"
expect_match err '^mtime_loop \[sim/native\] eager, 2 cores, 1 ractor, 9 threads: wall ' "summary"

# -- determinism: same scenario and seed, byte-identical; another seed differs
run run scenarios/mtime_loop.json $small --reproducible -q -o "$tmp/a.csv"
expect_code 0 "reproducible a"
expect_empty err "-q"
run run scenarios/mtime_loop.json $small --reproducible -q -o "$tmp/b.csv"
checks=$((checks + 1))
cmp -s "$tmp/a.csv" "$tmp/b.csv" || fail "same seed gave different CSVs"
run run scenarios/mtime_loop.json $small --reproducible -q --seed 2 -o "$tmp/c.csv"
checks=$((checks + 1))
cmp -s "$tmp/a.csv" "$tmp/c.csv" && fail "seed 2 gave the same CSV as seed 1"
checks=$((checks + 1))
tail -n 1 "$tmp/a.csv" | grep -q ',$' || fail "--reproducible left host_s (the last column) filled"

# -- --no-header, --set changes the row
run run scenarios/mtime_loop.json $small --no-header -q --set machine.cores=1 --set ractors.0.threads.1.count=2
expect_code 0 "--no-header"
expect_lines out 1 "--no-header"
expect_match out '^mtime_loop,sim,native,eager,none,none,1,1,3,' "--set cores/threads"

# -- a deadlock: exit 4, who waits on what, and no output file
run run tests/data/deadlock.json -o "$tmp/dead.csv"
expect_code 4 "deadlock"
expect_match err 'deadlock at 0\.0000[0-9]+ s: 2 threads blocked' "deadlock"
expect_line err '  thread main: parked in queue_pop on queue "never" (empty) at /ractors/0/threads/0/program/1 (line 7)' "deadlock: who"
expect_line err '  thread helper: in join, waiting for 1 other thread to finish, at /ractors/0/threads/1/program/0 (line 8)' "deadlock: join"
checks=$((checks + 1))
[ ! -e "$tmp/dead.csv" ] || fail "deadlock left an output file"
checks=$((checks + 1))
[ -z "$(ls "$tmp" | grep dead.csv)" ] || fail "deadlock left a temporary file"

# -- a deadlock before stop.time is still a deadlock, not a clean stop
run run tests/data/deadlock_stop.json
expect_code 4 "deadlock before stop.time"
expect_line err '  thread main: parked in queue_pop on queue "q" (empty) at /ractors/0/threads/0/program/0/body/1 (line 9)' "deadlock before stop.time"

# -- regression: a GVL signal sent while the waiter pays its pending CPU is not lost
for seed in 2 3 5 7; do
    run run tests/data/lost_wakeup.json --seed $seed -q
    expect_code 0 "lost wake-up, seed $seed"
done

# -- output to a FIFO or through a symlink: written in place / the target replaced
mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/fifo.out" &
run run scenarios/mtime_loop.json $small -q -o "$tmp/fifo"
wait
expect_code 0 "output to a FIFO"
checks=$((checks + 1))
[ -p "$tmp/fifo" ] || fail "the FIFO was replaced by a regular file"
checks=$((checks + 1))
[ "$(wc -l <"$tmp/fifo.out")" -eq 2 ] || fail "the FIFO did not receive header + row"
echo old >"$tmp/target.csv"
ln -s "$tmp/target.csv" "$tmp/link.csv"
run run scenarios/mtime_loop.json $small -q -o "$tmp/link.csv"
checks=$((checks + 1))
[ -L "$tmp/link.csv" ] && grep -q '^mtime_loop,' "$tmp/target.csv" || fail "symlink output: link replaced or target not written"

# -- simulated time limit: exit 4
run run scenarios/io_plus_cpu.json --max-time 0.5
expect_code 4 "--max-time"
expect_match err 'simulated time limit of 0\.500 s reached' "--max-time"

# -- unwritable output: exit 5, nothing left behind
mkdir "$tmp/ro" && chmod 500 "$tmp/ro"
if [ "$(id -u)" -ne 0 ]; then
    run run scenarios/mtime_loop.json $small -o "$tmp/ro/x.csv"
    expect_code 5 "unwritable output"
fi
run run scenarios/mtime_loop.json $small -o "$tmp/nodir/x.csv"
expect_code 5 "output in a missing directory"
expect_match err 'nodir/x.csv: cannot create output file' "output in a missing directory"

# -- missing / invalid scenario: 5 / 3
run run "$tmp/nope.json"
expect_code 5 "missing scenario"
run run tests/data/bad/queue_pingpong.json
expect_code 3 "invalid scenario"

# -- usage errors: 2
run run
expect_code 2 "no scenario"
run run scenarios/mtime_loop.json --seed -1
expect_code 2 "bad seed"
run run scenarios/mtime_loop.json --engine simgridx
expect_code 2 "unknown engine"
run run scenarios/mtime_loop.json scenarios/io_plus_cpu.json
expect_code 2 "two scenarios"
run run scenarios/mtime_loop.json --bogus
expect_code 2 "unknown option"

# -- barging (no timer thread): the summary names the designated timer's
# TIMER interrupts, the CSV's timer_ticks under that policy
run run scenarios/queue_pingpong.json --set runtime.gvl_policy=barging --set machine.cores=2 \
    --set ractors.0.threads.0.program.0.times=2000 --set ractors.0.threads.1.program.0.times=10000 -o "$tmp/b.csv"
expect_code 0 "barging summary"
expect_match err '^  GVL lock \(gvl->lock\): .*; the designated timer set [0-9.]+k? TIMER interrupts$' "barging summary"
checks=$((checks + 1))
[ "$(csv_col timer_ticks "$tmp/b.csv")" -gt 0 ] 2>/dev/null || fail "barging: timer_ticks is $(csv_col timer_ticks "$tmp/b.csv")"

# -- under a fair OS class the summary gives what the class decided (the
# figures of make bpf's sched_wakes report): wake-ups onto a running task and
# their preemptions, the delayed sleepers' wakes, the sleeps by lag; under
# fifo (the default profile's) no such line
pp1="scenarios/queue_pingpong.json --set machine.cores=1 --set ractors.0.threads.0.program.0.times=400 --set ractors.0.threads.1.program.0.times=2000"
# shellcheck disable=SC2086
run run $pp1 --set machine.os_scheduler=eevdf_delay_dequeue -o "$tmp/f.csv"
expect_code 0 "fair summary"
expect_match err '^  fair class: [0-9.]+k? wake-ups onto a running task, [0-9.]+k? preempting it \([0-9]+%\) \(of a delayed sleeper: [0-9.]+k?, [0-9]+% preempting\); [0-9.]+k? sleeps: [0-9]+% delayed, [0-9]+% with positive lag, [0-9]+% with none, [0-9]+% negative$' "fair summary"
# ... and the same thread by thread (sched_wakes.awk's section 6), with the
# waker's vruntime lead at the wakes: the main thread, woken by the worker
# at every message, has steps between wakes near 0
lead=", the waker's lead within 20 us at [0-9.]+k?( \\(moving [-+][0-9]+\\.[0-9]{3} us a wake\\))?, the waker eligible at [0-9.]+k?"
for th in main worker; do
    expect_match err "^    $th: woken onto a running task [0-9.]+k?, [0-9]+% preempting( \\(as a delayed sleeper [0-9.]+k?, [0-9]+%\\))?($lead)?; [0-9.]+k? sleeps: [0-9]+% delayed, [0-9]+% with positive lag, [0-9]+% with none, [0-9]+% negative\$" "fair summary: $th"
done
expect_match err "^    main: woken onto a running task .*, the waker's lead within 20 us at [0-9.]+k? \\(moving [-+][0-9]+\\.[0-9]{3} us a wake\\), the waker eligible at [0-9.]+k?; " "fair summary: the main thread's lead"
# shellcheck disable=SC2086
run run $pp1 --set machine.os_scheduler=cfs -o "$tmp/f.csv"
expect_code 0 "cfs summary"
expect_match err '^  fair class: [0-9.]+k? wake-ups onto a running task, [0-9.]+k? preempting it \([0-9]+%\)$' "cfs summary: no sleeps by lag"
# shellcheck disable=SC2086
run run $pp1 -o "$tmp/f.csv"
expect_code 0 "fifo summary"
checks=$((checks + 1))
grep -q 'fair class' "$tmp/err" && fail "fifo: a fair class line in the summary"

# -- state times summed over threads beyond int64 picoseconds (3,000 threads
# sleeping an hour: 1.08e19 ps) are exact, not wrapped around to negative
run run tests/data/minimal.json --set 'ractors.0.threads.0={"count": 3000, "program": [{"op": "sleep", "dur": "3600s"}]}' \
    --max-time 4000 -q --reproducible --no-header
expect_code 0 "wide sums"
checks=$((checks + 1))
[ "$(cut -d, -f18 "$tmp/out")" = 10800000.070087011 ] || fail "wide sums: sleeping_s is $(cut -d, -f18 "$tmp/out")"

finish run_cmd.sh
