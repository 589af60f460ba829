#!/bin/sh
# compare_cmd.sh BINARY - `gvlsim compare`: exit 0 when nothing moved, 1 on
# a regression with a readable table, and an error class (with its own exit
# code) for each kind of bad input, never a silent pass; --update.
set -u
bin=$1
. tests/e2e/lib.inc
scn=scenarios/mtime_loop.json
small="--set ractors.0.threads.1.program.0.times_total=2000 --param machine.cores=1,2 --reproducible -q"
# shellcheck disable=SC2086
"$bin" sweep $scn $small -o "$tmp/base.csv"
# shellcheck disable=SC2086
"$bin" sweep $scn $small -o "$tmp/same.jsonl"
# shellcheck disable=SC2086
"$bin" sweep $scn $small --set machine.wake_idle_core=13us -o "$tmp/moved.csv"

run compare "$tmp/base.csv" "$tmp/base.csv"
expect_code 0 "a file against itself"
expect_line out "gvlsim compare $tmp/base.csv $tmp/base.csv: no change: 2 configurations, 35 metrics each" "no change"
run compare "$tmp/base.csv" "$tmp/same.jsonl"
expect_code 0 "CSV against the same rows in JSON Lines"

run compare "$tmp/base.csv" "$tmp/moved.csv"
expect_code 1 "a changed machine parameter is a regression"
expect_match out '^gvlsim compare .*: regression: [0-9]+ metrics beyond tolerance in 2 of 2 configurations$' "summary"
expect_match out '^  configuration +metric +base +new +change +tolerance$' "table header"
expect_match out '^  machine.cores=2 +wall_s +0\.[0-9]+ +0\.[0-9]+ +\+[0-9.]+% +exact$' "wall_s row"
run compare "$tmp/base.csv" "$tmp/moved.csv" --report markdown
expect_code 1 "markdown"
expect_match out '^### gvlsim compare: regression' "markdown heading"
expect_match out '^\| machine.cores=2 \| wall_s \| 0\.[0-9]+ \| 0\.[0-9]+ \| \+[0-9.]+% \| exact \|$' "markdown row"
run compare "$tmp/base.csv" "$tmp/moved.csv" --report json
expect_code 1 "json"
expect_match out '"regression":[[:space:]]*true' "json verdict"
run compare "$tmp/base.csv" "$tmp/moved.csv" --tolerance '*=150%'
expect_code 0 "a tolerance accepts the change"
expect_match out 'no regression: [0-9]+ metrics moved within tolerance' "within tolerance"
run compare "$tmp/base.csv" "$tmp/moved.csv" -q
expect_code 1 "quiet"
expect_empty out "quiet prints nothing"

# every error class: its own exit code and a message naming the file
printf 'point,rep,scenario\n0,0,"x\n' >"$tmp/bad.csv"
run compare "$tmp/base.csv" "$tmp/bad.csv"
expect_code 3 "malformed CSV"
expect_match err "bad.csv:2: malformed quoted field" "malformed CSV message"
printf '[{"point":0,"rep":0},\n{"point":01}]\n' >"$tmp/bad.json"
run compare "$tmp/bad.json" "$tmp/base.csv"
expect_code 3 "malformed JSON"
expect_match err "bad.json:2:10: not a JSON value" "malformed JSON message"
cut -d, -f1-20 "$tmp/base.csv" >"$tmp/narrow.csv"
run compare "$tmp/base.csv" "$tmp/narrow.csv"
expect_code 3 "different schemas"
expect_match err "have different columns \(only in .*base.csv: .*; only in .*narrow.csv: none\)" "schema message"
head -2 "$tmp/base.csv" >"$tmp/one.csv"
run compare "$tmp/base.csv" "$tmp/one.csv"
expect_code 3 "a configuration on one side only"
expect_match err "1 configuration on one side only" "one-side message"
expect_match err "only in .*base.csv \(line 3\): rep=0 machine.cores=2" "one-side names the configuration"
{ cat "$tmp/base.csv"; tail -1 "$tmp/base.csv"; } >"$tmp/dup.csv"
run compare "$tmp/dup.csv" "$tmp/base.csv"
expect_code 3 "a configuration twice"
expect_match err "dup.csv:3 and line 4: the same configuration twice" "duplicate message"
head -1 "$tmp/base.csv" >"$tmp/empty.csv"
run compare "$tmp/empty.csv" "$tmp/base.csv"
expect_code 3 "no rows"
run compare "$tmp/base.csv" "$tmp/nonexistent.csv"
expect_code 5 "unreadable file"
expect_match err "nonexistent.csv: cannot open" "unreadable message"
run compare "$tmp/base.csv" "$tmp"
expect_code 5 "a directory"
printf 'a\0b\n' >"$tmp/nul.csv"
run compare "$tmp/nul.csv" "$tmp/base.csv"
expect_code 3 "a NUL byte"
run compare "$tmp/base.csv" "$tmp/base.csv" --key nosuch
expect_code 2 "unknown --key column"
expect_match err "--key nosuch: no such column; the columns are: point rep" "key message"
run compare "$tmp/base.csv" "$tmp/base.csv" --tolerance wall_s=5
expect_code 0 "absolute tolerance"
run compare "$tmp/base.csv" "$tmp/base.csv" --tolerance wall_s=five
expect_code 2 "bad tolerance"
run compare "$tmp/base.csv" "$tmp/base.csv" --tolerance nosuch=5%
expect_code 2 "tolerance of an unknown column"
run compare "$tmp/base.csv" "$tmp/base.csv" --tolerance cores=5%
expect_code 2 "tolerance of a key column"
run compare "$tmp/base.csv" "$tmp/base.csv" --ignore nosuch
expect_code 2 "unknown --ignore column"
run compare "$tmp/base.csv"
expect_code 2 "one operand"

