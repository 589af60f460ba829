#!/bin/sh
# exec.sh BINARY - `gvlsim exec` end to end on small sizes: the CSV row of a
# real run under every policy, ops and syscalls counted exactly, barriers,
# the instruction counter, the affinity error, deadlock and watchdog
# reports (exit 4, no output file), refused simulator options (--trace:
# exec_trace.sh).  Nothing
# here depends on timing.
# real-threads: gvlsim exec (`make test` runs such scripts with nothing else at work: tests/e2e/run.sh)
set -u
bin=$1
. tests/e2e/lib.inc

# the busy loop's calibration (exit 4 when its samples spread more than 10%)
# is a timing: a loaded host must not fail these checks
X="exec --max-spread 1000"
mtime="scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=3000 --set ractors.0.threads.1.count=3"
ncpu=$(nproc)

# -- every policy, 1 core and (when the host has them) 2 cores
for policy in eager hot_steal delayed threshold barging; do
    for cores in 1 2; do
        [ "$cores" -le "$ncpu" ] || continue
        run $X $mtime --set machine.cores=$cores --set runtime.gvl_policy=$policy -o "$tmp/m.csv"
        expect_code 0 "mtime_loop $policy $cores cores"
        expect_match err "^mtime_loop \[pthread/pthread\] $policy, $cores core" "summary $policy"
        expect_match err '^  GVL exclusion check: ok$' "GVL check $policy"
        checks=$((checks + 1))
        [ "$(wc -l <"$tmp/m.csv")" -eq 2 ] || fail "$policy: CSV is not a header and one row"
        checks=$((checks + 1))
        grep -q "^mtime_loop,pthread,pthread,$policy,none,none,$cores,1,4,1," "$tmp/m.csv" ||
            fail "$policy: row does not start as expected: $(tail -n 1 "$tmp/m.csv")"
        expect_col ops 3000 m.csv "$policy ops"
        expect_col syscalls 3000 m.csv "$policy syscalls"
        expect_col engine_events "" m.csv "$policy engine_events (not measured: empty)"
        expect_col line_transfers "" m.csv "$policy line_transfers (not measured: empty)"
    done
done

# -- queue ping-pong (File.write as open/write/close), small
run $X scenarios/queue_pingpong.json --set ractors.0.threads.0.program.0.times=400 \
    --set ractors.0.threads.1.program.0.times=2000 --set machine.cores=1 -q -o "$tmp/q.csv"
expect_code 0 "queue_pingpong"
expect_empty err "queue_pingpong -q"
expect_col ops 2000 q.csv "queue_pingpong ops"
expect_col syscalls 7200 q.csv "queue_pingpong syscalls"

# -- two Ractors escaping environments: a barrier per escape under lock_barrier
ph="tests/data/exec_proc_heavy.json --set ractors.1.threads.0.program.0.times=500"
run $X $ph --set runtime.invariant_check=lock_barrier -o "$tmp/p.csv"
expect_code 0 "proc_heavy lock_barrier"
expect_col barriers 1000 p.csv "lock_barrier barriers"
expect_col ops 1000 p.csv "lock_barrier ops"
expect_match err '^  barriers: 1000 completed, [0-9]+ joins$' "barrier summary"
run $X $ph --set runtime.invariant_check=none -o "$tmp/p.csv"
expect_code 0 "proc_heavy none"
expect_col barriers 0 p.csv "none barriers"

# -- the instruction counter
run $X tests/data/exec_counter.json --set ractors.1.threads.0.program.0.insns=1000000 \
    --set runtime.insn_counter=thread_local -o "$tmp/c.csv"
expect_code 0 "counter"
expect_col insn_counter thread_local c.csv "counter column"
expect_match err '^  instructions: 2000000 executed; shared counter 0$' "counter summary"

# -- more cores than the host has: exit 3, both numbers named
run $X $mtime --set machine.cores=$((ncpu + 1)) -o "$tmp/x.csv"
expect_code 3 "too many cores"
expect_match err "machine.cores = $((ncpu + 1)), but this host lets gvlsim exec use only $ncpu CPU" "too many cores"
checks=$((checks + 1))
[ ! -e "$tmp/x.csv" ] || fail "too many cores: output file written"

# -- deadlock: exit 4, who waits on what, no output file
run $X tests/data/deadlock.json -o "$tmp/d.csv"
expect_code 4 "deadlock"
expect_match err 'deadlock after [0-9.]+ s: every living thread is parked' "deadlock"
expect_line err '  thread main: parked in queue_pop on queue "never" at /ractors/0/threads/0/program/1 (line 7)' "deadlock: who"
checks=$((checks + 1))
[ -z "$(ls "$tmp" | grep d.csv)" ] || fail "deadlock left an output or temporary file"

# -- watchdog: a hang that is no detectable deadlock, stopped after --timeout
run $X tests/data/exec_hang.json --timeout 0.5 -o "$tmp/h.csv"
expect_code 4 "watchdog"
expect_match err 'watchdog: the run did not finish within 0.5 s' "watchdog"
expect_line err '  thread main: parked in queue_pop on queue "never" at /ractors/0/threads/0/program/0 (line 7)' "watchdog: who"
checks=$((checks + 1))
[ -z "$(ls "$tmp" | grep h.csv)" ] || fail "watchdog left an output or temporary file"

# -- simulator-only options are refused
run $X $mtime --engine simgrid
expect_code 2 "--engine"
run $X $mtime --force
expect_code 2 "--force"

# -- more threads than the executor runs: said as many, not "none"
run $X tests/data/minimal.json --set ractors.0.threads.0.count=5000 --set machine.cores=1
expect_code 3 "5000 threads"
expect_line err "gvlsim exec: tests/data/minimal.json: gvlsim exec runs 1 to 4096 threads (one pthread each); this scenario has 5000" "5000 threads"

# -- loops nested 32 deep, the documented limit (input_limits.sh checks the
#    loader's side)
run $X tests/data/nest32.json --set machine.cores=1 -q --no-header
expect_code 0 "32 nested loops, real executor"

finish "$script"
