#!/bin/sh
# bench.sh GVLSIM BENCH_ENGINE MAXRSS [BASE_GVLSIM] - speed figures (never
# part of `make test`).  docs/bench.md says what each figure measures.
#
# Host timings vary run to run on a shared machine: compared commands are
# run in turn (A B A B ...), RUNS times each (default 5), and every figure is
# printed as min / median / max; a ratio is taken pair by pair, so that it
# holds when the machine's speed drifts.  BASE_GVLSIM is gvlsim built at an
# older commit (scripts/bench_base.sh), timed beside this one.
# The figures are also written as JSON (scripts/bench_json.sh) to
# $BENCH_OUT/bench.json (smaller is better) and bench-bigger.json
# (bigger is better); BENCH_OUT defaults to out/.
set -u
bin=${1:?usage: bench.sh GVLSIM BENCH_ENGINE MAXRSS [BASE_GVLSIM]}
engine=${2:?usage: bench.sh GVLSIM BENCH_ENGINE MAXRSS [BASE_GVLSIM]}
maxrss=${3:?usage: bench.sh GVLSIM BENCH_ENGINE MAXRSS [BASE_GVLSIM]}
base=${4:-}
runs=${RUNS:-5}
out=${BENCH_OUT:-out}
machines="--machines scenarios/machines"
. scripts/bench_json.sh

host="$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $(nproc) CPUs, Linux $(uname -r)"
echo "host: $host; $runs runs of each figure, min / median / max"
note="$host; $runs runs"
tmpd=$(mktemp -d "${TMPDIR:-/tmp}/gvlsim-bench.XXXXXX")
trap 'rm -rf "$tmpd"' EXIT

# stats: numbers on stdin -> "min median max"
stats() {
    sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print "nan nan nan"; exit }
                   m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                   print v[1], m, v[NR] }'
}
# col N "a b c": the N-th word
col() { echo "$2" | cut -d' ' -f"$1"; }
# fmt FORMAT "min med max": the three with one printf format, " / " between
fmt() { printf "$1 / $1 / $1" $2; }
now() { date +%s.%N; }

# fig GVLSIM ARGS...: one simulation -> "EVENTS HOST_S WALL_S" (host_s: the
# simulation as gvlsim times it; wall: the whole process)
fig() {
    f_bin=$1; shift
    f_t0=$(now)
    f_csv=$("$f_bin" run "$@" -q) || { echo "bench: $f_bin run $* failed" >&2; return 1; }
    f_t1=$(now)
    echo "$f_csv" | awk -F, -v t0="$f_t0" -v t1="$f_t1" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        NR == 2 { print $c["engine_events"], $c["host_s"], t1 - t0 }'
}

# measures, one number each: whole-process seconds, ns per simulated event
# (host_s / engine_events), and the seconds of a sweep with -j N
wall_s() { fig "$@" | cut -d' ' -f3; }
ns_per_event() { fig "$bin" "$@" | awk '{ print $2 / $1 * 1e9 }'; }
sweep_s() {
    s_t0=$(now)
    # shellcheck disable=SC2086
    "$bin" sweep $sw -j "$1" || echo "bench: sweep -j $1 failed" >&2
    echo "$s_t0 $(now)" | awk '{ print $2 - $1 }'
}

# paired "LABEL A" "LABEL B" UNIT FORMAT MEASURE_A "ARGS A" MEASURE_B "ARGS B":
# the two measures in turn (A B A B ...), $runs times; prints A's and B's
# min / median / max and sets sa, sb and sr (the stats of B / A, pair by
# pair).  The ARGS are split into words.
paired() {
    p_la=$1 p_lb=$2 p_unit=$3 p_fmt=$4 p_ma=$5 p_aa=$6 p_mb=$7 p_ab=$8
    : > "$tmpd/a"; : > "$tmpd/b"; : > "$tmpd/r"
    for i in $(seq "$runs"); do
        # shellcheck disable=SC2086
        p_a=$($p_ma $p_aa); p_b=$($p_mb $p_ab)
        echo "$p_a" >> "$tmpd/a"; echo "$p_b" >> "$tmpd/b"
        echo "$p_b $p_a" | awk '{ print $1 / $2 }' >> "$tmpd/r"
    done
    sa=$(stats < "$tmpd/a"); sb=$(stats < "$tmpd/b"); sr=$(stats < "$tmpd/r")
    printf "%-58s %s %s\n" "$p_la" "$(fmt "$p_fmt" "$sa")" "$p_unit"
    printf "%-58s %s %s\n" "$p_lb" "$(fmt "$p_fmt" "$sb")" "$p_unit"
}

