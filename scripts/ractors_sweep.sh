#!/bin/sh
# ractors_sweep.sh [BINARY] [CORES] - the bug #22224 sweep of docs/ractors.md:
# proc_heavy under lock_barrier, lockless and none, and the calc control,
# for 1..64 worker Ractors on CORES cores (default: the profile's 10), as a
# Markdown table.  Every figure comes from one `gvlsim run` (100 ms each).
set -eu
bin=${1:-./gvlsim}
cores=${2:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# field NAME FILE: the value of CSV column NAME in the row of FILE
field() {
    awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
                          NR == 2 { print $c }' "$2"
}

run() {  # run SCENARIO N OUT [--set ...]
    s=$1 n=$2 o=$3
    shift 3
    "$bin" run "$s" --set ractors.1.count="$n" --set machine.cores="$cores" \
        --reproducible -q -o "$o" "$@"
}

echo "| workers | lock_barrier ops/s | µs per barrier | barriers / ops | workers in barrier_join + vmlock_wait | lockless ops/s | none ops/s | calc iters/s |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in 1 2 4 8 16 32 64; do
    run scenarios/proc_heavy.json "$n" "$tmp/lb.csv"
    run scenarios/proc_heavy.json "$n" "$tmp/ll.csv" --set runtime.invariant_check=lockless
    run scenarios/proc_heavy.json "$n" "$tmp/no.csv" --set runtime.invariant_check=none
    run scenarios/calc.json "$n" "$tmp/calc.csv"
    wall=$(field wall_s "$tmp/lb.csv")
    ops=$(field ops "$tmp/lb.csv")
    bar=$(field barriers "$tmp/lb.csv")
    join=$(field barrier_join_s "$tmp/lb.csv")
    vmw=$(field vmlock_wait_s "$tmp/lb.csv")
    parked=$(field parked_s "$tmp/lb.csv")
    awk -v n="$n" -v wall="$wall" -v ops="$ops" -v bar="$bar" -v join="$join" -v vmw="$vmw" \
        -v parked="$parked" -v ll="$(field ops_per_s "$tmp/ll.csv")" \
        -v no="$(field ops_per_s "$tmp/no.csv")" -v calc="$(field ops_per_s "$tmp/calc.csv")" \
        'BEGIN {
            # worker thread time: all (n+1) threads minus main, parked throughout
            wt = (n + 1) * wall - parked
            printf "| %d | %.0f | %.2f | %.3f | %.0f%% | %.0f | %.0f | %.0f |\n", n, ops / wall,
                   (bar > 0 ? wall / bar * 1e6 : 0), (ops > 0 ? bar / ops : 0),
                   100 * (join + vmw) / wt, ll, no, calc * 1000
        }'
done
