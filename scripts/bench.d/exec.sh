# exec.sh - sourced by scripts/bench.sh: the real executor's timings.
RUNS=$runs scripts/bench_exec.sh "$bin"
