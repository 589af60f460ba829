#!/bin/sh
# sweep_cmd.sh BINARY - `gvlsim sweep`: the grid and its CSV columns, rows
# equal to `gvlsim run` of the same point, seeds, byte-identical output for
# -j 1 and -j 4, failing points reported without losing the others (exit
# code = the worst), progress on stderr, usage errors.
set -u
bin=$1
. tests/e2e/lib.inc
small="--set ractors.0.threads.1.program.0.times_total=2000"
grid="--param ractors.0.threads.1.count=1,2,8 --param machine.cores=1,2,8"

# -- -j 1 and -j 4 give the same bytes (9 points x 2 seeds)
# shellcheck disable=SC2086
run sweep scenarios/mtime_loop.json $small $grid --seeds 2 -j 1 --reproducible -q -o "$tmp/j1.csv"
expect_code 0 "sweep -j 1"
expect_empty err "sweep -q"
# shellcheck disable=SC2086
run sweep scenarios/mtime_loop.json $small $grid --seeds 2 -j 4 --reproducible -q -o "$tmp/j4.csv"
expect_code 0 "sweep -j 4"
checks=$((checks + 1))
cmp -s "$tmp/j1.csv" "$tmp/j4.csv" || fail "-j 1 and -j 4 gave different CSVs"
checks=$((checks + 1))
[ "$(wc -l <"$tmp/j1.csv")" -eq 19 ] || fail "expected a header and 18 rows, got $(wc -l <"$tmp/j1.csv") lines"
checks=$((checks + 1))
head -1 "$tmp/j1.csv" | grep -q '^point,rep,ractors\.0\.threads\.1\.count,machine\.cores,scenario,backend,engine,policy,' ||
    fail "sweep header: $(head -1 "$tmp/j1.csv")"
# grid order: first --param slowest, seeds innermost
checks=$((checks + 1))
got=$(tail -n +2 "$tmp/j1.csv" | cut -d, -f1-4 | tr '\n' ' ')
want="0,0,1,1 0,1,1,1 1,0,1,2 1,1,1,2 2,0,1,8 2,1,1,8 3,0,2,1 3,1,2,1 4,0,2,2 4,1,2,2 5,0,2,8 5,1,2,8 6,0,8,1 6,1,8,1 7,0,8,2 7,1,8,2 8,0,8,8 8,1,8,8 "
[ "$got" = "$want" ] || fail "grid order: $got"

# -- a point equals `gvlsim run` of it (rep 0 keeps the scenario's seed)
# shellcheck disable=SC2086
"$bin" run scenarios/mtime_loop.json $small --set ractors.0.threads.1.count=2 --set machine.cores=8 \
    --reproducible -q --no-header >"$tmp/one.csv"
checks=$((checks + 1))
grep '^5,0,2,8,' "$tmp/j1.csv" | cut -d, -f5- | cmp -s - "$tmp/one.csv" ||
    fail "sweep point 5 differs from gvlsim run of it"
# rep 1: another seed, the same for every point
checks=$((checks + 1))
seeds=$(awk -F, 'NR > 1 { print $2 ":" $14 }' "$tmp/j1.csv" | sort -u | tr '\n' ' ')
case "$seeds" in
    "0:1 1:"[0-9]*" ") ;;
    *) fail "seeds per replicate: $seeds" ;;
esac

# -- progress (stderr is not a TTY here): a line per tenth, then a summary
# shellcheck disable=SC2086
run sweep scenarios/mtime_loop.json $small $grid -j 2 -o "$tmp/p.csv"
expect_code 0 "sweep progress"
expect_match err '^sweep: 9/9 runs \(100%\), 0 failed, [0-9.]+ s$' "progress line"
expect_match err '^sweep: 9 runs \(9 points x 1 seed\), 0 failed, 2 workers, [0-9.]+ s$' "summary"
checks=$((checks + 1))
[ "$(grep -c '^sweep: [0-9]*/9 runs' "$tmp/err")" -eq 9 ] || fail "expected 9 progress lines: $(cat "$tmp/err")"
checks=$((checks + 1))
tail -n 1 "$tmp/p.csv" | grep -qv ',$' || fail "without --reproducible host_s should be filled"

