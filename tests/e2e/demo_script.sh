#!/bin/sh
# demo_script.sh BINARY - scripts/demo.sh on a small list: a sweep CSV per
# line, a plot where asked (.gp always, .png with gnuplot), a line naming a
# missing scenario skipped with a note, quoted plot arguments, the traces,
# and a non-zero exit when a sweep fails.
set -u
bin=$1
. tests/e2e/lib.inc
cat >"$tmp/list.txt" <<'EOF2'
# a comment, then a blank line

tok | scenarios/examples/token_pingpong.json | --param machine.cores=1,2 --set ractors.0.threads.0.program.0.times=100 --set ractors.0.threads.1.program.0.times=100 | --x cores --y wall_s --title "token ping-pong: wall vs cores"
later | scenarios/not_there_yet.json | --param machine.cores=1,2 |
EOF2
GVLSIM_DEMO_LIST="$tmp/list.txt" sh scripts/demo.sh "$bin" "$tmp/d1" >"$tmp/out" 2>"$tmp/err"
code=$?
expect_code 0 "demo on a small list"
expect_line out "demo: later: scenarios/not_there_yet.json does not exist here, skipped" "missing scenario skipped"
for f in tok.csv tok.gp queue_pingpong_2core.trace.json.gz mtime_loop_8threads_2core.trace.json.gz \
         queue_pingpong_2core.trace.csv mtime_loop_8threads_2core.trace.csv; do
    checks=$((checks + 1))
    [ -s "$tmp/d1/$f" ] || fail "demo did not write $f"
    expect_line out "  $tmp/d1/$f" "demo lists $f"
done
# and it lists every file it wrote
for f in "$tmp"/d1/*; do
    expect_line out "  $f" "demo lists $(basename "$f")"
done
checks=$((checks + 1))
[ "$(wc -l <"$tmp/d1/tok.csv")" -eq 3 ] || fail "tok.csv: expected a header and 2 rows"
checks=$((checks + 1))
grep -qxF "set title 'token ping-pong: wall vs cores'" "$tmp/d1/tok.gp" || fail "quoted plot argument not kept"
if command -v gnuplot >/dev/null 2>&1; then
    checks=$((checks + 1))
    [ -s "$tmp/d1/tok.png" ] || fail "demo did not write tok.png"
fi

# a failing sweep makes the demo fail, after the rest has run
echo "dead | tests/data/deadlock.json | --param machine.cores=1,2 |" >>"$tmp/list.txt"
GVLSIM_DEMO_LIST="$tmp/list.txt" sh scripts/demo.sh "$bin" "$tmp/d2" >"$tmp/out" 2>"$tmp/err"
code=$?
expect_code 1 "demo with a failing sweep"
expect_match err '^demo: dead: the sweep failed' "failing sweep reported"
checks=$((checks + 1))
[ -s "$tmp/d2/tok.csv" ] || fail "the other sweeps should still run"

finish demo_script.sh
