#!/bin/sh
# outputs.sh BINARY - all-or-nothing outputs: when one output of a run
# cannot be written none is committed, and an interrupted run or sweep
# leaves no temporary file and dies by its signal (exit 128 + N).
# Run from the repository root by tests/e2e/run.sh.
set -u
bin=$1
. tests/e2e/lib.inc

scn=scenarios/examples/token_pingpong.json

# -- the trace cannot be written: the CSV is not committed either
echo old >"$tmp/out.csv"
run run $scn -q -o "$tmp/out.csv" --trace /dev/full
expect_code 5 "trace to /dev/full"
expect_line err "gvlsim run: trace: /dev/full: write error: No space left on device" "trace to /dev/full"
checks=$((checks + 1))
[ "$(cat "$tmp/out.csv")" = old ] || fail "trace to /dev/full: the CSV was committed"

# -- the CSV cannot be written: the trace is not committed
run run $scn -q -o /dev/full --trace "$tmp/t.json"
expect_code 5 "CSV to /dev/full"
checks=$((checks + 1))
[ -z "$(ls "$tmp" | grep '^t\.json')" ] || fail "CSV to /dev/full: a trace file was left: $(ls "$tmp")"

# -- a run that fails by itself still writes its trace, up to the failure
run run tests/data/deadlock.json -q -o "$tmp/out.csv" --trace "$tmp/dl.json"
expect_code 4 "deadlock"
checks=$((checks + 1))
[ -s "$tmp/dl.json" ] && [ "$(cat "$tmp/out.csv")" = old ] || fail "deadlock: trace missing or CSV written"

# -- both outputs fine: both committed
run run $scn -q -o "$tmp/out.csv" --trace "$tmp/t.json.gz"
expect_code 0 "two outputs"
checks=$((checks + 1))
[ -s "$tmp/t.json.gz" ] && grep -q '^scenario,' "$tmp/out.csv" || fail "two outputs: not both written"

# -- interrupted: the temporary files go, the old outputs stay, the status
# is 128 + the signal.  A background job of a shell starts with SIGINT
# ignored, a shell under nohup with SIGHUP ignored (and then gvlsim leaves
# them so): env restores the defaults.
long="--set ractors.0.threads.0.program.0.times=100000000 --set ractors.0.threads.1.program.0.times=100000000"
interrupt() {  # interrupt SIGNAL STATUS WHAT COMMAND...: signal COMMAND once its temporary file exists
    sig=$1 want=$2 what=$3
    shift 3
    echo old >"$tmp/out.csv"
    rm -f "$tmp"/*.tmp.*
    # shellcheck disable=SC2086
    env --default-signal=INT,TERM,HUP "$bin" "$@" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    i=0
    while [ $i -lt 600 ] && ! ls "$tmp" | grep -q '\.tmp\.'; do
        sleep 0.05
        i=$((i + 1))
    done
    stop_job "$sig" $pid
    expect_code "$want" "$what"
    checks=$((checks + 1))
    [ -z "$(ls "$tmp" | grep '\.tmp\.')" ] || fail "$what: temporary files left: $(ls "$tmp")"
    checks=$((checks + 1))
    [ "$(cat "$tmp/out.csv")" = old ] || fail "$what: the old output was replaced"
}
# shellcheck disable=SC2086
interrupt INT 130 "run, SIGINT" run $scn $long -q -o "$tmp/out.csv" --trace "$tmp/t2.json.gz"
# shellcheck disable=SC2086
interrupt TERM 143 "run, SIGTERM" run $scn $long -q -o "$tmp/out.csv" --trace "$tmp/t3.json"
# shellcheck disable=SC2086
interrupt HUP 129 "sweep, SIGHUP" sweep $scn $long --param machine.cores=1,2 -j 1 -q -o "$tmp/out.csv"

finish "$script"
