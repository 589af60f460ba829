#!/bin/sh
# engines.sh BINARY - `--engine`: unknown names, the SimGrid engine in run
# and sweep (a process per point, the same rows as the native engine for any
# -j, failures reported alike), a missing plugin, a build without SimGrid,
# the event log, and the differential test's report of a divergence.
set -u
bin=$1
. tests/e2e/lib.inc
. tests/engines/lib.sh
small="--set ractors.0.threads.1.program.0.times_total=400"

run run tests/data/minimal.json --engine heap -q
expect_code 2 "unknown engine"
expect_match err '^gvlsim run: --engine: unknown value "heap" \(one of: native or simgrid\)' "unknown engine lists the engines"
run sweep tests/data/minimal.json --engine heap -q
expect_code 2 "sweep: unknown engine"

run run tests/data/minimal.json --engine simgrid -q -o "$tmp/sg.csv"
if [ "$code" -eq 7 ]; then
    # a build without SimGrid: exit 7, naming the package
    expect_match err 'engine "simgrid" is not supported by this build: install the Debian package libsimgrid-dev' \
        "no SimGrid: the message names the package"
    run sweep tests/data/minimal.json --engine simgrid -q
    expect_code 7 "sweep without SimGrid"
    finish engines.sh
fi
expect_code 0 "run --engine simgrid"
checks=$((checks + 1))
[ "$(cut -d, -f3 "$tmp/sg.csv" | tr '\n' ' ')" = "engine simgrid " ] || fail "the engine column: $(cat "$tmp/sg.csv")"

# -- sweep: one process per point, rows as on the native engine, for any -j
grid="--param machine.cores=1,2 --param runtime.gvl_policy=eager,barging --seeds 2"
for j in 1 3; do
    # shellcheck disable=SC2086
    run sweep scenarios/mtime_loop.json $small $grid --engine simgrid -j $j --reproducible -q -o "$tmp/sg$j.csv"
    expect_code 0 "sweep --engine simgrid -j $j"
    expect_empty err "sweep --engine simgrid -q"
done
# shellcheck disable=SC2086
run sweep scenarios/mtime_loop.json $small $grid -j 2 --reproducible -q -o "$tmp/native.csv"
checks=$((checks + 1))
cmp -s "$tmp/sg1.csv" "$tmp/sg3.csv" || fail "sweep --engine simgrid: -j 1 and -j 3 differ"
checks=$((checks + 1))
[ "$(wc -l <"$tmp/sg1.csv")" -eq 9 ] || fail "sweep --engine simgrid: expected 8 rows"
checks=$((checks + 1))
[ "$(grep -c ',simgrid,' "$tmp/sg1.csv")" -eq 8 ] || fail "sweep --engine simgrid: engine column"
checks=$((checks + 1))
csv_drop_engine_columns "$tmp/native.csv" >"$tmp/a"
csv_drop_engine_columns "$tmp/sg1.csv" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "sweep: simgrid rows differ from native ones: $(diff "$tmp/a" "$tmp/b" | head -4)"
# JSON and JSON Lines rows: the sweep's cells joined to the child's object
for f in json jsonl; do
    for e in native simgrid; do
        # shellcheck disable=SC2086
        run sweep scenarios/mtime_loop.json $small $grid --engine $e -j 2 --reproducible -q --format $f \
            -o "$tmp/$e.$f"
        expect_code 0 "sweep --engine $e --format $f"
    done
    checks=$((checks + 1))
    sed 's/"engine":"simgrid"/"engine":"native"/' "$tmp/simgrid.$f" | cmp -s - "$tmp/native.$f" ||
        fail "sweep --format $f: simgrid rows differ: $(sed 's/"engine":"simgrid"/"engine":"native"/' \
            "$tmp/simgrid.$f" | diff "$tmp/native.$f" - | head -4)"
