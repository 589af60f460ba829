#!/bin/sh
# bench_json.sh BINARY - the JSON `make bench` writes for benchmark-tracking
# CI (scripts/bench_json.sh; the format is docs/bench.md's): each file an
# array of {name, unit, value[, range][, extra]} objects, strict JSON
# (quotes and backslashes in names escaped, a leading "." given its zero),
# smaller and bigger figures in their two files, a value that is not a
# number refused, an empty file a valid empty array; and two runs' files
# compared by figure name with `gvlsim compare`.  Nothing is timed here.
set -u
bin=$1
. tests/e2e/lib.inc
(
    TMPDIR=$tmp
    . scripts/bench_json.sh
    bench_json_add smaller 'a "quoted" \ name' s 1.5 "1.4 .. 1.6" "host; 5 runs" || exit 1
    bench_json_add smaller "cost per event, 1024 cores / 8 cores" x 1.07 "1.02 .. 1.15" || exit 1
    bench_json_add bigger "engine alone: hold, 16 pending" "M events/s" .5 || exit 1
    bench_json_add smaller "not a number" s 12abc 2>"$tmp/refused" && exit 1
    bench_json_add sideways "x" s 1 2>>"$tmp/refused" && exit 1
    bench_json_write "$tmp/s.json" "$tmp/b.json"
) >"$tmp/out" 2>"$tmp/err"
code=$?
expect_code 0 "the writer"
checks=$((checks + 1))
[ "$(grep -c . "$tmp/refused")" -eq 2 ] || fail "a bad value and a bad direction are refused: $(cat "$tmp/refused")"
expect_match s.json '^  \{"name": "a \\"quoted\\" \\\\ name", "unit": "s", "value": 1.5, "range": "1.4 .. 1.6", "extra": "host; 5 runs"\},?$' "escaped name, every field"
expect_match b.json '^  \{"name": "engine alone: hold, 16 pending", "unit": "M events/s", "value": 0.5, "range": "", "extra": ""\}$' "a leading zero added, every key"
checks=$((checks + 1))
ls "$tmp" | grep -q '^gvlsim-bench\.' && fail "the writer's temporary file was left"
# the files are the rows gvlsim reads: strict JSON, one object per figure, names unique
run compare "$tmp/s.json" "$tmp/s.json" --key name
expect_code 0 "the smaller-is-better file read back"
expect_match out "no change: 2 configurations" "two figures, each once"
# two runs compared figure by figure, within a tolerance
sed 's/"value": 1.07/"value": 1.35/' "$tmp/s.json" >"$tmp/s2.json"
run compare "$tmp/s.json" "$tmp/s2.json" --key name --ignore range,extra --tolerance value=10%
expect_code 1 "a figure 26% worse"
expect_match out "cost per event, 1024 cores / 8 cores +value +1.07 +1.35 +\+26\.17% +±10%" "the figure named"
# no figure of a kind: an empty array, still valid JSON
(
    TMPDIR=$tmp
    . scripts/bench_json.sh
    bench_json_add smaller "only" s 1
    bench_json_write "$tmp/s3.json" "$tmp/b3.json"
) || fail "the writer with one kind only"
checks=$((checks + 1))
[ "$(cat "$tmp/b3.json")" = "[]" ] || fail "no bigger figure: expected [], got $(cat "$tmp/b3.json")"
finish bench_json.sh
