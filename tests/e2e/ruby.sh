#!/bin/sh
# ruby.sh BINARY - `gvlsim exec --backend ruby` end to end: exact facts of
# real Ruby runs (ops, syscalls, queue items delivered, threads joined,
# Ractors, instructions, stop.time), what is left empty, the refusals
# (exit 7), a deadlock and the watchdog (exit 4), the program's syntax for
# every scenario.  Nothing here depends on timing.  Without a ruby on PATH
# the runs are skipped (and said so); the checks that need no Ruby still run.
# real-threads: Ruby programs (`make test` runs such scripts with nothing else at work: tests/e2e/run.sh)
set -u
bin=$1
. tests/e2e/lib.inc

expect_no_file() {
    checks=$((checks + 1))
    [ -z "$(ls "$tmp" | grep "$1")" ] || fail "$2: an output or temporary file was left"
}
# counts, not times: any calibration will do
R="exec --backend ruby --max-spread 1000"

# ---- what needs no Ruby ---------------------------------------------------
run $R --ruby /nonexistent/ruby tests/data/ruby_facts.json -o "$tmp/x.csv"
expect_code 7 "missing ruby"
expect_match err '^gvlsim exec: cannot run /nonexistent/ruby: No such file or directory; the Ruby backend needs CRuby 3.0 or later: install Debian.s ruby package \(apt-get install ruby\) or pass --ruby PATH$' "missing ruby"
expect_no_file x.csv "missing ruby"
run $R tests/data/ruby_facts.json --set machine.cores=$(($(nproc) + 1)) -o "$tmp/x.csv"
expect_code 3 "too many cores"
expect_match err "machine.cores = $(($(nproc) + 1)), but this host lets gvlsim exec use only" "too many cores"
run $R tests/data/ruby_facts.json --set 'ractors.0.threads.1.program.0.body.2={"op": "syscall", "call": "getpid", "dur": "1us"}'
expect_code 7 "getpid releasing the GVL"
expect_line err 'gvlsim exec: /ractors/0/threads/1/program/0/body/2 (line 1): syscall "getpid" with releases_gvl: no Ruby method releases the GVL around getppid(2); use releases_gvl false (Process.ppid) or call "stat" (File.mtime)' "getpid"
run $R tests/data/deadlock.json
expect_code 7 "join outside the main thread"
expect_match err 'join is generated only in the main thread' "join outside the main thread"
run $R --print-program tests/data/ruby_facts.json
expect_code 0 "--print-program"
expect_match out '^    q0.pop # /ractors/0/threads/1/program/0/body/0 \(line 15\)$' "--print-program: the pop"
run exec --ruby-opt=--yjit tests/data/ruby_facts.json
expect_code 2 "--ruby-opt without --backend ruby"
run exec --backend sim tests/data/ruby_facts.json
expect_code 2 "--backend sim (the simulator is gvlsim run)"
expect_match err 'unknown value "sim" \(one of: pthread or ruby\)' "--backend sim"
run run tests/data/ruby_facts.json --ruby-opt=--yjit
expect_code 2 "run --ruby-opt"
expect_match err 'unknown option "--ruby-opt"' "run --ruby-opt"

if ! command -v ruby >/dev/null 2>&1; then
    [ "$failures" -eq 0 ] || finish "$script"
    skip "ruby is not installed, so no Ruby ran (the $checks checks that need none passed;" \
         "optional: apt-get install ruby, or \`make deps\` as root)"
fi
version=$(ruby -e 'print RUBY_VERSION')

