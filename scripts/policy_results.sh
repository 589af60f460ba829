#!/bin/sh
# policy_results.sh [GVLSIM] [OUT.csv] - the runs behind docs/policies.md.
#
# Every recipe below is a committed scenario plus --set overrides, run under
# every GVL policy on the cores listed; the scenario column of each CSV row
# is the recipe name.  tests/e2e/policies.sh checks the rows with
# tolerances; scripts/policy_tables.sh prints the tables of the docs.
# JOBS=N runs N simulations at once (default 1); SMALL=1 shrinks the big
# loops 50x (a quick look, or a sanitizer build).
set -eu
bin=${1:-./gvlsim}
out=${2:-out/policy_results.csv}
jobs=${JOBS:-1}
[ -x "$bin" ] || { echo "policy_results.sh: $bin is not executable (run make)" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "${SMALL:-0}" = 1 ]; then
    mt="--set ractors.0.threads.1.program.0.times_total=20000"
    pp="--set ractors.0.threads.0.program.0.times=4000 --set ractors.0.threads.1.program.0.times=20000"
    io="--set stop.time=1s"
else
    mt="" pp="" io=""
fi
iodur="ractors.0.threads.0.program.0.body.1"

# name | scenario | cores | extra arguments
cat >"$tmp/recipes" <<EOF
mtime8|scenarios/mtime_loop.json|1 2 8|$mt
mtime2|scenarios/mtime_loop.json|1 2 8|$mt --set ractors.0.threads.1.count=2
pingpong|scenarios/queue_pingpong.json|1 2|$pp
pingpong_desktop|scenarios/queue_pingpong.json|1 20|$pp --set machine=linux_desktop
token|scenarios/examples/token_pingpong.json|1 2|
io_5us_cpu|scenarios/io_plus_cpu.json|1 2|$io --set $iodur.dur=5us --set $iodur.io_wait=false
io_50us|scenarios/io_plus_cpu.json|1 2|$io
io_20ms|scenarios/io_plus_cpu.json|1 2|$io --set $iodur.dur=20ms
EOF

i=0
while IFS='|' read -r name scn cores extra; do
    for p in eager hot_steal delayed threshold barging; do
        for c in $cores; do
            i=$((i + 1))
            echo "$i $scn $extra --set name=$name --set runtime.gvl_policy=$p --set machine.cores=$c -q --no-header"
        done
    done
done <"$tmp/recipes" >"$tmp/runs"

# shellcheck disable=SC2016
xargs -P "$jobs" -L 1 sh -c 'n=$1; shift; "$0" run "$@" --reproducible -o "'"$tmp"'/$n.csv"' "$bin" <"$tmp/runs"

"$bin" run scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=1 -q -o "$tmp/header.csv"
head -n 1 "$tmp/header.csv" >"$tmp/all.csv"
n=1
while [ "$n" -le "$i" ]; do
    cat "$tmp/$n.csv" >>"$tmp/all.csv"
    n=$((n + 1))
done
cp "$tmp/all.csv" "$out.tmp" && mv "$out.tmp" "$out"
echo "policy_results.sh: $i runs -> $out"
