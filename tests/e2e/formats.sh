#!/bin/sh
# formats.sh BINARY - the row encodings of run, exec and sweep: --format
# csv|json|jsonl or the output's suffix, what cannot be honoured refused
# before any work; JSON keys = the CSV header, in order, numbers as numbers,
# empty columns null; the same values as the CSV.
# real-threads: one gvlsim exec (`make test` runs such scripts with nothing else at work: tests/e2e/run.sh)
set -u
bin=$1
. tests/e2e/lib.inc
scn="scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=200"

# keys FILE: the keys of the first JSON object of FILE, one per line
keys() {
    sed -n '/{/{p;q;}' "$1" | sed -E 's/"([^"]*)":/\n@@\1\n/g' | sed -n 's/^@@//p'
}
# value FILE KEY: the raw JSON value of KEY in the first object of FILE
value() {
    sed -n '/{/{p;q;}' "$1" | sed -E "s/.*\"$2\":(\"[^\"]*\"|\[[^]]*\]|[^,}]*).*/\1/"
}

# -- run: CSV by default, JSON and JSON Lines by suffix or --format
# shellcheck disable=SC2086
run run $scn -q --reproducible -o "$tmp/r.csv"
expect_code 0 "run -o .csv"
# shellcheck disable=SC2086
run run $scn -q --reproducible -o "$tmp/r.json"
expect_code 0 "run -o .json"
# shellcheck disable=SC2086
run run $scn -q --reproducible --format jsonl
expect_code 0 "run --format jsonl"
cp "$tmp/out" "$tmp/r.jsonl"
checks=$((checks + 1))
[ "$(sed -n 1p "$tmp/r.json")" = "[" ] && [ "$(sed -n 3p "$tmp/r.json")" = "]" ] &&
    [ "$(wc -l <"$tmp/r.json")" -eq 3 ] || fail "JSON: not [ / one object / ]: $(cat "$tmp/r.json")"
