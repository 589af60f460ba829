#!/bin/sh
# sweep_real.sh BINARY - `gvlsim sweep --backend pthread`: every point run
# on real threads, one at a time, the rows in run order with the exact facts
# of each run (ops, syscalls, the replicates' seeds), shards of a real sweep
# merged, and the result compared with itself as measured rows.  Nothing
# here depends on timing (--max-spread 1000: a busy host, or an SMT sibling
# at work, must not fail the busy-loop calibration of a check of counts).
# real-threads: sweeps on the pthread backend (`make test` runs such scripts with nothing else at work: tests/e2e/run.sh)
set -u
bin=$1
. tests/e2e/lib.inc
sweep="sweep scenarios/mtime_loop.json --backend pthread --set ractors.0.threads.1.count=2
       --set ractors.0.threads.1.program.0.times_total=600 --param runtime.gvl_policy=eager,hot_steal
       --param machine.cores=1 --seeds 2 -q --max-spread 1000"
# shellcheck disable=SC2086
run $sweep -o "$tmp/real.csv"
expect_code 0 "a real sweep"
checks=$((checks + 1))
[ "$(wc -l <"$tmp/real.csv")" -eq 5 ] || fail "4 rows expected: $(cat "$tmp/real.csv")"
# run order (point, rep), the measured backend, and the counts that do not
# depend on timing: 600 calls, 600 syscalls, 2 workers + main = 3 threads
seed1=$("$bin" sweep scenarios/mtime_loop.json --seeds 2 --set ractors.0.threads.1.program.0.times_total=10 \
        --reproducible -q | awk -F, 'NR == 3 { print $12 }')
awk -F, -v s1="$seed1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { printf "%s,%s,%s,%s,%s,%s,%s,%s,%s\n", $c["point"], $c["rep"], $c["runtime.gvl_policy"], $c["engine"],
             $c["threads"], $c["seed"] == s1 ? "s1" : $c["seed"], $c["ops"], $c["syscalls"], $c["policy"] }' \
    "$tmp/real.csv" >"$tmp/facts"
cat >"$tmp/want" <<'WANT'
0,0,eager,pthread,3,1,600,600,eager
0,1,eager,pthread,3,s1,600,600,eager
1,0,hot_steal,pthread,3,1,600,600,hot_steal
1,1,hot_steal,pthread,3,s1,600,600,hot_steal
WANT
checks=$((checks + 1))
cmp -s "$tmp/facts" "$tmp/want" || fail "real sweep rows: $(cat "$tmp/facts")"
# measured rows compared with themselves: replicates grouped, no change
run compare "$tmp/real.csv" "$tmp/real.csv"
expect_code 0 "measured rows against themselves"
expect_match out "no change: 2 configurations" "replicates grouped into 2 configurations"
# a shard of a real sweep: the rows of its runs
# shellcheck disable=SC2086
run $sweep --shard 2/3 -o "$tmp/s2.csv"
expect_code 0 "a shard of a real sweep"
checks=$((checks + 1))
[ "$(cut -d, -f1,2 "$tmp/s2.csv" | tr '\n' ' ')" = "point,rep 0,1 " ] ||
    fail "shard 2/3 of 4 runs holds runs 1 (point 0, rep 1): $(cut -d, -f1,2 "$tmp/s2.csv" | tr '\n' ' ')"
finish sweep_real.sh
