#!/bin/sh
# exec_trace.sh BINARY - `gvlsim exec --trace`: the threads' states of a
# real run as a trace in `gvlsim run --trace`'s format - the thread tracks
# alone (no cores, timer thread or ready queues), each slice with its CPU,
# each state's slices
# summing to the row's state-time column, .gz, the cap (reported, in the
# file's metadata), a failed run's trace up to the failure, a trace that
# cannot be created failing before the run, and the options' misuses.
# The record's blocks, order and cut are in tests/unit/test_exec_tlog.c.
# real-threads: gvlsim exec (`make test` runs such scripts with nothing else at work: tests/e2e/run.sh)
set -u
bin=$1
. tests/e2e/lib.inc

X="exec --max-spread 1000"
mtime="scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=2000 --set machine.cores=1"

# -- misuse: exit 2, nothing run
run exec --backend ruby $mtime --trace "$tmp/r.json"
expect_code 2 "--trace with --backend ruby"
expect_match err 'trace and --trace-max-events are for --backend pthread' "--backend ruby named"
run $X $mtime --trace-max-events 100
expect_code 2 "--trace-max-events without --trace"
run $X $mtime --trace "$tmp/z.json" --trace-max-events 0
expect_code 2 "--trace-max-events 0"

# -- a trace that cannot be created: exit 5 before the run, no row
run $X $mtime --trace "$tmp/nodir/t.json" -o "$tmp/nodir.csv"
expect_code 5 "unwritable trace"
expect_match err 'nodir/t.json: cannot create output file' "unwritable trace named"
expect_lacks "$tmp/err" "unwritable trace" "mtime_loop [pthread"
checks=$((checks + 1))
[ ! -e "$tmp/nodir.csv" ] || fail "unwritable trace: a row was written"

# -- a trace: thread tracks only, each state's slices summing to its column
run $X $mtime -q --trace "$tmp/t.json" -o "$tmp/t.csv"
expect_code 0 "trace"
expect_empty err "trace -q"
expect_has "$tmp/t.json" "trace" '"name":"mtime_loop [pthread: eager, 1 core, seed 1]"' '"args":{"name":"main"}' \
    '"args":{"name":"worker#0"}' '"args":{"name":"worker#1"}' '"name":"running"' '"name":"wants_gvl"' \
    '"name":"blocking"' '"truncated":false'
expect_lacks "$tmp/t.json" "trace" 'timer thread' '"core 0"' '"readyq"' '"cores"'
# every thread slice with the CPU its state began on: one this machine
# has, and in this 1-core run (its threads bound to one CPU) always that one
checks=$((checks + 1))
ncpu=$(getconf _NPROCESSORS_CONF)
awk -v n="$ncpu" 'index($0, "\"cat\":\"thread\"") { k++
        if (!match($0, /"args":\{"cpu":[0-9]+\}\},?$/)) { print "no cpu: " $0; bad = 1; exit }
        c = substr($0, RSTART + 14, RLENGTH - 16) + 0
        if (c >= n || (k > 1 && c != first)) { print "cpu " c " (first " first ", of " n "): " $0; bad = 1; exit }
        if (k == 1) first = c }
    END { exit bad || !k }' "$tmp/t.json" >"$tmp/cpu.out" ||
    fail "a thread slice without its CPU, or another CPU than the run's one: $(head -c 300 "$tmp/cpu.out")"
# the sums, in us (slices have six decimals: ps exact) against the row's seconds
for st in running wants_gvl blocking parked; do
    checks=$((checks + 1))
    sum=$(awk -v st="$st" -F'"dur":' 'index($0, "\"name\":\"" st "\"") && NF == 2 { s += $2 + 0 } END { printf "%.6f", s / 1e6 }' "$tmp/t.json")
    col=$(csv_col "${st}_s" "$tmp/t.csv")
    awk -v a="$sum" -v b="$col" 'BEGIN { d = a - b; exit !(d < 1e-6 && d > -1e-6) }' ||
        fail "$st: the trace's slices sum to $sum s, the row says $col s"
done
# one blocking slice per File.mtime call (2,000)
checks=$((checks + 1))
n=$(grep -c '"name":"blocking"' "$tmp/t.json")
[ "$n" -eq 2000 ] || fail "$n blocking slices, expected 2000 (one per call)"

# -- .gz
run $X $mtime -q --trace "$tmp/t.json.gz" -o "$tmp/t2.csv"
expect_code 0 "trace .gz"
checks=$((checks + 1))
gzip -t "$tmp/t.json.gz" 2>/dev/null && gzip -dc "$tmp/t.json.gz" | grep -q '"generator":"gvlsim"' ||
    fail "the .gz trace is not gzip data of a trace"

# -- the cap: reported on stderr (even with -q) and in the file
run $X $mtime -q --trace "$tmp/cap.json" --trace-max-events 300 -o "$tmp/cap.csv"
expect_code 0 "capped trace"
expect_match err '^gvlsim exec: trace .*/cap\.json capped at 300 events \(--trace-max-events\): it stops at t=0\.[0-9]+ s; [1-9][0-9]* later events were dropped$' "cap on stderr"
expect_has "$tmp/cap.json" "capped trace" '"max_events":300,' '"truncated":true,"truncated_at_us":' '"trace_truncated"'
checks=$((checks + 1))
[ "$(grep -c '^{"ph"' "$tmp/cap.json")" -le 300 ] || fail "more than 300 events in a trace capped at 300"

# a cap smaller than the threads' first blocks: still a trace of their
# states (a thread's first change, timed back at the start gate, never
# cuts the record there)
run $X $mtime -q --trace "$tmp/cap60.json" --trace-max-events 60 -o "$tmp/cap60.csv"
expect_code 0 "trace capped at 60"
expect_match err 'it stops at t=0\.0*[1-9][0-9]* s' "capped at 60: not cut at the gate"
checks=$((checks + 1))
grep -q '"cat":"thread","name":"running"' "$tmp/cap60.json" || fail "capped at 60: no running slice"

# -- a failed run (deadlock): exit 4, its trace up to the failure, no row
run $X tests/data/deadlock.json --trace "$tmp/dl.json" -o "$tmp/dl.csv"
expect_code 4 "deadlock"
expect_match err "^gvlsim exec: trace .*/dl\.json written up to the failure$" "failed run's trace said"
expect_has "$tmp/dl.json" "failed run's trace" '"name":"parked"' '"args":{"name":"helper"}'
checks=$((checks + 1))
[ ! -e "$tmp/dl.csv" ] || fail "deadlock: a row was written"

finish "$script"
