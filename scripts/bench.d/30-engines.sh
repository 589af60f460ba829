# sourced by scripts/bench.sh: the native and the SimGrid engine on the same
# scenarios.  scripts/engines_bench.sh measures them (runs interleaved), the
# renderer of docs/engines.md's table prints the figures, and each engine's
# median events per second goes to the JSON.
echo "== engines: native vs SimGrid on the same scenarios ($runs interleaved runs each)"
if ! "$bin" run tests/data/minimal.json --engine simgrid -q -o /dev/null 2>/dev/null; then
    echo "(no SimGrid engine in this build)"
elif scripts/engines_bench.sh "$bin" "$tmpd/engines" "$runs"; then
    awk -v ARGS="$tmpd/engines" -f scripts/docs/lib.awk -f scripts/docs/tables/engines_speed.awk \
        "$tmpd/engines/raw.csv" "$tmpd/engines/host.txt"
    # LABEL/ENGINE -> "min median max" of M events/s, then the label's description
    for key in $(tail -n +2 "$tmpd/engines/raw.csv" | cut -d, -f1 | awk '!seen[$0]++'); do
        s=$(grep "^$key," "$tmpd/engines/raw.csv" | cut -d, -f4 | stats)
        desc=$(grep "^desc.${key%/*}=" "$tmpd/engines/host.txt" | cut -d= -f2-)
        e=native; [ "${key#*/}" = simgrid ] && e=SimGrid
        bench_json_add bigger "engines: $desc, $e" "M events/s" "$(col 2 "$s")" "$(col 1 "$s") .. $(col 3 "$s")" "$note"
    done
fi
