#!/bin/sh
# run_guard.sh BINARY - a run estimated to take very long is refused up front
# (exit 3, with the estimate and a rough host time) unless --force; the
# estimate comes from the scenario alone, so the decision is the same on
# every machine.  Run from the repository root by tests/e2e/run.sh.
set -u
bin=$1
. tests/e2e/lib.inc

scn=scenarios/examples/token_pingpong.json
big="--set ractors.0.threads.0.program.0.times=1000000000000 --set ractors.0.threads.1.program.0.times=1000000000000"

# shellcheck disable=SC2086
run run $scn $big -q
expect_code 3 "10^12 iterations"
expect_empty out "10^12 iterations"
expect_match err '^gvlsim run: scenarios/examples/token_pingpong.json: this run would take about 3.1e\+10 engine events, roughly 35 minutes of host time \(at 15M events/s\), beyond the 5e\+09 that gvlsim runs without asking: shorten it \(loop counts, stop.time, --max-time\) or pass --force$' "10^12 iterations"

# --force runs it (here until a short --max-time)
# shellcheck disable=SC2086
run run $scn $big -q --force --max-time 0.001
expect_code 4 "forced"
expect_match err 'simulated time limit of 0.001 s reached' "forced"

# a --max-time that bounds the run brings the estimate under the limit
# shellcheck disable=SC2086
run run $scn $big -q --max-time 0.001
expect_code 4 "bounded by --max-time"

# a sweep refuses the points estimated too long (as failed runs), runs the others
run sweep $scn --param ractors.0.threads.0.program.0.times=10,1000000000000 \
    --param ractors.0.threads.1.program.0.times=10 -j 1 -q --reproducible
expect_code 3 "sweep"
expect_lines out 2 "sweep: header and the one point that runs"
expect_match err 'this run would take about .* or pass --force$' "sweep"

finish "$script"
