#!/bin/sh
# profile.sh GVLSIM [LABEL=OTHER_GVLSIM]... - the repeatable counts behind
# docs/bench.md: instructions per event (callgrind) of the bench
# configurations, one column per other build (older commits:
# scripts/bench_base.sh builds them), then this one; and last-level cache
# misses per event (cachegrind, a 2 MiB LL) with CACHE=1.  Prints markdown
# table rows.  Needs valgrind; takes many minutes.
set -u
bin=${1:?usage: profile.sh GVLSIM [LABEL=OTHER_GVLSIM]...}
shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gvlsim-profile.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
m="--machines scenarios/machines"
pp="scenarios/queue_pingpong.json --set ractors.0.threads.0.program.0.times=20000 --set ractors.0.threads.1.program.0.times=100000"
pp2="scenarios/queue_pingpong.json --set ractors.0.threads.0.program.0.times=40000 --set ractors.0.threads.1.program.0.times=200000"
th="tests/bench/threads.json $m --set machine.cores=8 --set ractors.0.threads.1.count"
tr="tests/bench/threads_ractors.json $m --set machine.cores=8 --set ractors.1.threads.0.count"

# per_event TOOL GVLSIM ARGS...: instructions (callgrind) or LL misses
# (cachegrind) of one run, divided by its engine_events
per_event() {
    tool=$1 b=$2; shift 2
    if [ "$tool" = callgrind ]; then
        set -- valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$b" run "$@"
    else
        set -- valgrind --tool=cachegrind --cache-sim=yes --LL=2097152,16,64 \
            --cachegrind-out-file="$tmp/out" "$b" run "$@"
    fi
    ev=$("$@" --reproducible -q 2>"$tmp/err" | awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == "engine_events") k = i; next } { print $k }')
    if [ "$tool" = callgrind ]; then n=$(grep 'refs:' "$tmp/err" | awk '{ gsub(",", "", $4); print $4 }')
    else n=$(grep 'LLd misses:' "$tmp/err" | awk '{ gsub(",", "", $4); print $4 }'); fi
    echo "$n $ev" | awk '{ if ($2 > 0) printf "%.1f", $1 / $2; else printf "?" }'
}

row() {
    label=$1; shift
    line="| $label |"
    for o in $others; do line="$line $(per_event callgrind "${o#*=}" "$@") |"; done
    printf "%s %s |\n" "$line" "$(per_event callgrind "$bin" "$@")"
    if [ "${CACHE:-0}" = 1 ]; then
        line="|   LL misses per event |"
        for o in $others; do line="$line |"; done
        printf "%s %s |\n" "$line" "$(per_event cachegrind "$bin" "$@")"
    fi
}

others="$*"
head="| run (instructions per event) |"; rule="|---|"
for o in $others; do head="$head ${o%%=*} |"; rule="$rule---|"; done
echo "$head this build |"; echo "$rule---|"
# shellcheck disable=SC2086
row "ping-pong 100k messages, 1 core" $pp --set machine.cores=1
# shellcheck disable=SC2086
row "ping-pong 100k messages, 2 cores" $pp --set machine.cores=2
# shellcheck disable=SC2086
row "ping-pong 200k messages, 8 cores" $pp2 --set machine.cores=8
# shellcheck disable=SC2086
row "ping-pong 200k messages, 1,024 cores" $pp2 --set machine.cores=1024
for n in 2 10000 100000; do
    # shellcheck disable=SC2086
    row "1M calls, $n threads, 8 cores" $th=$n
done
for n in 1 1563; do
    # shellcheck disable=SC2086
    row "1M calls, 64 Ractors x $n threads, 8 cores" $tr=$n
done
