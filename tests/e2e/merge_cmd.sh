#!/bin/sh
# merge_cmd.sh BINARY - `sweep --shard K/N`, `sweep --emit-jobs slurm` (the
# script run task by task, as Slurm would) and `gvlsim merge`: the merged
# shards equal the single-process sweep byte for byte; a missing or
# duplicated run, shards of different sweeps and bad options are refused.
set -u
bin=$1
. tests/e2e/lib.inc
sweep="sweep scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=2000
       --param machine.cores=1,2 --param runtime.gvl_policy=eager,hot_steal,delayed --seeds 2
       --reproducible -q"
# shellcheck disable=SC2086
"$bin" $sweep -o "$tmp/full.csv" || fail "the whole sweep"
# shellcheck disable=SC2086
"$bin" $sweep -o "$tmp/full.jsonl" || fail "the whole sweep in JSON Lines"

# shards by hand, merged in any order
for k in 1 2 3 4 5; do
    # shellcheck disable=SC2086
    "$bin" $sweep --shard "$k/5" -o "$tmp/s$k.csv" || fail "shard $k/5"
done
checks=$((checks + 1))
[ "$(wc -l <"$tmp/s1.csv")" -eq 4 ] || fail "shard 1/5 of 12 runs: expected a header and 3 rows"
run merge "$tmp/s3.csv" "$tmp/s1.csv" "$tmp/s5.csv" "$tmp/s2.csv" "$tmp/s4.csv" -o "$tmp/m.csv" --points 6 --seeds 2
expect_code 0 "merge"
expect_line err "merge: 12 rows (6 points x 2 seeds) from 5 files" "merge summary"
checks=$((checks + 1))
cmp -s "$tmp/m.csv" "$tmp/full.csv" || fail "merged shards differ from the whole sweep"
run merge "$tmp/s1.csv" "$tmp/s2.csv" "$tmp/s3.csv" "$tmp/s4.csv" "$tmp/s5.csv" -o "$tmp/m.jsonl" -q
expect_code 0 "merge CSV shards into JSON Lines"
checks=$((checks + 1))
cmp -s "$tmp/m.jsonl" "$tmp/full.jsonl" || fail "CSV shards merged as JSON Lines differ from the JSON Lines sweep"
# shards of more shares than runs: some are empty, still valid
# shellcheck disable=SC2086
"$bin" $sweep --shard 13/20 -o "$tmp/empty.csv" || fail "an empty shard"
checks=$((checks + 1))
[ "$(wc -l <"$tmp/empty.csv")" -eq 1 ] || fail "an empty shard holds the header only"

# refused: missing, duplicated, outside, different columns, not a sweep
run merge "$tmp/s1.csv" "$tmp/s2.csv" "$tmp/s3.csv" "$tmp/s4.csv" -o "$tmp/x.csv"
expect_code 3 "a missing shard"
expect_match err "2 of 12 runs missing, the first point 2, rep 0" "missing message"
checks=$((checks + 1))
[ ! -e "$tmp/x.csv" ] || fail "a refused merge wrote its output"
run merge "$tmp/s1.csv" "$tmp/s2.csv" "$tmp/s3.csv" "$tmp/s4.csv" "$tmp/s5.csv" --points 7 -o "$tmp/x.csv"
expect_code 3 "a missing last point (--points)"
expect_match err "2 of 14 runs missing, the first point 6, rep 0" "missing last point"
run merge "$tmp/s1.csv" "$tmp/s2.csv" "$tmp/s3.csv" "$tmp/s4.csv" "$tmp/s5.csv" --points 5 -o "$tmp/x.csv"
expect_code 3 "a point outside --points"
expect_match err "point 5, rep 0 is outside the sweep \(5 points x 2 seeds\)" "outside message"
run merge "$tmp/s1.csv" "$tmp/s2.csv" "$tmp/s3.csv" "$tmp/s4.csv" "$tmp/s5.csv" "$tmp/s2.csv" -o "$tmp/x.csv"
expect_code 3 "a duplicated shard"
expect_match err "point 0, rep 1 twice: .*s2.csv:2 and .*s2.csv:2" "duplicate message"
cut -d, -f1-10 "$tmp/s2.csv" >"$tmp/narrow.csv"
run merge "$tmp/s1.csv" "$tmp/narrow.csv" -o "$tmp/x.csv"
expect_code 3 "shards with different columns"
expect_match err "have different columns: not shards of one sweep" "columns message"
"$bin" run scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=2000 -q -o "$tmp/run.csv"
run merge "$tmp/run.csv" -o "$tmp/x.csv"
expect_code 3 "rows that are not a sweep's"
expect_match err "no point column" "not a sweep message"
sed '2s/^0,/x,/' "$tmp/s1.csv" >"$tmp/badpoint.csv"
run merge "$tmp/badpoint.csv" -o "$tmp/x.csv"
expect_code 3 "a bad point"
expect_match err "badpoint.csv:2: point \"x\", rep \"0\": not run indexes" "bad point message"
run merge "$tmp/nonexistent.csv"
expect_code 5 "an unreadable shard"
run merge "$tmp/s1.csv" -o "$tmp/x.json" --format csv
expect_code 2 "-o suffix against --format"