# ---- the engine alone -------------------------------------------------------
echo
echo "== engine alone (tests/bench/bench_engine.c)"
"$engine" | tee "$tmpd/engine"
# "engine NAME   17.0 M events/s  (N events, T s)": one run each
sed -n 's/^engine \(.*[^ ]\)  *\([0-9.]*\) M events\/s.*/\1|\2/p' "$tmpd/engine" > "$tmpd/engine.fig"
while IFS='|' read -r e_name e_rate; do
    bench_json_add bigger "engine alone: $e_name" "M events/s" "$e_rate" "" "$host; one run"
done < "$tmpd/engine.fig"
# the same hold model on the SimGrid engine, each line with the native / SimGrid ratio
if "$engine" simgrid > "$tmpd/engine-sg" 2>/dev/null; then
    paste -d'\n' "$tmpd/engine" "$tmpd/engine-sg" | awk '
        { for (i = 1; i <= NF; i++) if ($(i + 1) == "M" && $(i + 2) == "events/s") rate[NR % 2] = $i }
        NR % 2 == 0 { print; printf "%-37s native / SimGrid %10.1fx\n", "", rate[1] / rate[0] }'
    sed -n 's/^simgrid \(.*[^ ]\)  *\([0-9.]*\) M events\/s.*/\1|\2/p' "$tmpd/engine-sg" |
        paste -d'|' - "$tmpd/engine.fig" > "$tmpd/engine-sg.fig"
    while IFS='|' read -r e_name e_rate n_name n_rate; do
        bench_json_add bigger "engine alone, SimGrid: $e_name" "M events/s" "$e_rate" "" "$host; one run"
        bench_json_add smaller "engine alone, native / SimGrid: $e_name" "x" \
            "$(echo "$n_rate $e_rate" | awk '{ printf "%.2f", $1 / $2 }')" "" "$host; one run"
    done < "$tmpd/engine-sg.fig"
else
    echo "(no SimGrid engine in this build)"
fi

# ---- the bare-loop reference ------------------------------------------------
pp="scenarios/queue_pingpong.json"
echo
echo "== full model vs the bare loop (a minimal GVL ping-pong on a minimal heap), interleaved"
: > $tmpd/toyratio; : > $tmpd/bare; : > $tmpd/toy; : > $tmpd/full; : > $tmpd/ratio
for i in $(seq "$runs"); do
    b=$("$engine" toy-bare | awk '{ print $1 / $2 }')
    t=$("$engine" toy-engine | awk '{ print $1 / $2 }')
    f=$(fig "$bin" "$pp" --set machine.cores=2 | awk '{ print $1 / $2 }')
    echo "$b" >> $tmpd/bare; echo "$t" >> $tmpd/toy; echo "$f" >> $tmpd/full
    echo "$f $b" | awk '{ print $1 / $2 }' >> $tmpd/ratio
    echo "$t $b" | awk '{ print $1 / $2 }' >> $tmpd/toyratio
