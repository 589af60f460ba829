#!/bin/sh
# import_cmd.sh BINARY - `gvlsim import gvl-tracing`: every real trace of
# tests/data/gvl-tracing imports without hand edits into a scenario that
# checks and runs; malformed traces exit 3 naming the event; --classify,
# --ruby, --report, atomic output; the closed loop (a trace of `gvlsim run
# --trace`, imported and re-run, gives the same totals); an imported
# scenario takes --set and sweeps like any other.
set -u
bin=$1
. tests/e2e/lib.inc
data=tests/data/gvl-tracing
mach="--machines scenarios/machines"

# -- every real trace imports, checks and runs
for f in "$data"/*.json.gz; do
    b=$(basename "$f" .json.gz)
    # shellcheck disable=SC2086
    run import gvl-tracing "$f" -o "$tmp/$b.json" --machine report_m4 $mach
    expect_code 0 "import $b"
    expect_match err "^$f: gvl-tracing trace, " "import $b summary"
    expect_match err "^  waits: [0-9]+ io \\(fixed length\\), [0-9]+ sync and [0-9]+ join" "import $b waits"
    # shellcheck disable=SC2086
    run check "$tmp/$b.json" $mach
    expect_code 0 "check imported $b"
    # shellcheck disable=SC2086
    run run "$tmp/$b.json" $mach -q --reproducible
    expect_code 0 "run imported $b"
done

# -- what each trace is made of (the classification of bug #19717's pair)
run import gvl-tracing "$data/ping-pong-3_2.json.gz" -q --report "$tmp/pp.csv" -o "$tmp/pp.json"
expect_code 0 "import with --report"
checks=$((checks + 1))
[ "$(head -1 "$tmp/pp.csv")" = "thread,tid,ractor,segment,event,state,start_s,dur_s,wait,class,rule,waker,gap_s" ] ||
    fail "report header: $(head -1 "$tmp/pp.csv")"
checks=$((checks + 1))
n=$(grep -c ',waiting,' "$tmp/pp.csv")
[ "$n" -eq 893 ] || fail "report: $n waiting segments, expected 893"
checks=$((checks + 1))
n=$(grep -c ',waiting,.*,sync,' "$tmp/pp.csv")
[ "$n" -ge 880 ] || fail "report: only $n waits woken by another thread (the condvar waits of the repro)"
# the workers' waits are woken by the thread holding the resource: queue pops in the scenario
checks=$((checks + 1))
grep -q '"op":"queue_pop","trace":"e[0-9]* waiting\[0\] sync: ' "$tmp/pp.json" || fail "no sync pop in the scenario"
# main's last wait is a join of the last worker (Thread#join: the op join of that thread)
checks=$((checks + 1))
grep -q '"op":"join","trace":"e[0-9]* waiting\[0\] join: [^"]*","thread":"' "$tmp/pp.json" ||
    fail "main's final wait is not a join"
# threads created while tracing are spawned by their creator; gc states are gc ops, replayed
# as collections of their length (state gc, counted)
checks=$((checks + 1))
grep -q '"spawned": true' "$tmp/gc.json" && grep -q '"op":"spawn","trace":"creates ' "$tmp/gc.json" ||
    fail "gc: no spawned thread"
ngc=$(grep -c '"op":"gc"' "$tmp/gc.json")
# shellcheck disable=SC2086
run run "$tmp/gc.json" $mach -q --reproducible
expect_code 0 "run imported gc"
checks=$((checks + 1))
col=$(head -1 "$tmp/out" | tr , '\n' | grep -n '^gc_count$' | cut -d: -f1)
[ "$ngc" -gt 0 ] && [ "$(tail -1 "$tmp/out" | cut -d, -f"$col")" = "$ngc" ] ||
    fail "gc: $ngc gc ops, gc_count $(tail -1 "$tmp/out" | cut -d, -f"$col")"

# -- stdout by default, valid JSON, and the same bytes every time
run import gvl-tracing "$data/example2.json.gz" -q
expect_code 0 "import to stdout"
checks=$((checks + 1))
"$bin" import gvl-tracing "$data/example2.json.gz" -q | cmp -s - "$tmp/out" || fail "two imports differ"
checks=$((checks + 1))
grep -q '"name": "example2",' "$tmp/out" || fail "scenario name"

# -- the Ruby version: from the trace (gvl-tracing 1.5+), or --ruby, which may not contradict it
printf '%s\n' '[' \
    '{"ph": "M", "pid": 3, "name": "process_name", "args": {"name": "Ruby threads view (3.4.1, 20ms)"}},' \
    '{"ph": "E", "pid": 3, "tid": 0, "ts": 1.0},' \
    '{"ph": "B", "pid": 3, "tid": 0, "ts": 1.0, "name": "started_tracing"},' \
    '{"ph": "E", "pid": 3, "tid": 0, "ts": 50.0},' \
    '{"ph": "B", "pid": 3, "tid": 0, "ts": 50.0, "name": "stopped_tracing"}' ']' >"$tmp/v.json"
run import gvl-tracing "$tmp/v.json" -o "$tmp/v_scn.json"
expect_code 0 "import with a version"
expect_line err "  Ruby 3.4.1 (from the trace)" "version from the trace"
checks=$((checks + 1))
grep -q '"quantum":"20ms"' "$tmp/v_scn.json" || fail "RUBY_THREAD_TIMESLICE from the trace"
run import gvl-tracing "$tmp/v.json" --ruby 3.4 -q -o "$tmp/v2.json"
expect_code 0 "--ruby agreeing with the trace"
run import gvl-tracing "$tmp/v.json" --ruby 3.2 -o "$tmp/v3.json"
expect_code 2 "--ruby contradicting the trace"
expect_match err "--ruby 3.2: the trace says it was recorded on Ruby 3.4.1" "--ruby conflict message"
run import gvl-tracing "$data/example2.json.gz" --ruby 3.2 -o "$tmp/v4.json"
expect_line err "  Ruby 3.2 (--ruby)" "version from --ruby"

# -- --classify: a wait the user knows to be I/O, and overrides that name nothing
run import gvl-tracing "$data/example2.json.gz" -o "$tmp/c.json" --classify "Main Thread:0=io"
expect_code 0 "--classify io"
checks=$((checks + 1))
grep -q 'waiting\[0\] io: --classify' "$tmp/c.json" || fail "--classify io not applied"
run import gvl-tracing "$data/example2.json.gz" -o "$tmp/c.json" --classify "nobody:0=io"
expect_code 3 "--classify naming no thread"
expect_match err "no thread of that name or tid" "--classify message"
run import gvl-tracing "$data/example2.json.gz" -o "$tmp/c.json" --classify "Main Thread=io"
expect_code 2 "--classify syntax"
run import gvl-tracing "$data/example2.json.gz" -o "$tmp/c.json" --classify "Main Thread:0=later"
expect_code 2 "--classify class"

# -- malformed traces: exit 3, the event named, nothing written
for case in "truncated.json.gz|the gzip stream is truncated: it ends inside event 93" \
            "corrupt.json.gz|corrupt gzip data after 404 compressed bytes" \
            "not_closed.json|the JSON is not closed: it ends inside event 131" \
            "unbalanced.json|event 2 (tid 1): B \"waiting\" while \"started_tracing\" (event 1) is still open" \
            "close_nothing.json|event 3 (tid 1): an E event closes nothing" \
            "backwards.json|event 2 (tid 1): time goes backwards" \
            "unknown_state.json|event 3 (tid 1): unknown state \"blocked_on_io\"" \
            "unknown_phase.json|event 2: phase \"X\" is not part of a gvl-tracing trace"; do
    f=${case%%|*} msg=${case#*|}
    run import gvl-tracing "tests/bad/14-traces/$f" -o "$tmp/bad.json"
    expect_code 3 "malformed $f"
    expect_lines err 1 "malformed $f: one message"
    checks=$((checks + 1))
    grep -qF -- "$msg" "$tmp/err" || fail "malformed $f: no \"$msg\""
    checks=$((checks + 1))
    [ ! -e "$tmp/bad.json" ] || fail "malformed $f: a scenario was written"
done
run import gvl-tracing "$tmp/none.json"
expect_code 5 "missing trace"
run import perfetto "$data/example2.json.gz"
expect_code 2 "unknown format"

# -- the closed loop: a trace of `gvlsim run --trace`, imported and re-run under the same
#    policy and machine, gives the same totals (within 3%: the replay pays the model's
#    per-op costs again, on top of recorded lengths that contain them)
for pol in eager barging; do
    # shellcheck disable=SC2086
    run run tests/data/import_closed.json --set runtime.gvl_policy=$pol -q --reproducible \
        --trace "$tmp/cl.trace.json.gz" -o "$tmp/cl_a.csv"
    expect_code 0 "closed loop $pol: traced run"
    run import gvl-tracing "$tmp/cl.trace.json.gz" -o "$tmp/cl.json" --machine report_m4 $mach
    expect_code 0 "closed loop $pol: import"
    expect_match err "^  waits: [0-9]+ io \\(fixed length\\), [0-9]+ sync and [0-9]+ join \\(ended by another thread\\)" \
        "closed loop $pol: waits"
    # shellcheck disable=SC2086
    run run "$tmp/cl.json" $mach --set runtime.gvl_policy=$pol --set machine.cores=2 -q --reproducible -o "$tmp/cl_b.csv"
    expect_code 0 "closed loop $pol: re-run"
    # the state totals within 3% (gvlsim compare), whatever the switch counts
    run compare "$tmp/cl_a.csv" "$tmp/cl_b.csv" --key policy,cores --ignore scenario --tolerance '*=100000%' \
        --tolerance wall_s=3% --tolerance running_s=3% --tolerance wants_gvl_s=3% --tolerance blocking_s=3% \
        --tolerance sleeping_s=1% --tolerance gc_s=3%
    expect_code 0 "closed loop $pol: the replay's totals against the traced run's"
    # the same trace without its core tracks, as a gvl-tracing trace is: each sleep and
    # off-CPU wait then ends where the thread ran again and holds its wake-up, which the
    # import takes out (one wake_idle_core of report_m4) and the replay adds back; kept in,
    # the replay's sleeps were 6.5% long and its I/O waits 11%
    zcat "$tmp/cl.trace.json.gz" | grep -v '"cat":"core"' >"$tmp/cl.bare.json"
    run import gvl-tracing "$tmp/cl.bare.json" -o "$tmp/cl_bare.json" --machine report_m4 $mach
    expect_code 0 "closed loop $pol, no core tracks: import"
    expect_match err "sleeps and off-CPU I/O waits: [0-9]+, each less the machine's wake-up of an idle core \\(12us\\)" \
        "closed loop $pol, no core tracks: the wake-ups taken out"
    # shellcheck disable=SC2086
    run run "$tmp/cl_bare.json" $mach --set runtime.gvl_policy=$pol --set machine.cores=2 -q --reproducible \
        -o "$tmp/cl_c.csv"
    expect_code 0 "closed loop $pol, no core tracks: re-run"
    run compare "$tmp/cl_a.csv" "$tmp/cl_c.csv" --key policy,cores --ignore scenario --tolerance '*=100000%' \
        --tolerance wall_s=3% --tolerance running_s=3% --tolerance wants_gvl_s=3% --tolerance blocking_s=3% \
        --tolerance sleeping_s=1% --tolerance gc_s=3%
    expect_code 0 "closed loop $pol, no core tracks: the replay's totals against the traced run's"
done

# -- a long trace: 261k events (2.4M JSON values, beyond a scenario's bound of 1M: the
#    importer's bound follows the events it counted, the imported scenario's its size),
#    imported and re-run within 3%
# shellcheck disable=SC2086
run run scenarios/queue_pingpong.json --set ractors.0.threads.0.program.0.times=1500 \
    --set ractors.0.threads.1.program.0.times=7500 -q --reproducible --trace "$tmp/long.trace.json.gz" -o "$tmp/long_a.csv"
expect_code 0 "long trace: traced run"
run import gvl-tracing "$tmp/long.trace.json.gz" -o "$tmp/long.json" --machine report_m4 $mach
expect_code 0 "long trace: import"
expect_match err "gvlsim trace, .*, 261437 events" "long trace: its events"
# shellcheck disable=SC2086
run run "$tmp/long.json" $mach --set runtime.gvl_policy=eager --set machine.cores=2 -q --reproducible -o "$tmp/long_b.csv"
expect_code 0 "long trace: re-run"
run compare "$tmp/long_a.csv" "$tmp/long_b.csv" --key policy,cores --ignore scenario --tolerance '*=100000%' \
    --tolerance wall_s=3% --tolerance wants_gvl_s=3% --tolerance parked_s=3%
expect_code 0 "long trace: the replay's totals against the traced run's"

# -- what-if: an imported scenario takes --set and sweeps like any other
# shellcheck disable=SC2086
run run "$tmp/ping-pong-3_3.json" $mach --set runtime.gvl_policy=hot_steal --set machine.cores=8 -q
expect_code 0 "what-if run"
expect_match out "^ping-pong-3_3,sim,native,hot_steal,none,none,8,1,4," "what-if row"
# shellcheck disable=SC2086
run sweep "$tmp/example4.json" $mach --param runtime.gvl_policy=eager,barging --param machine.cores=1,2 -j 2 -q
expect_code 0 "sweep of an imported scenario"
expect_lines out 5 "sweep rows"

finish import_cmd.sh
