#!/bin/sh
# policy_results.sh [GVLSIM] [OUT.csv] - the runs behind docs/policies.md:
# the `pol/*` runs of docs/data/sim-runs.txt (every recipe under every GVL
# policy on the cores listed), run into OUT.csv (default
# out/policy_results.csv) with their IDs (pol/RECIPE/POLICY/CORES) in the
# first column.  tests/e2e/policies.sh checks the rows with tolerances;
# `make docs` renders the tables of the docs from the same runs.
# JOBS=N runs N simulations at once (default 1); SMALL=1 shrinks the big
# loops 50x (a quick look, or a sanitizer build): the shrinking --set
# values are appended to the runs of each scenario.
set -eu
bin=${1:-./gvlsim}
out=${2:-out/policy_results.csv}
jobs=${JOBS:-1}
[ -x "$bin" ] || { echo "policy_results.sh: $bin is not executable (run make)" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dir=$(cd "$(dirname "$0")" && pwd)

sh "$dir/docs/simulate.sh" -b "$bin" --list pol/ >"$tmp/list"
if [ "${SMALL:-0}" = 1 ]; then
    awk -F'|' -v OFS='|' '
        $2 == "scenarios/mtime_loop.json" { $3 = $3 " --set ractors.0.threads.1.program.0.times_total=20000" }
        $2 == "scenarios/queue_pingpong.json" { $3 = $3 " --set ractors.0.threads.0.program.0.times=4000 --set ractors.0.threads.1.program.0.times=20000" }
        $2 == "scenarios/io_plus_cpu.json" { $3 = $3 " --set stop.time=1s" }
        { print }' "$tmp/list" >"$tmp/list.small"
    mv "$tmp/list.small" "$tmp/list"
fi
sh "$dir/docs/simulate.sh" -b "$bin" -j "$jobs" --run-list "$tmp/list" "$out"
echo "policy_results.sh: $(wc -l <"$tmp/list") runs -> $out"