# --update: rewrites the baseline on purpose, exit 0, and says what changed
cp "$tmp/base.csv" "$tmp/upd.csv"
run compare "$tmp/upd.csv" "$tmp/moved.csv" --update
expect_code 0 "update"
expect_match out "regression: [0-9]+ metrics beyond tolerance" "update reports the changes"
expect_line out "gvlsim compare: $tmp/upd.csv rewritten from $tmp/moved.csv" "update says so"
checks=$((checks + 1))
cmp -s "$tmp/upd.csv" "$tmp/moved.csv" || fail "update did not copy NEW"
run compare "$tmp/new-base.csv" "$tmp/moved.csv" --update
expect_code 0 "update creates a missing baseline"
checks=$((checks + 1))
cmp -s "$tmp/new-base.csv" "$tmp/moved.csv" || fail "update did not create the baseline"
run compare "$tmp/one.csv" "$tmp/moved.csv" --update
expect_code 0 "update over a baseline of other configurations"
expect_match out "1 configuration on one side only" "update notes side-only configurations"
cp "$tmp/base.csv" "$tmp/keep.csv"
run compare "$tmp/keep.csv" "$tmp/bad.csv" --update
expect_code 3 "update from a malformed NEW"
checks=$((checks + 1))
cmp -s "$tmp/keep.csv" "$tmp/base.csv" || fail "a malformed NEW must not replace the baseline"

# measured rows: replicates compared by their medians within their spread
hdr=$(head -1 "$tmp/base.csv")
real_row() {  # REP SEED WALL (the columns found by name)
    { echo "$hdr"; tail -1 "$tmp/base.csv"; } | awk -F, -v OFS=, -v rep="$1" -v seed="$2" -v wall="$3" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { $col["rep"] = rep; $col["backend"] = "pthread"; $col["engine"] = "pthread"; $col["seed"] = seed
          $col["wall_s"] = wall; print }'
}
{ echo "$hdr"; real_row 0 1 1.00; real_row 1 5 1.10; real_row 2 9 0.90; } >"$tmp/rb.csv"
{ echo "$hdr"; real_row 0 1 1.05; real_row 1 5 1.07; real_row 2 9 1.06; } >"$tmp/rn.csv"
{ echo "$hdr"; real_row 0 1 1.50; real_row 1 5 1.52; } >"$tmp/rs.csv"
run compare "$tmp/rb.csv" "$tmp/rn.csv" --all
expect_code 0 "measured: within the replicates' spread"
expect_match out 'wall_s +1 +1\.06 +\+6\.00% +±20% \(spread\), within' "spread tolerance shown"
run compare "$tmp/rb.csv" "$tmp/rs.csv"
expect_code 1 "measured: beyond the spread"
expect_match out '\(3 vs 2 runs\)' "replicate counts shown"
finish compare_cmd.sh