done
checks=$((checks + 1))
[ "$(grep -c '"engine":"simgrid"' "$tmp/simgrid.jsonl")" -eq 8 ] || fail "sweep --format jsonl: 8 rows"
# without --reproducible the child's host_s is filled in
run sweep scenarios/mtime_loop.json $small --engine simgrid -q
expect_code 0 "sweep --engine simgrid, host_s"
checks=$((checks + 1))
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "host_s") n = i; next }
         !n || $n !~ /^[0-9.]+$/ { exit 1 }' "$tmp/out" || fail "sweep --engine simgrid: no host_s"

# -- failing points: the same messages and exit codes as in-process
for e in native simgrid; do
    run sweep tests/data/deadlock.json --param machine.cores=1,2 --param runtime.gvl_policy=eager,nosuch \
        --engine $e -j 2 -q -o "$tmp/fail_$e.csv"
    echo "$code" >"$tmp/code_$e"
    sort "$tmp/err" >"$tmp/err_$e"
done
expect_code 4 "sweep --engine simgrid with failing points"
checks=$((checks + 1))
cmp -s "$tmp/err_native" "$tmp/err_simgrid" ||
    fail "failure reports differ: $(diff "$tmp/err_native" "$tmp/err_simgrid" | head -6)"
checks=$((checks + 1))
grep -q 'deadlock at 0.000035792 s: 2 threads blocked' "$tmp/err_simgrid" || fail "the child's message is kept"
checks=$((checks + 1))
cmp -s "$tmp/code_native" "$tmp/code_simgrid" || fail "exit codes differ"

# -- the plugin is looked up beside the executable
mkdir "$tmp/alone" && cp "$bin" "$tmp/alone/gvlsim"
bin_saved=$bin
bin=$tmp/alone/gvlsim
run run tests/data/minimal.json --engine simgrid -q
expect_code 7 "no plugin beside the executable"
expect_match err 'cannot load gvlsim-simgrid\.so \(.*/alone/gvlsim-simgrid\.so: .*libsimgrid-dev' "missing plugin: the message"
bin=$bin_saved

# -- event logs: identical on both engines; a divergence is described
for e in native simgrid; do
    # shellcheck disable=SC2086
    GVLSIM_EVENT_LOG=$tmp/$e.log "$bin" run scenarios/mtime_loop.json $small --engine $e -q -o /dev/null
done
checks=$((checks + 1))
cmp -s "$tmp/native.log" "$tmp/simgrid.log" || fail "event logs differ between engines"
checks=$((checks + 1))
[ "$(wc -l <"$tmp/native.log")" -gt 100 ] || fail "event log too short"
checks=$((checks + 1))
head -1 "$tmp/native.log" | grep -qE '^1 [0-9]+ [^ ]+ o1$' || fail "event log line: $(head -1 "$tmp/native.log")"
# shellcheck disable=SC2086
GVLSIM_EVENT_LOG=$tmp/other.log "$bin" run scenarios/mtime_loop.json $small --set machine.wake_jitter=0.9 \
    --seed 5 -q -o /dev/null
first_divergence "$bin" "$tmp/native.log" "$tmp/other.log" >"$tmp/out"
expect_match out '^  first diverging event \(line [0-9]+ of the event logs\):' "divergence reported"
expect_match out '^    native:  event [0-9]+ at t=[0-9.]+ s \([0-9]+ ps\), handler [a-z_]+ \(.*\.c:[0-9]+\), object o[0-9]+$' \
    "divergence: time, handler (resolved) and object"
head -50 "$tmp/native.log" >"$tmp/short.log"
first_divergence "$bin" "$tmp/short.log" "$tmp/native.log" >"$tmp/out"
expect_match out 'short: +\(no event: the log ends here\)' "divergence: one log ends first"
run run tests/data/minimal.json -q -o /dev/null
GVLSIM_EVENT_LOG=/nonexistent/dir/log "$bin" run tests/data/minimal.json -q -o /dev/null 2>"$tmp/err"
code=$?
expect_code 5 "unwritable event log"
expect_match err 'event log /nonexistent/dir/log: ' "unwritable event log: the message"
finish engines.sh