# sweep options
# shellcheck disable=SC2086
run $sweep --shard 0/3
expect_code 2 "--shard 0/3"
expect_match err "is not K/N" "shard message"
# shellcheck disable=SC2086
run $sweep --shard 4/3
expect_code 2 "--shard 4/3"
# shellcheck disable=SC2086
run $sweep --emit-jobs parallel
expect_code 2 "--emit-jobs without -o"
# shellcheck disable=SC2086
run $sweep --emit-jobs parallel --shard 1/2 -o "$tmp/x.csv"
expect_code 2 "--emit-jobs with --shard"
# shellcheck disable=SC2086
run $sweep --shards 4 -o "$tmp/x.csv"
expect_code 2 "--shards without --emit-jobs"
# shellcheck disable=SC2086
run $sweep --backend pthread -j 2
expect_code 2 "a real backend with -j 2"
# shellcheck disable=SC2086
run $sweep --backend pthread --engine native
expect_code 2 "a real backend with --engine"
# shellcheck disable=SC2086
run $sweep --timeout 10
expect_code 2 "--timeout with the simulator"
# shellcheck disable=SC2086
run $sweep --backend nosuch
expect_code 2 "an unknown backend"

# a Slurm job array: run its script task by task, from another directory,
# as the array's tasks would, then merge as its last line says
mkdir "$tmp/slurm" "$tmp/elsewhere"
# shellcheck disable=SC2086
"$bin" $sweep --emit-jobs slurm --shards 4 -o "$tmp/slurm/out.csv" >"$tmp/job.sbatch" 2>"$tmp/err"
expect_empty err "-q: no note"
expect_line job.sbatch "#SBATCH --array=1-4" "job array"
expect_match job.sbatch "^#   gvlsim merge --points 6 --seeds 2 -o '.*/slurm/out.csv' '.*/slurm/out'.\\*-of-4'.csv'$" "merge line"
# shellcheck disable=SC2016
expect_line job.sbatch 'task=${SLURM_ARRAY_TASK_ID:?not a Slurm array task}' "task variable"
mv "$tmp/job.sbatch" "$tmp/out"
for k in 1 2 3 4; do
    (cd "$tmp/elsewhere" && SLURM_ARRAY_TASK_ID=$k sh "$tmp/out") || fail "array task $k"
done
checks=$((checks + 1))
(cd "$tmp/elsewhere" && sh "$tmp/out" 2>/dev/null) && fail "the script must refuse to run outside an array"
merge_line=$(sed -n 's/^#   gvlsim merge /merge /p' "$tmp/out")
eval "set -- $merge_line"
run "$@"
expect_code 0 "the script's merge line"
checks=$((checks + 1))
cmp -s "$tmp/slurm/out.csv" "$tmp/full.csv" || fail "merged array tasks differ from the whole sweep"
finish merge_cmd.sh