checks=$((checks + 1))
[ "$(wc -l <"$tmp/r.jsonl")" -eq 1 ] && grep -q '^{.*}$' "$tmp/r.jsonl" || fail "JSON Lines: not one object"
checks=$((checks + 1))
[ "$(sed -n 2p "$tmp/r.json")" = "$(cat "$tmp/r.jsonl")" ] || fail "the JSON and JSON Lines objects differ"
# keys: the CSV header, in order
head -1 "$tmp/r.csv" | tr ',' '\n' >"$tmp/header"
keys "$tmp/r.jsonl" >"$tmp/keys"
checks=$((checks + 1))
cmp -s "$tmp/header" "$tmp/keys" || fail "JSON keys differ from the CSV header: $(diff "$tmp/header" "$tmp/keys")"
# values: numbers unquoted and equal to the CSV's, text quoted, empty -> null
col() { head -1 "$tmp/r.csv" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
for k in cores threads seed wall_s cpu_s wants_gvl_s vol_switches ops_per_s engine_events; do
    want=$(sed -n 2p "$tmp/r.csv" | cut -d, -f"$(col $k)")
    checks=$((checks + 1))
    [ "$(value "$tmp/r.jsonl" $k)" = "$want" ] || fail "$k: JSON $(value "$tmp/r.jsonl" $k), CSV $want"
done
checks=$((checks + 1))
[ "$(value "$tmp/r.jsonl" scenario)" = '"mtime_loop"' ] || fail "scenario is not a JSON string"
checks=$((checks + 1))
[ "$(value "$tmp/r.jsonl" host_s)" = null ] || fail "--reproducible: host_s is not null"
checks=$((checks + 1))
[ "$(value "$tmp/r.jsonl" ractor_ops_per_s)" = "[$(sed -n 2p "$tmp/r.csv" | cut -d, -f"$(col ractor_ops_per_s)")]" ] ||
    fail "ractor_ops_per_s is not an array of the CSV's numbers"
# shellcheck disable=SC2086
run run $scn -q --format=json
checks=$((checks + 1))
value "$tmp/out" host_s | grep -qE '^[0-9]+\.[0-9]+$' || fail "host_s without --reproducible is not a number"
# other suffixes: --format decides, else CSV
# shellcheck disable=SC2086
run run $scn -q -o "$tmp/r.txt" --format jsonl
checks=$((checks + 1))
grep -q '^{"scenario":"mtime_loop",' "$tmp/r.txt" || fail "-o x.txt --format jsonl"
# shellcheck disable=SC2086
run run $scn -q -o "$tmp/r.ndjson"
checks=$((checks + 1))
grep -q '^{"scenario":"mtime_loop",' "$tmp/r.ndjson" || fail "-o x.ndjson is JSON Lines"

# -- what cannot be honoured: refused before running, nothing written
for args in "-o $tmp/x.json --format csv" "-o $tmp/x.jsonl --format json" "-o $tmp/x.csv --format jsonl" \
            "--format json --no-header" "-o $tmp/x.jsonl --no-header"; do
    # shellcheck disable=SC2086
    run run $scn $args
    expect_code 2 "run $args"
    expect_empty out "run $args"
done
expect_line err 'gvlsim run: --no-header applies to CSV only (the output is jsonl)' "--no-header with JSON Lines"
# shellcheck disable=SC2086
run sweep $scn --param machine.cores=1,2 -o "$tmp/x.json" --format csv
expect_code 2 "sweep -o x.json --format csv"
expect_line err "gvlsim sweep: the output $tmp/x.json is named as JSON, but --format csv was given" "suffix vs --format"
checks=$((checks + 1))
[ -z "$(ls "$tmp" | grep '^x\.')" ] || fail "a refused format left a file: $(ls "$tmp")"

# -- sweep: the same rows in the three encodings, grid columns first
grid="--param machine.cores=1,2 --param runtime.gvl_policy=eager,barging --seeds 2"
# shellcheck disable=SC2086
run sweep $scn $grid -q -j 2 --reproducible -o "$tmp/s.csv"
expect_code 0 "sweep csv"
# shellcheck disable=SC2086
run sweep $scn $grid -q -j 2 --reproducible -o "$tmp/s.jsonl"
expect_code 0 "sweep jsonl"
# shellcheck disable=SC2086
run sweep $scn $grid -q -j 1 --reproducible --format json -o "$tmp/s.out"
expect_code 0 "sweep json"
checks=$((checks + 1))
[ "$(wc -l <"$tmp/s.jsonl")" -eq 8 ] || fail "sweep jsonl: $(wc -l <"$tmp/s.jsonl") lines for 8 runs"
checks=$((checks + 1))
[ "$(head -1 "$tmp/s.out")" = "[" ] && [ "$(tail -1 "$tmp/s.out")" = "]" ] &&
    [ "$(grep -c '^{.*},$' "$tmp/s.out")" -eq 7 ] && [ "$(grep -c '^{.*}$' "$tmp/s.out")" -eq 1 ] ||
    fail "sweep json: not [ 8 objects separated by commas ]"
checks=$((checks + 1))
sed -n '2,9p' "$tmp/s.out" | sed 's/,$//' | cmp -s - "$tmp/s.jsonl" || fail "sweep: JSON and JSON Lines rows differ"
checks=$((checks + 1))
head -1 "$tmp/s.jsonl" | grep -q '^{"point":0,"rep":0,"machine.cores":1,"runtime.gvl_policy":"eager","scenario":"mtime_loop",' ||
    fail "sweep jsonl: grid columns (numbers as numbers, text as strings): $(head -1 "$tmp/s.jsonl")"
head -1 "$tmp/s.csv" | tr ',' '\n' >"$tmp/sheader"
keys "$tmp/s.jsonl" >"$tmp/skeys"
checks=$((checks + 1))
cmp -s "$tmp/sheader" "$tmp/skeys" || fail "sweep: JSON keys differ from the CSV header"
# every row's wall time equal in CSV and JSON Lines
checks=$((checks + 1))
tail -n +2 "$tmp/s.csv" | cut -d, -f16 >"$tmp/w.csv"
sed -E 's/.*"wall_s":([^,]*),.*/\1/' "$tmp/s.jsonl" >"$tmp/w.jsonl"
[ "$(head -1 "$tmp/s.csv" | cut -d, -f16)" = wall_s ] && cmp -s "$tmp/w.csv" "$tmp/w.jsonl" ||
    fail "sweep: wall_s differs between CSV and JSON Lines"
# a sweep whose every run fails still writes a valid (empty) JSON array
run sweep scenarios/mtime_loop.json --param runtime.gvl_policy=nosuch -q -o "$tmp/none.json"
expect_code 3 "sweep, every run failed"
checks=$((checks + 1))
[ "$(cat "$tmp/none.json")" = "$(printf '[\n]')" ] || fail "empty JSON sweep: $(cat "$tmp/none.json")"

# -- exec: the same encodings (a tiny scenario on real threads)
run exec --max-spread 1000 scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=50 \
    --set machine.cores=1 -q -o "$tmp/e.jsonl"
expect_code 0 "exec -o .jsonl"
checks=$((checks + 1))
grep -q '^{"scenario":"mtime_loop","backend":"pthread","engine":"pthread",.*"ops":50,.*"line_transfers":null,.*"engine_events":null,' "$tmp/e.jsonl" ||
    fail "exec JSON Lines: $(cat "$tmp/e.jsonl")"

finish formats.sh