done
sb=$(awk '{ print $1 / 1e6 }' $tmpd/bare | stats)
st=$(awk '{ print $1 / 1e6 }' $tmpd/toy | stats)
sf=$(awk '{ print $1 / 1e6 }' $tmpd/full | stats)
sr=$(stats < $tmpd/ratio)
str=$(stats < $tmpd/toyratio)
printf "%-58s %s M events/s\n" "bare loop: toy model, minimal heap" "$(fmt %.1f "$sb")"
printf "%-58s %s M events/s\n" "toy model on gvlsim's engine" "$(fmt %.1f "$st")"
printf "%-58s %s M events/s\n" "full model: queue_pingpong 1M messages, 2 cores" "$(fmt %.1f "$sf")"
printf "%-58s %s   (target >= 0.5)\n" "full model / bare loop (pair by pair)" "$(fmt %.3f "$sr")"
printf "%-58s %s\n" "toy on gvlsim's engine / bare loop" "$(fmt %.3f "$str")"
bench_json_add bigger "bare loop (toy GVL ping-pong, minimal heap)" "M events/s" "$(col 2 "$sb")" "$(col 1 "$sb") .. $(col 3 "$sb")" "$note"
bench_json_add bigger "toy model on gvlsim's engine" "M events/s" "$(col 2 "$st")" "$(col 1 "$st") .. $(col 3 "$st")" "$note"
bench_json_add bigger "queue_pingpong 2 cores, full model" "M events/s" "$(col 2 "$sf")" "$(col 1 "$sf") .. $(col 3 "$sf")" "$note"
bench_json_add bigger "full model / bare loop" "ratio" "$(col 2 "$sr")" "$(col 1 "$sr") .. $(col 3 "$sr")" "$note; target >= 0.5"
bench_json_add bigger "toy on gvlsim's engine / bare loop" "ratio" "$(col 2 "$str")" "$(col 1 "$str") .. $(col 3 "$str")" "$note"

# ---- against an older build ---------------------------------------------------
echo
if [ -n "$base" ] && [ -x "$base" ]; then
    echo "== 1M-message queue ping-pong: this build vs $base, interleaved (whole-process wall seconds)"
    for cores in 2 1; do
        paired "queue_pingpong, $cores core(s), this build" "queue_pingpong, $cores core(s), base build" s %.3f \
            wall_s "$bin $pp --set machine.cores=$cores" wall_s "$base $pp --set machine.cores=$cores"
        printf "%-58s %s x   (target >= 2)\n" "speed-up (base / this, pair by pair)" "$(fmt %.2f "$sr")"
        bench_json_add smaller "queue_pingpong 1M messages, $cores core(s), whole process" "s" "$(col 2 "$sa")" "$(col 1 "$sa") .. $(col 3 "$sa")" "$note; whole process"
        bench_json_add smaller "queue_pingpong 1M messages, $cores core(s), whole process, base build" "s" "$(col 2 "$sb")" "$(col 1 "$sb") .. $(col 3 "$sb")" "$note; whole process; base $base"
        bench_json_add bigger "queue_pingpong $cores core(s), speed-up over the base build" "x" "$(col 2 "$sr")" "$(col 1 "$sr") .. $(col 3 "$sr")" "$note; base $base"
    done
else
    echo "== no base build to compare with (make bench BENCH_BASE_REV=...; scripts/bench_base.sh)"
fi

# ---- instructions (exact) -------------------------------------------------------
# The same ping-pong, 200k messages, under callgrind: instructions executed
# are the same on every run and every load, so this ratio holds on a noisy
# host where the timed one above does not (and on a guest without hardware
# counters, where `perf stat` cannot count them).
echo
pp200k="$pp --set ractors.0.threads.0.program.0.times=40000 --set ractors.0.threads.1.program.0.times=200000"
# insns GVLSIM ARGS...: "INSTRUCTIONS EVENTS" of one run under callgrind
insns() {
    i_bin=$1; shift
    # shellcheck disable=SC2086
    i_out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$i_bin" run "$@" -q 2>"$tmpd/cg.err") ||
        { echo "bench: callgrind $i_bin run $* failed" >&2; return 1; }
    echo "$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmpd/cg.err") $(echo "$i_out" | awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        NR == 2 { print $c["engine_events"] }')"
}
if ! command -v valgrind >/dev/null 2>&1; then
    echo "== instructions: no valgrind on this host (apt-get install valgrind)"
