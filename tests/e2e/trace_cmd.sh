#!/bin/sh
# trace_cmd.sh BINARY - `gvlsim run --trace`: a golden trace of a tiny
# scenario, .gz = the same bytes compressed, the cap reported on stderr and
# in the file, atomic output (no file after an open or a write error), a
# trace of a failed run.  The structural checks (nesting, state sums equal
# to the CSV) are in tests/unit/test_trace.c.
set -u
bin=$1
. tests/e2e/lib.inc
tiny="tests/data/trace_tiny.json --machines scenarios/machines"

# -- golden: the tiny scenario's trace, byte for byte (a model change
#    changes it: regenerate with the command below and review the diff)
# shellcheck disable=SC2086
run run $tiny -q --reproducible --trace "$tmp/tiny.json" -o "$tmp/tiny.csv"
expect_code 0 "trace tiny"
expect_empty err "trace tiny -q"
checks=$((checks + 1))
cmp -s "$tmp/tiny.json" tests/golden/trace_tiny.trace.json ||
    fail "trace differs from tests/golden/trace_tiny.trace.json (gvlsim run $tiny --trace FILE)"

# -- .gz: gzip data that decompresses to the same trace
# shellcheck disable=SC2086
run run $tiny -q --reproducible --trace "$tmp/tiny.json.gz" -o "$tmp/tiny2.csv"
expect_code 0 "trace .gz"
checks=$((checks + 1))
gzip -dc "$tmp/tiny.json.gz" | cmp -s - "$tmp/tiny.json" || fail ".json.gz does not decompress to the .json trace"
checks=$((checks + 1))
cmp -s "$tmp/tiny.csv" "$tmp/tiny2.csv" || fail "tracing changed the CSV"
# tracing does not change the run: same CSV as without --trace
# shellcheck disable=SC2086
run run $tiny -q --reproducible
checks=$((checks + 1))
"$bin" run $tiny -q --reproducible --trace "$tmp/t3.json" | cmp -s - "$tmp/out" || fail "--trace changed the CSV row"

# -- the cap: reported on stderr (even with -q) and in the file
small="--set ractors.0.threads.1.program.0.times_total=2000 --set machine.cores=2"
# shellcheck disable=SC2086
run run scenarios/mtime_loop.json $small -q --trace "$tmp/cap.json" --trace-max-events 100
expect_code 0 "capped trace"
expect_match err '^gvlsim run: trace .*/cap\.json capped at 100 events \(--trace-max-events\): it stops at t=0\.[0-9]+ s; [0-9]+ later events were dropped$' "cap on stderr"
checks=$((checks + 1))
grep -q '"max_events":100,"events":\(100\|9[0-9]\),"dropped_events":[1-9][0-9]*,"truncated":true,"truncated_at_us":' "$tmp/cap.json" ||
    fail "cap not recorded in the trace metadata: $(tail -1 "$tmp/cap.json")"
checks=$((checks + 1))
[ "$(grep -c '^{"ph"' "$tmp/cap.json")" -le 100 ] || fail "more than 100 events in a trace capped at 100"
# shellcheck disable=SC2086
run run scenarios/mtime_loop.json $small --trace "$tmp/x.json" --trace-max-events 0
expect_code 2 "--trace-max-events 0"

# -- a trace that cannot be created: exit 5 before running, nothing written
# shellcheck disable=SC2086
run run $tiny --trace "$tmp/nodir/t.json" -o "$tmp/nodir.csv"
expect_code 5 "unwritable trace"
expect_match err 'nodir/t.json: cannot create output file' "unwritable trace"
checks=$((checks + 1))
[ ! -e "$tmp/nodir.csv" ] || fail "unwritable trace: a CSV was written"

# -- a write error part-way (file size limit): exit 5, no trace, no temp
#    file; plain and gzip
mkdir "$tmp/lim"
for name in big.json.gz big.json; do
    # shellcheck disable=SC2086
    (trap '' XFSZ; ulimit -f 40; exec "$bin" run scenarios/mtime_loop.json $small -q \
        --trace "$tmp/lim/$name" -o "$tmp/lim/x.csv") >"$tmp/out" 2>"$tmp/err"
    code=$?
    expect_code 5 "$name write error"
    expect_match err "$name: write error" "$name write error"
    checks=$((checks + 1))
    [ ! -e "$tmp/lim/$name" ] || fail "a partial trace was left in place"
    checks=$((checks + 1))
    [ -z "$(ls "$tmp/lim" | grep tmp)" ] || fail "a temporary trace file was left behind: $(ls "$tmp/lim")"
done

# -- a device as output is written in place, never renamed over (as root,
#    `-o /dev/null` used to replace /dev/null by a regular file)
# shellcheck disable=SC2086
run run $tiny -q -o /dev/null --trace /dev/null
expect_code 0 "-o /dev/null --trace /dev/null"
checks=$((checks + 1))
[ -c /dev/null ] || fail "/dev/null is no longer a character device"

# -- a failed run still gets its trace, up to the failure
run run tests/data/deadlock.json --trace "$tmp/dead.json" -o "$tmp/dead.csv"
expect_code 4 "deadlock traced"
expect_match err 'trace .*dead\.json written up to the failure' "deadlock traced"
checks=$((checks + 1))
grep -q '"name":"parked","pid":1,"tid":1,' "$tmp/dead.json" || fail "deadlock trace lacks main's parked slice"
checks=$((checks + 1))
[ ! -e "$tmp/dead.csv" ] || fail "deadlock wrote a CSV"

finish trace_cmd.sh
