#!/bin/sh
# tarai_sweep.sh [BINARY] - the bug #20489 tables of docs/mn.md, measured
# with scenarios/tarai_ractors.json (machine x86_20489).  Prints Markdown.
# Every figure in docs/mn.md comes from this script.
set -eu
bin=${1:-./gvlsim}
scn=scenarios/tarai_ractors.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# row ARGS...: one CSV row (no header) of `gvlsim run` with --set ARGS
row() {
    sets=""
    for a in "$@"; do sets="$sets --set $a"; done
    # shellcheck disable=SC2086
    "$bin" run "$scn" -q --no-header $sets
}
# col NAME: the field number of a CSV column
col() {
    "$bin" run "$scn" -q --set ractors.1.count=1 --set ractors.1.threads.0.program.0.insns=1 |
        head -1 | tr ',' '\n' | grep -n "^$1\$" | cut -d: -f1
}
WALL=$(col wall_s); CPU=$(col cpu_s); SNT=$(col wants_snt_s); XFER=$(col line_transfers)
NT=$(col native_threads); EV=$(col engine_events); HOST=$(col host_s)
f() { echo "$1" | cut -d, -f"$2"; }

echo "### 8 Ractors, RUBY_MAX_CPU=12 (the fix's measurement)"
echo
echo "| counter | wall s (measured) | CPU s (measured) | CPU / wall | line transfers | native threads | events | host s |"
echo "|---|---|---|---|---|---|---|---|"
for c in "shared 24.87 195.55" "thread_local 2.46 19.34" "none 2.53 19.86"; do
    set -- $c
    r=$(row runtime.insn_counter="$1")
    w=$(f "$r" $WALL); u=$(f "$r" $CPU)
    printf '| %s | %.3f (%s) | %.2f (%s) | %.2f | %s | %s | %s | %s |\n' "$1" "$w" "$2" "$u" "$3" \
        "$(echo "$u $w" | awk '{print $1/$2}')" "$(f "$r" $XFER)" "$(f "$r" $NT)" "$(f "$r" $EV)" "$(f "$r" $HOST)"
done
echo
echo "### Default RUBY_MAX_CPU=8: the 3.3/3.4 cap (minus_one) vs #14280 (exact)"
echo
echo "| counter | minus_one wall s | exact wall s | ratio | longest wants_snt s | native threads (minus_one / exact) | CPU s (minus_one / exact) |"
echo "|---|---|---|---|---|---|---|"
for c in thread_local none shared; do
    a=$(row runtime.insn_counter=$c runtime.max_cpu=8)
    b=$(row runtime.insn_counter=$c runtime.max_cpu=8 runtime.snt_cap=exact)
    printf '| %s | %.3f | %.3f | %.2f | %.3f | %s / %s | %.2f / %.2f |\n' $c "$(f "$a" $WALL)" "$(f "$b" $WALL)" \
        "$(echo "$(f "$a" $WALL) $(f "$b" $WALL)" | awk '{print $1/$2}')" "$(f "$a" $SNT)" \
        "$(f "$a" $NT)" "$(f "$b" $NT)" "$(f "$a" $CPU)" "$(f "$b" $CPU)"
done
echo
echo "(wants_snt_s sums over threads; here only the waiting Ractor's thread contributes.)"
echo
echo "### Slowdown vs. number of contending cores k (k Ractors on 16 cores, max_cpu 16, exact)"
echo
echo "| k | none wall s | line | penalty (line_transfer 90 ns) | penalty (line_transfer 23.74 ns, calibrated to k=8) |"
echo "|---|---|---|---|---|"
for k in 1 2 3 4 6 8 12 16; do
    base="machine.cores=16 runtime.max_cpu=16 runtime.snt_cap=exact ractors.1.count=$k"
    # shellcheck disable=SC2086
    n=$(row $base runtime.insn_counter=none); l=$(row $base)
    # shellcheck disable=SC2086
    p=$(row $base runtime.counter_model=penalty)
    # shellcheck disable=SC2086
    q=$(row $base runtime.counter_model=penalty machine.line_transfer=23.74ns)
    nw=$(f "$n" $WALL)
    printf '| %s | %.3f | %.2fx | %.2fx | %.2fx |\n' $k "$nw" \
        "$(echo "$(f "$l" $WALL) $nw" | awk '{print $1/$2}')" \
        "$(echo "$(f "$p" $WALL) $nw" | awk '{print $1/$2}')" \
        "$(echo "$(f "$q" $WALL) $nw" | awk '{print $1/$2}')"
done
echo
echo "### Wall time (s) over Ractors R and cores, shared counter, line model (scenario runtime: max_cpu 12, minus_one)"
echo
for variant in shared none; do
    echo "insn_counter $variant:"
    echo
    echo "| R | 1 core | 2 cores | 4 cores | 8 cores | 16 cores |"
    echo "|---|---|---|---|---|---|"
    for R in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
        line="| $R"
        for c in 1 2 4 8 16; do
            r=$(row runtime.insn_counter=$variant machine.cores=$c ractors.1.count=$R)
            line="$line | $(printf '%.2f' "$(f "$r" $WALL)")"
        done
        echo "$line |"
    done
    echo
done