# ---- the program is valid Ruby for every scenario -----------------------------
for f in scenarios/*.json scenarios/examples/*.json tests/data/ruby_*.json tests/data/exec_*.json; do
    run $R --print-program "$f"
    expect_code 0 "--print-program $f"
    checks=$((checks + 1))
    ruby -c "$tmp/out" >/dev/null 2>"$tmp/syntax" || fail "$f: the program is not valid Ruby: $(cat "$tmp/syntax")"
done

# ---- the busy loop's calibration, on a stubbed clock ----------------------------
# The program's gv_calibrate and gv_spin, with gv_loop and the thread CPU clock
# stubbed (only the loop's iterations take time).  A loop whose calls alternate
# between 12 and 21 ns an iteration (the two speeds of an interpreter,
# docs/ruby-backend.md) is accepted at the default 10%, at the mean (16.5 ns),
# in one attempt, uncertain by 8%; the median of such samples jumps between the
# two, and their interquartile range is 43%.  A steady 10 ns loop gives 10 ns,
# an uncertainty of 0, computes costing 0 with no loop, 10 ns with one
# iteration, 640 with 64; and computes of 167 ns, 5 ns (cheaper than any loop)
# and 1234.5 ns then cost what they ask over 1000 calls, to within one iteration.
run $R --print-program tests/data/ruby_facts.json
awk '/^def gv_(calibrate|spin|calls|compute_costs)\(?/ { p = 1 } p { print } p && /^end$/ { p = 0 }' "$tmp/out" > "$tmp/cal.rb"
cat > "$tmp/cal_test.rb" <<'RUBY'
GV_MAX_SPREAD = 0.10
GV_CAL = [0.0, 0.0, 0.0, 0.0, 1, 8, 64, 0.0, 0.0, 0.0]
$clock = 0.0
$calls = 0
cal = ARGV.shift
$speeds = ARGV.map(&:to_f)
def gv_tcpu = $clock
def gv_loop(n)
  $clock += n * $speeds[$calls % $speeds.size]
  $calls += 1
  n
end
eval(File.read(cal))
r = gv_calibrate
printf("%.3f %.4f %d %.3f %.1f %.1f %.1f", r[0], r[3], r[4], r[5], r[6], r[7], r[8])
if $speeds.size == 1
  [167.0, 5.0, 1234.5].each do |ns|
    c = 0.0
    t0 = $clock
    1000.times { c = gv_spin(ns, c) }
    printf(" %.0f", $clock - t0)
  end
end
puts
RUBY
checks=$((checks + 1))
got=$(ruby "$tmp/cal_test.rb" "$tmp/cal.rb" 12 21 2>&1)
[ "$got" = "16.500 0.0796 1 0.429 0.0 16.5 1056.0" ] || fail "calibration of a two-speed loop: got \"$got\""
checks=$((checks + 1))
got=$(ruby "$tmp/cal_test.rb" "$tmp/cal.rb" 10 2>&1)
[ "$got" = "10.000 0.0000 1 0.000 0.0 10.0 640.0 167000 5000 1234500" ] || fail "calibration of a steady loop: got \"$got\""

# ---- exact facts, on 1 core and (when the host has them) 2 --------------------
for cores in 1 2; do
    [ "$cores" -le "$(nproc)" ] || continue
    run $R tests/data/ruby_facts.json --set machine.cores=$cores -o "$tmp/f.csv"
    expect_code 0 "facts, $cores cores"
    expect_col backend ruby f.csv "facts"
    expect_col engine "ruby $version" f.csv "facts: the Ruby that ran"
    expect_col cores $cores f.csv "facts"
    expect_col ractors 4 f.csv "facts: Ractor instances"
    expect_col threads 7 f.csv "facts: threads joined"
    # 100 queue items delivered to the workers, 50 through r1's queue, 10 computes in r2
    expect_col ops 160 f.csv "facts: measured iterations"
    # 100 File.mtime, 50 File.write = 150 blocking regions
    expect_col syscalls 250 f.csv "facts: syscalls"
    checks=$((checks + 1))
    ro=$(csv_col ractor_ops_per_s "$tmp/f.csv")
    [ "$(echo "$ro" | tr ';' '\n' | wc -l)" -eq 4 ] || fail "facts: ractor_ops_per_s \"$ro\" is not 4 rates"
    # what a Ruby program cannot see is empty, not 0
    for c in running_s wants_gvl_s parked_s gvl_handoffs wakeups wasted_wakes timer_ticks barriers \
             vmlock_acquires line_transfers engine_events; do
        expect_col $c "" f.csv "facts: $c is not measured"
    done
    checks=$((checks + 1))
    case $(csv_col vol_switches "$tmp/f.csv") in ''|*[!0-9]*) fail "facts: vol_switches is not a count" ;; esac
    checks=$((checks + 1))
    [ "$(csv_col native_threads "$tmp/f.csv")" -ge 7 ] || fail "facts: fewer native threads than Ruby threads"
    # 2 x 10^6 instructions, as the loop's instruction sequence counts them
    checks=$((checks + 1))
    awk '/^  instructions: / { ins = $2; split($0, a, "[(]"); split(a[2], b, " "); per = b[1]; fix = b[6]
                              want = 2 * (fix + int((1000000 - fix) / per) * per)
                              if (ins != want) { print ins, "!=", want; bad = 1 } ; seen = 1 }
         END { exit !(seen && !bad) }' "$tmp/err" || fail "facts: instruction count"
    expect_match err "^ruby_facts \[ruby/ruby $version\] " "facts: summary"
    # the GC's clock: GC.stat(:time) (3.1+), the summary's figure, in
    # gc_clock_s; the GC's own time (gc_s), like every state time, not
    # measurable from inside: empty
    checks=$((checks + 1))
    gcs=$(sed -n 's/^  GC: [0-9]* runs, \([0-9.]*\) s$/\1/p' "$tmp/err")
    if [ -n "$gcs" ]; then
        awk -v a="$(csv_col gc_clock_s "$tmp/f.csv")" -v b="$gcs" 'BEGIN { exit !(a != "" && a - b < 0.0006 && b - a < 0.0006) }' ||
            fail "facts: gc_clock_s \"$(csv_col gc_clock_s "$tmp/f.csv")\" against the summary's $gcs s"
    else
        expect_col gc_clock_s "" f.csv "facts: no GC time reported: gc_clock_s empty"
    fi
    expect_col gc_s "" f.csv "facts: gc_s empty"
done
case $version in
3.[012].*) expect_col policy barging f.csv "facts: Ruby $version has the barging GVL" ;;
esac
# the GVL of this Ruby, which the seed scenarios (written for eager) must be told
policy=$(csv_col policy "$tmp/f.csv")

# the seed scenarios, small
run $R scenarios/queue_pingpong.json --set ractors.0.threads.0.program.0.times=400 \
    --set ractors.0.threads.1.program.0.times=2000 --set machine.cores=1 \
    --set runtime.gvl_policy=$policy -q -o "$tmp/q.csv"
expect_code 0 "queue_pingpong"
expect_empty err "queue_pingpong -q"
expect_col ops 2000 q.csv "queue_pingpong: items delivered"
expect_col syscalls 7200 q.csv "queue_pingpong: 2400 File.write"
run $R scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=3000 \
    --set ractors.0.threads.1.count=3 --set runtime.gvl_policy=$policy -q -o "$tmp/m.csv"
expect_code 0 "mtime_loop"
expect_col ops 3000 m.csv "mtime_loop ops"
expect_col syscalls 3000 m.csv "mtime_loop File.mtime calls"
expect_col threads 4 m.csv "mtime_loop threads"

# ---- stop.time: every thread ends, parked pops and sleepers included --------------
run $R tests/data/ruby_stop.json --timeout 60 -o "$tmp/s.csv"
expect_code 0 "stop.time"
expect_match err '^  stopped at stop.time$' "stop.time"
checks=$((checks + 1))
awk -v w="$(csv_col wall_s "$tmp/s.csv")" -v o="$(csv_col ops "$tmp/s.csv")" 'BEGIN { exit !(w >= 0.2 && o > 0) }' ||
    fail "stop.time: wall $(csv_col wall_s "$tmp/s.csv") s, ops $(csv_col ops "$tmp/s.csv")"

# ---- refusals: a setting this Ruby cannot honour, named, exit 7, no output ----------
run $R tests/data/ruby_facts.json --set runtime.gvl_policy=delayed -o "$tmp/r.csv"
expect_code 7 "delayed policy"
expect_match err "^gvlsim exec: runtime.gvl_policy = delayed: Ruby $version hands the GVL over as " "delayed policy"
expect_no_file r.csv "delayed policy"
run $R tests/data/ruby_facts.json --set runtime.invariant_check=lock_barrier -o "$tmp/r.csv"
expect_code 7 "lock_barrier without YJIT"
expect_match err "^gvlsim exec: runtime.invariant_check = lock_barrier" "lock_barrier"
run $R tests/data/ruby_facts.json --set runtime.timer_tick=5ms
expect_code 7 "timer_tick"
# a syscall's "allocates" makes the allocation counters matter, as an alloc op does
# (Ruby 3.x keeps them shared, so `local` is refused only where the run allocates)
case $version in 3.*)
    A="scenarios/mtime_loop.json --set runtime={\"ruby\":\"$version\"} --set runtime.alloc_counters=local"
    A="$A --set ractors.0.threads.1.count=2 --set ractors.0.threads.1.program.0.times_total=100"
    # shellcheck disable=SC2086
    run $R $A -o "$tmp/r.csv"
    expect_code 0 "alloc_counters without allocations"
    # shellcheck disable=SC2086
    run $R $A --set ractors.0.threads.1.program.0.body.1.allocates=1 -o "$tmp/r2.csv"
    expect_code 7 "alloc_counters with a syscall's allocations"
    expect_match err '^gvlsim exec: runtime.alloc_counters = local: Ruby ' "allocates"
    expect_no_file r2.csv "allocates"
    ;;
esac
run $R tests/data/ruby_facts.json --ruby-opt=--no-such-option
expect_code 7 "a bad --ruby-opt"
expect_match err 'does not start' "a bad --ruby-opt"
if ruby --yjit -e 'exit(RubyVM::YJIT.enabled? ? 0 : 1)' >/dev/null 2>&1; then
    run $R tests/data/ruby_facts.json --set runtime.yjit=true -o "$tmp/y.csv"
    expect_code 0 "runtime.yjit"
    expect_col engine "ruby $version +YJIT" y.csv "runtime.yjit runs ruby --yjit"
    expect_col ops 160 y.csv "runtime.yjit: ops"
    run $R tests/data/ruby_facts.json --ruby-opt=--yjit --set runtime.yjit=false
    expect_code 7 "runtime.yjit=false with --yjit"
fi

# ---- failures: exit 4 with what each thread waits on ------------------------------
run $R tests/data/ruby_deadlock.json -o "$tmp/d.csv"
expect_code 4 "deadlock"
expect_match err 'deadlock: Ruby found every thread of the main Ractor waiting forever' "deadlock"
expect_match err '^  \|   \(program line [0-9]+ runs queue_pop /ractors/0/threads/0/program/1, line 7\)$' "deadlock: the op"
expect_no_file d.csv "deadlock"
run $R tests/data/exec_hang.json --timeout 3 -o "$tmp/h.csv"
expect_code 4 "watchdog"
expect_match err 'watchdog: the Ruby program did not finish within 3 s \(--timeout\); stopped it' "watchdog"
expect_match err '^  \|   thread main \(' "watchdog: the threads"
expect_match err 'runs queue_pop /ractors/0/threads/0/program/0, line 7\)$' "watchdog: the op"
expect_no_file h.csv "watchdog"
run exec --backend ruby --max-spread 0.0001 tests/data/ruby_facts.json
expect_code 4 "calibration"
expect_match err 'busy-loop calibration is unstable' "calibration"
expect_match err '--max-spread PCT accepts more' "calibration: the remedy"

# ---- the application ops (issue 11): counts of real Ruby runs -------------------------
L=tests/data/lang
run $R $L/cv_handoff.json -o "$tmp/l.csv"
expect_code 0 "cv_handoff"
expect_col ops 300 l.csv "cv_handoff: items taken through Mutex + ConditionVariable"
expect_col threads 3 l.csv "cv_handoff: threads"
expect_col mutex_waits "" l.csv "cv_handoff: mutex_waits is not measured"
expect_col timeouts 0 l.csv "cv_handoff: no timeouts"
run $R $L/mutex_counter.json -o "$tmp/l.csv"
expect_code 0 "mutex_counter"
expect_col ops 2000 l.csv "mutex_counter: synchronize blocks"
run $R $L/spawn_pool.json -o "$tmp/l.csv"
expect_code 0 "spawn_pool"
expect_col threads 5 l.csv "spawn_pool: threads, the spawned ones included"
expect_col job_count 30 l.csv "spawn_pool: jobs measured"
run $R $L/generator.json --set warmup=0s -o "$tmp/l.csv"
expect_code 0 "generator"
expect_col threads 4 l.csv "generator: the generator is a thread"
expect_col served_count 200 l.csv "generator: every arrival served"
run $R $L/gc.json --set machine.cores=1 -o "$tmp/l.csv"
expect_code 0 "alloc"
expect_col ops 2000 l.csv "alloc: ops"
checks=$((checks + 1))
[ "$(csv_col gc_count "$tmp/l.csv")" -gt 0 ] || fail "alloc: 200000 objects and no GC"
# the resource pool of bug #19717: each worker takes the resource 1000 times or times out
run $R scenarios/examples/resource_pool.json -o "$tmp/l.csv"
expect_code 0 "resource_pool"
checks=$((checks + 1))
awk -v n="$(csv_col acquire_count "$tmp/l.csv")" -v t="$(csv_col timeouts "$tmp/l.csv")" \
    'BEGIN { exit !(t >= 0 && t <= 3 && n >= 1000 * (3 - t) && n <= 3000 - 1000 * t + 999 * t) }' ||
    fail "resource_pool: $(csv_col acquire_count "$tmp/l.csv") acquisitions, $(csv_col timeouts "$tmp/l.csv") timeouts"
# Mutex deadlocks: Ruby's own detection, reported with the ops
# (each holds its first mutex 200 ms, time enough for the other to start on a loaded host)
run $R $L/deadlock_mutex.json --set ractors.0.threads.0.program.1.dur=200ms \
    --set ractors.0.threads.1.program.1.dur=200ms -o "$tmp/d.csv"
expect_code 4 "mutex deadlock"
expect_match err 'deadlock: Ruby found every thread of the main Ractor waiting forever' "mutex deadlock"
expect_match err 'runs mutex_lock /ractors/0/threads/[01]/program/2, line [0-9]+\)$' "mutex deadlock: the op"
run $R $L/deadlock_cv.json -o "$tmp/d.csv"
expect_code 4 "condition variable deadlock"
expect_match err 'deadlock: Ruby found every thread of the main Ractor waiting forever' "cv deadlock"
# Queue#pop(timeout:) is 3.2+
run $R $L/timed_pop.json --set ractors.0.threads.1.program.0.body.0.timeout=1s -o "$tmp/l.csv"
case $version in
3.[01].*)
    expect_code 7 "timed pop on $version"
    expect_match err "queue_pop with a timeout: Ruby $version has no Queue#pop\\(timeout:\\)" "timed pop" ;;
*)
    expect_code 0 "timed pop"
    expect_col ops 100 l.csv "timed pop: items"
    expect_col timeouts 0 l.csv "timed pop: no timeouts" ;;
esac

finish "$script"
