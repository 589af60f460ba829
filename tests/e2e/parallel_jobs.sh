#!/bin/sh
# parallel_jobs.sh BINARY - a sweep run through GNU parallel in shards
# (`sweep --emit-jobs parallel | parallel`), merged, equals the
# single-process sweep byte for byte.  Needs GNU parallel (Debian package
# parallel; optional: skipped with a line saying so when it is missing).
set -u
bin=$1
. tests/e2e/lib.inc
need_cmd parallel parallel
parallel --version 2>/dev/null | grep -q 'GNU parallel' ||
    skip "parallel is not GNU parallel (moreutils' parallel is another program)"
sweep="sweep scenarios/queue_pingpong.json --set ractors.0.threads.0.program.0.times=200
       --set ractors.0.threads.1.program.0.times=1000 --param machine.cores=1,2
       --param runtime.gvl_policy=eager,hot_steal,delayed,threshold,barging --seeds 3 --reproducible"
# shellcheck disable=SC2086
"$bin" $sweep -q -o "$tmp/full.csv" || fail "the whole sweep"
mkdir "$tmp/shards"
# shellcheck disable=SC2086
"$bin" $sweep --emit-jobs parallel --shards 4 -j 1 -o "$tmp/shards/sweep.csv" >"$tmp/jobs" 2>"$tmp/err"
code=$?
expect_code 0 "emit jobs"
expect_lines jobs 4 "one command line per shard"
expect_match jobs "--shard=3/4 --resume -o '.*/shards/sweep'.3-of-4'.csv'$" "third job"
expect_match err "30 runs in 4 jobs" "note"
# the jobs are self-contained: run them from another directory
(cd "$tmp" && parallel --will-cite --halt now,fail=1 -j 2 <"$tmp/jobs") >"$tmp/out" 2>"$tmp/err"
code=$?
expect_code 0 "parallel ran every job"
run merge --points 10 --seeds 3 -o "$tmp/merged.csv" "$tmp"/shards/sweep.*-of-4.csv
expect_code 0 "merge"
checks=$((checks + 1))
cmp -s "$tmp/merged.csv" "$tmp/full.csv" || fail "the merged shards differ from the single-process sweep"
finish parallel_jobs.sh
