#!/bin/sh
# exec_results.sh [GVLSIM] [OUTDIR] - the real executor's result tables
# (docs/exec-results.md): queue ping-pong 1 vs 2 cores, mtime_loop with 2
# and 8 threads under every policy on 1 and 2 cores, proc_heavy with 2
# worker Ractors lock_barrier vs lockless (vs none), tarai_ractors with 2
# worker Ractors: the instruction counter shared vs thread_local (vs none).
#
# Every configuration runs RUNS times (default 5), interleaved (run 1 of
# every configuration, then run 2, ...), so that a slow period of the host
# spreads over all of them.  The raw rows go to OUTDIR/raw.csv (default
# out/exec-results), each run's summary to OUTDIR/summaries.txt, the host
# and the settings to OUTDIR/host.txt.  `make docs-measure` runs this and
# copies the three files to docs/data/exec, from which
# scripts/docs/render.sh renders the tables of the docs (min / median / max).
#
# Sizes (smaller than the simulator's 1M to keep the whole script within
# minutes on a 2-core host; override with the variables below):
#   PINGPONG_MSGS  queue_pingpong messages        (default 200000; 1M in the report)
#   MTIME_CALLS    mtime_loop File.mtime calls    (default 200000; 1M in the report)
#   PROC_TIME      proc_heavy stop.time           (default 2s; its loops run until then)
#   COUNTER_INSNS  tarai instructions per Ractor  (default 300000000; 1,057,137,368 in the scenario)
#   QUICK=1        tiny sizes and 2 runs: checks the script, not the machine
#   ONLY=PREFIX    only the configurations whose label starts with PREFIX
#                  (pingpong, mtime, proc, counter)
# Quiet gate: on a shared host other processes take CPUs from "2 cores"
# runs.  Before each run the script samples /proc/stat for 0.5 s and waits
# (up to QUIET_WAIT seconds, default 120) until at least QUIET_IDLE percent
# of the CPUs (default 90) were idle; the idle share it saw and the 1-minute
# load average are recorded with the run (raw.csv: idle_pct, load1) and
# summarised above the tables, with each run's CPU/wall.  QUIET_IDLE=0
# turns the gate off.
set -u
bin=${1:-./gvlsim}
out=${2:-out/exec-results}
runs=${RUNS:-5}
msgs=${PINGPONG_MSGS:-200000}
calls=${MTIME_CALLS:-200000}
proc_time=${PROC_TIME:-2s}
insns=${COUNTER_INSNS:-300000000}
if [ "${QUICK:-0}" = 1 ]; then
    runs=2; msgs=2000; calls=2000; proc_time=20ms; insns=2000000
fi
ncpu=$(nproc)
# the tree the measurement is made with (host.txt)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || commit="$commit+changes"
[ "$ncpu" -ge 2 ] || { echo "exec_results: needs 2 CPUs (this host lets us use $ncpu)" >&2; exit 1; }
mkdir -p "$out" || exit 1
raw=$out/raw.csv
errs=$out/summaries.txt
: >"$raw"
: >"$errs"
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp" "$tmp.err"' EXIT

. "$(dirname "$0")/quiet.inc"

# one LABEL ARGS...: one `gvlsim exec` run, its row prefixed with LABEL
# (a run refused because the busy loop would not calibrate on a busy host
# is retried, up to 3 times)
one() {
    label=$1; shift
    try=1
    wait_quiet
    load=$(cut -d' ' -f1 /proc/loadavg)
    while ! "$bin" exec "$@" -o "$tmp" 2>"$tmp.err"; do
        if [ "$try" -lt 3 ] && grep -q 'calibration is unstable' "$tmp.err"; then
            try=$((try + 1))
            echo "exec_results: $label: calibration unstable, retrying" >>"$errs"
            sleep 1
            continue
        fi
        echo "exec_results: $label failed:" >&2
        cat "$tmp.err" >&2
        exit 1
    done
    [ -s "$raw" ] || { printf 'label,idle_pct,load1,'; head -n 1 "$tmp"; } >"$raw"
    printf '%s,%s,%s,' "$label" "$idle" "$load" >>"$raw"
    tail -n 1 "$tmp" >>"$raw"
    { echo "## $label"; cat "$tmp.err"; } >>"$errs"
}

pp_main=$((msgs / 5))
configs() {
    for cores in 1 2; do
        echo "pingpong/$cores|scenarios/queue_pingpong.json --set machine.cores=$cores" \
             "--set ractors.0.threads.0.program.0.times=$pp_main --set ractors.0.threads.1.program.0.times=$msgs"
    done
    for threads in 2 8; do
        for policy in eager hot_steal delayed threshold barging; do
            for cores in 1 2; do
                echo "mtime/$threads/$policy/$cores|scenarios/mtime_loop.json --set machine.cores=$cores" \
                     "--set runtime.gvl_policy=$policy --set ractors.0.threads.1.count=$threads" \
                     "--set ractors.0.threads.1.program.0.times_total=$calls"
            done
        done
    done
    for inv in lock_barrier lockless none; do
        echo "proc/$inv|scenarios/proc_heavy.json --set machine.cores=2 --set ractors.1.count=2" \
             "--set runtime.invariant_check=$inv --set stop.time=$proc_time"
    done
    for counter in shared thread_local none; do
        for cores in 1 2; do
            echo "counter/$counter/$cores|scenarios/tarai_ractors.json --set machine.cores=$cores" \
                 "--set ractors.1.count=2 --set runtime.insn_counter=$counter" \
                 "--set ractors.1.threads.0.program.0.insns=$insns"
        done
    done
}

only=${ONLY:-}
selected() { configs | while IFS='|' read -r label args; do
    case $label in "$only"*) echo "$label|$args" ;; esac; done; }
total=$(selected | wc -l)
[ "$total" -gt 0 ] || { echo "exec_results: no configuration matches ONLY=$only" >&2; exit 1; }
for i in $(seq "$runs"); do
    n=0
    selected | while IFS='|' read -r label args; do
        n=$((n + 1))
        printf '\rexec_results: run %d/%d, configuration %d/%d   ' "$i" "$runs" "$n" "$total" >&2
        # shellcheck disable=SC2086
        one "$label" $args
    done || exit 1
done
echo >&2

# What the renderers of the docs need besides the rows: the host, the
# sizes, the gate (scripts/docs/tables/exec_*.awk read these lines).
{
    echo "cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
    echo "cpus=$ncpu"
    echo "kernel=$(uname -r)"
    echo "date=$(date -u +%Y-%m-%d)"
    echo "commit=$commit"
    echo "runs=$runs"
    echo "pingpong_msgs=$msgs"
    echo "mtime_calls=$calls"
    echo "proc_time=$proc_time"
    echo "counter_insns=$insns"
    echo "quiet_idle=$quiet_idle"
    echo "quiet_wait=$quiet_wait"
} >"$out/host.txt"
echo "exec_results: $out/raw.csv, $out/summaries.txt, $out/host.txt; the tables of the docs are rendered from them (scripts/docs/render.sh)" >&2