else
    echo "== instructions per message (callgrind, exact): queue_pingpong, 200k messages"
    for cores in 2 1; do
        # shellcheck disable=SC2086
        ia=$(insns "$bin" $pp200k --set machine.cores=$cores) || continue
        printf "%-58s %s\n" "queue_pingpong, $cores core(s), this build" \
            "$(echo "$ia" | awk '{ printf "%.0f insns/message  %.1f insns/event  %.2f events/message", $1 / 2e5, $1 / $2, $2 / 2e5 }')"
        bench_json_add smaller "queue_pingpong $cores core(s), instructions per message" "insns" \
            "$(echo "$ia" | awk '{ printf "%.0f", $1 / 2e5 }')" "" "callgrind, exact; 200k messages"
        [ -n "$base" ] && [ -x "$base" ] || continue
        # shellcheck disable=SC2086
        ib=$(insns "$base" $pp200k --set machine.cores=$cores) || continue
        printf "%-58s %s\n" "queue_pingpong, $cores core(s), base build" \
            "$(echo "$ib" | awk '{ printf "%.0f insns/message  %.1f insns/event  %.2f events/message", $1 / 2e5, $1 / $2, $2 / 2e5 }')"
        ir=$(echo "$ib $ia" | awk '{ printf "%.3f", $1 / $3 }')
        printf "%-58s %s x   (the timed target: >= 2)\n" "fewer instructions (base / this)" "$ir"
        bench_json_add bigger "queue_pingpong $cores core(s), instructions, base / this build" "x" "$ir" "" "callgrind, exact; base $base"
    done
fi

# ---- per-event cost: cores ----------------------------------------------------
# pe_pair NAME TARGET "LABEL A" "ARGS A" "LABEL B" "ARGS B": interleaved
# runs, ns per event of each, and B's cost relative to A's, pair by pair
pe_pair() {
    paired "  $3" "  $5" ns/event %.1f ns_per_event "$4" ns_per_event "$6"
    printf "%-58s %s   (target <= %s)\n" "$1" "$(fmt %.2f "$sr")" "$2"
    bench_json_add smaller "$1" "x" "$(col 2 "$sr")" "$(col 1 "$sr") .. $(col 3 "$sr")" "$note; target <= $2"
    bench_json_add smaller "$1: ns per event, $3" "ns" "$(col 2 "$sa")" "$(col 1 "$sa") .. $(col 3 "$sa")" "$note"
    bench_json_add smaller "$1: ns per event, $5" "ns" "$(col 2 "$sb")" "$(col 1 "$sb") .. $(col 3 "$sb")" "$note"
}

echo
echo "== per-event cost: 1,024 cores vs 8 (queue_pingpong, 200k messages), interleaved"
pe_pair "cost per event, 1024 cores / 8 cores" 1.2 \
    "8 cores" "$pp200k --set machine.cores=8" "1,024 cores" "$pp200k --set machine.cores=1024"

# ---- per-event cost: threads --------------------------------------------------
th1="tests/bench/threads.json $machines --set machine.cores=8"
th64="tests/bench/threads_ractors.json $machines --set machine.cores=8"
echo
echo "== per-event cost: threads (1M calls shared by T threads, 8 cores), interleaved"
pe_pair "cost per event, 10k threads / 2, 1 Ractor" 1.3 \
    "2 threads" "$th1 --set ractors.0.threads.1.count=2" "10k threads" "$th1 --set ractors.0.threads.1.count=10000"
pe_pair "cost per event, 100k threads / 2, 1 Ractor" 2 \
    "2 threads" "$th1 --set ractors.0.threads.1.count=2" "100k threads" "$th1 --set ractors.0.threads.1.count=100000"
pe_pair "cost per event, 10k threads / 64, 64 Ractors" 1.3 \
    "64 Ractors x 1 thread" "$th64 --set ractors.1.threads.0.count=1" \
    "64 Ractors x 157 threads" "$th64 --set ractors.1.threads.0.count=157"
pe_pair "cost per event, 100k threads / 64, 64 Ractors" 2 \
    "64 Ractors x 1 thread" "$th64 --set ractors.1.threads.0.count=1" \
    "64 Ractors x 1,563 threads" "$th64 --set ractors.1.threads.0.count=1563"

# ---- memory per simulated thread ----------------------------------------------
echo
echo "== memory: peak RSS of 100k threads less that of 1 thread, per thread (one call each)"
one="tests/bench/threads.json $machines --set ractors.0.threads.1.program.0.times_total=100000"
# shellcheck disable=SC2086
r1=$("$maxrss" "$bin" run $one --set ractors.0.threads.1.count=1 -q -o /dev/null)
# shellcheck disable=SC2086
rn=$("$maxrss" "$bin" run $one --set ractors.0.threads.1.count=100000 -q -o /dev/null)
bpt=$(echo "$r1 $rn" | awk '{ printf "%.0f", ($2 - $1) * 1024 / 100000 }')
printf "%-58s %s bytes   (peak RSS %s KiB vs %s KiB; target <= 1024, aim 512)\n" \
    "bytes per simulated thread" "$bpt" "$rn" "$r1"
