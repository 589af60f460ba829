# sourced by scripts/bench.sh: the native and the SimGrid engine on the same
# scenarios, runs interleaved (native, simgrid, native, ...); events/s from
# the CSV's engine_events and host_s (host time of the simulation itself,
# without process start-up), medians compared.
echo "== engines: native vs SimGrid, events/s over $runs interleaved runs (min / median / max)"
if ! "$bin" run tests/data/minimal.json --engine simgrid -q -o /dev/null 2>/dev/null; then
    echo "(no SimGrid engine in this build)"
else
    engines_bench() {
        label=$1; shift
        : >"${TMPDIR:-/tmp}/gvlsim-eng.$$"
        for i in $(seq "$runs"); do
            for e in native simgrid; do
                "$bin" run "$@" --engine $e -q | awk -F, -v e=$e '
                    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                    { printf "%s %s %s\n", e, $c["engine_events"], $c["host_s"] }' >>"${TMPDIR:-/tmp}/gvlsim-eng.$$"
            done
        done
        awk -v l="$label" '
            { n[$1]++; ev[$1] = $2; r[$1, n[$1]] = $2 / $3 }
            END {
              for (e in n) {  # sort each engine'"'"'s rates (insertion sort, few runs)
                for (i = 2; i <= n[e]; i++) for (j = i; j > 1 && r[e, j - 1] > r[e, j]; j--) {
                    t = r[e, j]; r[e, j] = r[e, j - 1]; r[e, j - 1] = t }
                med[e] = r[e, int((n[e] + 1) / 2)]
              }
              printf "%-44s %9d events\n", l, ev["native"]
              for (k = 1; k <= 2; k++) { e = k == 1 ? "native" : "simgrid"
                printf "    %-8s %8.2f / %8.2f / %8.2f M events/s\n", e, r[e, 1] / 1e6, med[e] / 1e6,
                       r[e, n[e]] / 1e6 }
              printf "    native/simgrid (medians) = %.1fx\n", med["native"] / med["simgrid"] }' \
            "${TMPDIR:-/tmp}/gvlsim-eng.$$"
        rm -f "${TMPDIR:-/tmp}/gvlsim-eng.$$"
    }
    engines_bench "queue_pingpong 100k messages, 2 cores" scenarios/queue_pingpong.json --set machine.cores=2 \
        --set ractors.0.threads.0.program.0.times=20000 --set ractors.0.threads.1.program.0.times=100000
    engines_bench "mtime_loop 1M calls, 8 threads, 8 cores" scenarios/mtime_loop.json --set machine.cores=8
    engines_bench "io_plus_cpu 10 s, threshold policy" scenarios/io_plus_cpu.json --set runtime.gvl_policy=threshold
    engines_bench "proc_heavy 8 Ractors, VM lock barrier, 20 ms" scenarios/proc_heavy.json --set stop.time=20ms
    engines_bench "mn_pingpong 10k hand-offs, M:N" scenarios/examples/mn_pingpong.json
fi
