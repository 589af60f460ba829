#!/bin/sh
# exec_results.sh [GVLSIM] [OUTDIR] - the real executor's result tables
# (docs/exec-results.md): queue ping-pong 1 vs 2 cores, mtime_loop with 2
# and 8 threads under every policy on 1 and 2 cores, proc_heavy with 2
# worker Ractors lock_barrier vs lockless (vs none), tarai_ractors with 2
# worker Ractors: the instruction counter shared vs thread_local (vs none).
#
# Every configuration runs RUNS times (default 5), interleaved (run 1 of
# every configuration, then run 2, ...), so that a slow period of the host
# spreads over all of them; tables give min / median / max.  Raw rows go
# to OUTDIR/raw.csv (default out/exec-results), the tables to stdout.
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

# stat LABEL COLUMN: "min / median / max" of COLUMN over LABEL's rows
# med LABEL COLUMN: the median alone
col_stats() {
    awk -F, -v label="$1" -v name="$2" -v mode="$3" -v scale="${4:-1}" -v fmt="${5:-%.3f}" '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
        $1 == label { v[++n] = $c * scale }
        END {
            if (!n) { print "-"; exit }
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
            med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
            if (mode == "med") printf fmt, med
            else printf fmt " / " fmt " / " fmt, v[1], med, v[n]
        }' "$raw"
}
stat3() { col_stats "$1" "$2" all "${3:-1}" "${4:-%.3f}"; }
med() { col_stats "$1" "$2" med "${3:-1}" "${4:-%.0f}"; }
cpushare() {
    awk -F, -v label="$1" 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "wall_s") w = i; if ($i == "cpu_s") c = i }; next }
        $1 == label && $w > 0 { v[++n] = $c / $w }
        END { if (!n) { printf "-"; exit }
              for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
              printf "%.2f", n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }' "$raw"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }
joins() {
    awk -v label="## $1" '$0 == label { on = 1; next } /^## / { on = 0 }
        on && /barriers:/ { sub(/.*completed, /, ""); sub(/ joins.*/, ""); v[++n] = $0 }
        END { if (!n) { print 0; exit }
              for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
              print v[int((n + 1) / 2)] }' "$errs"
}

has() { grep -q "^$1" "$raw"; }
host=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')
echo "Host: $ncpu CPUs ($host), kernel $(uname -r); $runs runs per configuration, interleaved."
echo "Busy loop (first run): $(grep -m1 'busy loop:' "$errs" | sed 's/^ *busy loop: //')"
spread_of() {
    awk -F, -v c="$1" 'NR > 1 { v[++n] = $c } END {
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        printf "min %s, median %s, max %s", v[1], v[int((n + 1) / 2)], v[n] }' "$raw"
}
echo "Idle CPU share in the 0.5 s before a run (%, gate $quiet_idle%): $(spread_of 2);" \
     "1-minute load average: $(spread_of 3)"
echo "Runs that waited the full $quiet_wait s for a quiet host: $(awk -F, -v q="$quiet_idle" 'NR > 1 && $2 < q { n++ } END { print n + 0 }' "$raw")"
echo "(CPU/wall = process CPU seconds per wall second, median: what the run really got)"
if has pingpong; then
echo
echo "### queue_pingpong, $msgs messages (wall s: min / median / max)"
echo
echo "| cores | wall s | us per message (median) | vol. switches | main thread vol. | invol. | GVL hand-offs | CPU/wall |"
echo "|---|---|---|---|---|---|---|---|"
for cores in 1 2; do
    l=pingpong/$cores
    echo "| $cores | $(stat3 $l wall_s) | $(med $l wall_s "$(awk -v m=$msgs 'BEGIN{print 1e6/m}')" %.2f) | $(med $l vol_switches) |" \
         "$(med $l main_vol_switches) | $(med $l invol_switches) | $(med $l gvl_handoffs) | $(cpushare $l) |"
done
w1=$(med pingpong/1 wall_s 1 %.6f); w2=$(med pingpong/2 wall_s 1 %.6f)
echo
echo "2 cores / 1 core (medians): $(ratio "$w2" "$w1")x"
fi
if has mtime; then
echo
echo "### mtime_loop, $calls File.mtime calls shared by T threads (wall s: min / median / max)"
echo
echo "| T | policy | 1 core | 2 cores | 2c/1c | vol. sw./call 1c | vol. sw./call 2c | wasted wakes/call 2c | hand-offs/call 2c | CPU/wall 2c |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for threads in 2 8; do
    for policy in eager hot_steal delayed threshold barging; do
        a=mtime/$threads/$policy/1; b=mtime/$threads/$policy/2
        r=$(ratio "$(med $b wall_s 1 %.6f)" "$(med $a wall_s 1 %.6f)")
        echo "| $threads | $policy | $(stat3 $a wall_s) | $(stat3 $b wall_s) | $r |" \
             "$(med $a vol_switches "$(awk -v c=$calls 'BEGIN{print 1/c}')" %.2f) |" \
             "$(med $b vol_switches "$(awk -v c=$calls 'BEGIN{print 1/c}')" %.2f) |" \
             "$(med $b wasted_wakes "$(awk -v c=$calls 'BEGIN{print 1/c}')" %.3f) |" \
             "$(med $b gvl_handoffs "$(awk -v c=$calls 'BEGIN{print 1/c}')" %.3f) | $(cpushare $b) |"
    done
done
fi
if has proc; then
echo
echo "### proc_heavy, 2 worker Ractors for $proc_time, 2 cores"
echo
echo "| invariant_check | wall s | aggregate ops/s (min / median / max) | barriers | joins (median) | us per barrier (median) | CPU/wall |"
echo "|---|---|---|---|---|---|---|"
for inv in lock_barrier lockless none; do
    l=proc/$inv
    b=$(med $l barriers 1 %.0f)
    per=$( [ "$inv" = lock_barrier ] && [ "$b" -gt 0 ] 2>/dev/null && awk -v w="$(med $l wall_s 1 %.6f)" -v b="$b" 'BEGIN { printf "%.2f", w * 1e6 / b }' || echo -)
    echo "| $inv | $(stat3 $l wall_s) | $(stat3 $l ops_per_s 1 %.0f) | $b | $(joins $l) | $per | $(cpushare $l) |"
done
fi
if has counter; then
echo
echo "### tarai_ractors (instruction counter), 2 worker Ractors x $insns instructions (wall s: min / median / max)"
echo
echo "| insn_counter | 1 core | 2 cores | 2c/1c | CPU/wall 2c | counter value / insns 2c |"
echo "|---|---|---|---|---|---|"
for counter in shared thread_local none; do
    a=counter/$counter/1; b=counter/$counter/2
    kept=$(awk -v label="## $b" '$0 == label { on = 1; next } /^## / { on = 0 }
        on && /instructions:/ { split($0, w, " "); ins = w[2]; val = w[6]; s += (ins > 0 ? val / ins : 0); n++ }
        END { if (n) printf "%.2f", s / n; else printf "-" }' "$errs")
    echo "| $counter | $(stat3 $a wall_s) | $(stat3 $b wall_s) |" \
         "$(ratio "$(med $b wall_s 1 %.6f)" "$(med $a wall_s 1 %.6f)") | $(cpushare $b) | $kept |"
done
s2=$(med counter/shared/2 wall_s 1 %.6f); t2=$(med counter/thread_local/2 wall_s 1 %.6f)
echo
echo "shared / thread_local on 2 cores (medians): $(ratio "$s2" "$t2")x"
fi