bench_json_add smaller "bytes per simulated thread" "bytes" "$bpt" "" "$note; peak RSS of 100k threads less 1 thread; target <= 1024"

# ---- sweep parallelism --------------------------------------------------------
echo
echo "== sweep: 64 quick points, -j 2 vs -j 1, interleaved (whole-process wall seconds)"
sw="scenarios/mtime_loop.json --param machine.cores=1,2,4,8 --seeds 16 --set ractors.0.threads.1.program.0.times_total=100000 -q --reproducible -o /dev/null"
paired "sweep -j 2" "sweep -j 1" s %.3f sweep_s 2 sweep_s 1
printf "%-58s %s x   (target >= 1.8)\n" "speed-up of -j 2 (-j 1 / -j 2, pair by pair)" "$(fmt %.2f "$sr")"
bench_json_add bigger "sweep -j 2 speed-up over -j 1 (64 points)" "x" "$(col 2 "$sr")" "$(col 1 "$sr") .. $(col 3 "$sr")" "$note; target >= 1.8"
bench_json_add smaller "sweep of 64 points, -j 2" "s" "$(col 2 "$sa")" "$(col 1 "$sa") .. $(col 3 "$sa")" "$note; whole process"
bench_json_add smaller "sweep of 64 points, -j 1" "s" "$(col 2 "$sb")" "$(col 1 "$sb") .. $(col 3 "$sb")" "$note; whole process"


# ---- seed scenarios -----------------------------------------------------------
echo
echo "== simulations: host seconds (min / median / max), events, events/s"
sim() {
    label=$1; shift
    : > $tmpd/t
    for i in $(seq "$runs"); do
        r=$(fig "$bin" "$@") || continue
        echo "$r" | cut -d' ' -f2 >> $tmpd/t
        ev=$(echo "$r" | cut -d' ' -f1)
    done
    s=$(stats < $tmpd/t)
    printf "%-58s %s s  %9s events  %6.1fM events/s\n" "$label" "$(fmt %.3f "$s")" "$ev" \
        "$(echo "$ev $(col 2 "$s")" | awk '{ print $1 / $2 / 1e6 }')"
    bench_json_add smaller "$label" "s" "$(col 2 "$s")" "$(col 1 "$s") .. $(col 3 "$s")" "$note; $ev events"
    bench_json_add bigger "$label: events per second" "M events/s" \
        "$(echo "$ev $(col 2 "$s")" | awk '{ printf "%.3f", $1 / $2 / 1e6 }')" "" "$note; $ev events, at the median time"

}
sim "queue_pingpong 1M messages, 1 core" "$pp" --set machine.cores=1
sim "queue_pingpong 1M messages, 2 cores" "$pp" --set machine.cores=2
sim "mtime_loop 1M calls, 8 threads, 2 cores" scenarios/mtime_loop.json --set machine.cores=2
sim "mtime_loop 1M calls, 8 threads, 8 cores" scenarios/mtime_loop.json --set machine.cores=8
# the validation's own workload: Ruby 3.1's GVL (barging: a designated
# timer in a 100 ms timed wait, cancelled at every signal) under a profile
# `gvlsim calibrate` wrote, co-running factor and hidden steal included.
# The runs above (report_m4, eager) never cancel a timed wait: the engine's
# pile of dead timeouts (docs/bench.md, "Dead timeouts") showed only here.
cal=docs/data/validate/hosts/epyc-2vcpu-2026-12-04-v1272-s24/host.json
sim "queue_pingpong 1M messages, Ruby 3.1, 2 cores, calibrated" "$pp" --set 'runtime={"ruby":"3.1"}' \
    --set machine="$cal" --set machine.cores=2
# further lines are added by the Ractor, M:N and executor work (scripts/bench.d/*.sh)
for extra in scripts/bench.d/*.sh; do
    [ -e "$extra" ] || continue
    echo
    . "$extra"
done

echo
if bench_json_write "$out/bench.json" "$out/bench-bigger.json"; then
    echo "wrote $out/bench.json (smaller is better) and $out/bench-bigger.json (bigger is better)"
else
    echo "bench: could not write $out/bench.json" >&2
    exit 5
fi