# -- failing points: reported, the others kept, exit = the worst code
tok="scenarios/examples/token_pingpong.json --set ractors.0.threads.0.program.0.times=50"
# shellcheck disable=SC2086
run sweep $tok --param ractors.0.threads.1.program.0.times=50,49 --param runtime.gvl_policy=eager,nosuch \
    -q -o "$tmp/f.csv"
expect_code 4 "failing points"
expect_match err '^gvlsim sweep: run 1 \(point 1, rep 0: ractors\.0\.threads\.1\.program\.0\.times=50 runtime\.gvl_policy=nosuch\) failed:$' "invalid value reported"
expect_match err 'unknown gvl_policy|nosuch' "invalid value: loader message"
expect_match err '^gvlsim sweep: run 2 \(point 2, rep 0: ractors\.0\.threads\.1\.program\.0\.times=49 runtime\.gvl_policy=eager\) failed:$' "deadlock reported"
expect_match err '^  .*deadlock at ' "deadlock: message"
checks=$((checks + 1))
[ "$(cut -d, -f1 "$tmp/f.csv" | tr '\n' ' ')" = "point 0 " ] || fail "only point 0 should be in the CSV: $(cat "$tmp/f.csv")"
# shellcheck disable=SC2086
run sweep $tok --set ractors.0.threads.1.program.0.times=50 --param runtime.gvl_policy=eager,nosuch -q -o "$tmp/g.csv"
expect_code 3 "an invalid value alone: exit 3"

# -- the scenario itself invalid or missing: nothing runs, no output
run sweep tests/data/bad/queue_pingpong.json --param machine.cores=1,2 -o "$tmp/bad.csv"
expect_code 3 "invalid scenario"
checks=$((checks + 1))
[ ! -e "$tmp/bad.csv" ] || fail "invalid scenario: an output file was written"
run sweep "$tmp/nope.json" --param machine.cores=1,2
expect_code 5 "missing scenario"
# shellcheck disable=SC2086
run sweep scenarios/mtime_loop.json $small --param machine.cores=1 -o "$tmp/nodir/x.csv"
expect_code 5 "unwritable output"

# -- a device as output is written in place, not replaced
# shellcheck disable=SC2086
run sweep scenarios/mtime_loop.json $small --param machine.cores=1,2 -q -o /dev/null
expect_code 0 "sweep -o /dev/null"
checks=$((checks + 1))
[ -c /dev/null ] || fail "/dev/null is no longer a character device"

# -- usage errors
run sweep scenarios/mtime_loop.json --param machine.cores
expect_code 2 "--param without ="
run sweep scenarios/mtime_loop.json --param machine.cores=1,,2
expect_code 2 "empty value"
run sweep scenarios/mtime_loop.json --param machine.cores=1 --param machine.cores=2
expect_code 2 "repeated key"
run sweep scenarios/mtime_loop.json --seeds 0
expect_code 2 "--seeds 0"
run sweep scenarios/mtime_loop.json -j 0
expect_code 2 "-j 0"
run sweep --param machine.cores=1
expect_code 2 "no scenario"
run sweep scenarios/mtime_loop.json --trace x.json
expect_code 2 "unknown option"

# -- a failed run's report escapes the --param values it quotes (no raw
#    escape sequence reaches the terminal)
esc=$(printf '\033')
run sweep scenarios/mtime_loop.json --param "runtime.gvl_policy=eager,bad${esc}x" -q
expect_code 3 "a point whose scenario is invalid"
expect_match err 'runtime.gvl_policy=bad\\x1bx\) failed' "escaped value in the failure report"
checks=$((checks + 1))
! grep -q "$esc" "$tmp/err" || fail "raw ESC in the failure report"

finish sweep_cmd.sh
