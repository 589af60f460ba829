#!/bin/sh
# backends_results.sh [GVLSIM] [OUTDIR] - the seed scenarios on all three
# backends (sim, pthread, ruby) side by side, on 1 and 2 cores, with the
# settings of the installed Ruby: raw rows to OUTDIR/raw.csv (keyed
# LABEL/CORES/BACKEND) and the host to OUTDIR/host.txt (default
# docs/data/backends, committed), then scripts/docs/render.sh renders the
# README's tables from them (scripts/docs/tables/backends*.awk).
#
# Every backend runs the same scenario with the same --set values:
#   --set machine=dev_vm --set machine.cores=C
#   --set 'runtime={"ruby": "<installed version>"}'   (plus "yjit": true)
# so the runtime settings are what the installed Ruby does (for 3.1:
# barging, no env-escape invariant, no instruction counter, no M:N), and
# the simulator uses this host's profile.  The real backends run RUNS times
# (default 5), interleaved (run 1 of every configuration, then run 2, ...);
# the simulator is deterministic and runs once.
#
# Configurations (label: what):
#   pingpong   queue_pingpong, PINGPONG_MSGS messages (default 200000)
#   mtime2     mtime_loop, 2 threads, MTIME_CALLS File.mtime calls (default 200000)
#   mtime8     the same with 8 threads
#   proc_off   proc_heavy, 2 worker Ractors for PROC_TIME (default 2s), YJIT off
#   proc_on    the same with YJIT on (runtime.yjit; the Ruby backend runs ruby --yjit)
#   tarai      tarai_ractors, 2 worker Ractors x TARAI_INSNS instructions (default 300000000)
# QUICK=1: tiny sizes and 2 runs (checks the script, not the machine).
# Quiet gate (scripts/quiet.inc): before each real run, wait (up to QUIET_WAIT
# s, default 120) until QUIET_IDLE percent (default 90) of the CPUs were idle
# over 0.5 s; QUIET_IDLE=0 turns the waiting off.  A run refused because
# its busy loop would not calibrate is retried up to 3 times; MAX_SPREAD=PCT
# passes --max-spread PCT to the real backends (default: their 10%).
set -u
bin=${1:-./gvlsim}
out=${2:-docs/data/backends}
runs=${RUNS:-5}
msgs=${PINGPONG_MSGS:-200000}
calls=${MTIME_CALLS:-200000}
proc_time=${PROC_TIME:-2s}
insns=${TARAI_INSNS:-300000000}
if [ "${QUICK:-0}" = 1 ]; then
    runs=2; msgs=2000; calls=2000; proc_time=50ms; insns=2000000
fi
command -v ruby >/dev/null 2>&1 || { echo "backends_results: no ruby on PATH (apt-get install ruby)" >&2; exit 1; }
[ "$(nproc)" -ge 2 ] || { echo "backends_results: needs 2 CPUs" >&2; exit 1; }
version=$(ruby -e 'print RUBY_VERSION') || exit 1
mkdir -p "$out" || exit 1
# the tree measured: its commit, "+changes" when the work tree differs
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || commit="$commit+changes"
raw=$out/raw.csv
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp" "$tmp.err" "$raw.new"' EXIT

. "$(dirname "$0")/quiet.inc"

rt() { printf 'runtime={"ruby": "%s"%s}' "$version" "$1"; }
configs() {
    for cores in 1 2; do
        m="--set machine=dev_vm --set machine.cores=$cores"
        echo "pingpong|$cores|$(rt "")|scenarios/queue_pingpong.json $m --set ractors.0.threads.0.program.0.times=$((msgs / 5)) --set ractors.0.threads.1.program.0.times=$msgs"
        for t in 2 8; do
            echo "mtime$t|$cores|$(rt "")|scenarios/mtime_loop.json $m --set ractors.0.threads.1.count=$t --set ractors.0.threads.1.program.0.times_total=$calls"
        done
        echo "proc_off|$cores|$(rt "")|scenarios/proc_heavy.json $m --set ractors.1.count=2 --set stop.time=$proc_time"
        echo "proc_on|$cores|$(rt ', "yjit": true')|scenarios/proc_heavy.json $m --set ractors.1.count=2 --set stop.time=$proc_time"
        echo "tarai|$cores|$(rt "")|scenarios/tarai_ractors.json $m --set ractors.1.count=2 --set ractors.1.threads.0.program.0.insns=$insns"
    done
}

# one LABEL CORES BACKEND REP RUNTIME ARGS...: one run, its row appended to raw.csv.new
one() {
    label=$1; cores=$2; backend=$3; rep=$4; runtime=$5; shift 5
    if [ "$backend" = sim ]; then
        set -- run "$@" --set "$runtime"
        idle=-; load=-
    else
        set -- exec --backend "$backend" "$@" --set "$runtime" ${MAX_SPREAD:+--max-spread "$MAX_SPREAD"}
        wait_quiet
        load=$(cut -d' ' -f1 /proc/loadavg)
    fi
    try=1
    while ! "$bin" "$@" -o "$tmp" 2>"$tmp.err"; do
        if [ "$try" -lt 3 ] && grep -q 'calibration is unstable' "$tmp.err"; then
            try=$((try + 1))
            sleep 1
            continue
        fi
        echo "backends_results: $label/$cores $backend failed: $bin $*" >&2
        cat "$tmp.err" >&2
        exit 1
    done
    [ -s "$raw.new" ] || { printf 'key,rep,idle_pct,load1,'; head -n 1 "$tmp"; } >"$raw.new"
    printf '%s/%s/%s,%s,%s,%s,' "$label" "$cores" "$backend" "$rep" "$idle" "$load" >>"$raw.new"
    tail -n 1 "$tmp" >>"$raw.new"
}

total=$(configs | wc -l)
n=0
configs | while IFS='|' read -r label cores runtime args; do
    n=$((n + 1))
    printf '\rbackends_results: simulating %d/%d   ' "$n" "$total" >&2
    # shellcheck disable=SC2086
    one "$label" "$cores" sim 1 "$runtime" $args
done || exit 1
for i in $(seq "$runs"); do
    n=0
    configs | while IFS='|' read -r label cores runtime args; do
        n=$((n + 1))
        for backend in pthread ruby; do
            printf '\rbackends_results: run %d/%d, configuration %d/%d, %s   ' "$i" "$runs" "$n" "$total" "$backend" >&2
            # shellcheck disable=SC2086
            one "$label" "$cores" "$backend" "$i" "$runtime" $args
        done
    done || exit 1
done
echo >&2
mv "$raw.new" "$raw"
{
    echo "cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
    echo "cpus=$(nproc)"
    echo "kernel=$(uname -r)"
    echo "ruby=$(ruby -e 'print RUBY_DESCRIPTION')"
    echo "ruby_version=$version"
    echo "date=$(date -u +%Y-%m-%d)"
    echo "commit=$commit"
    echo "runs=$runs"
    echo "quick=${QUICK:-0}"
    echo "pingpong_msgs=$msgs"
    echo "mtime_calls=$calls"
    echo "proc_time=$proc_time"
    echo "tarai_insns=$insns"
    echo "quiet_idle=$quiet_idle"
    echo "quiet_wait=$quiet_wait"
} >"$out/host.txt"
"$(dirname "$0")/docs/render.sh"
