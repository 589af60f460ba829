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
    # per label: each engine's M events/s and the ratio run by run (min median max)
    for label in $(grep '^labels=' "$tmpd/engines/host.txt" | cut -d= -f2-); do
        desc=$(grep "^desc.$label=" "$tmpd/engines/host.txt" | cut -d= -f2-)
        grep "^$label/native," "$tmpd/engines/raw.csv" | cut -d, -f4 > "$tmpd/en"
        grep "^$label/simgrid," "$tmpd/engines/raw.csv" | cut -d, -f4 > "$tmpd/es"
        s=$(stats < "$tmpd/en")
        bench_json_add bigger "engines: $desc, native" "M events/s" "$(col 2 "$s")" "$(col 1 "$s") .. $(col 3 "$s")" "$note"
        s=$(stats < "$tmpd/es")
        bench_json_add bigger "engines: $desc, SimGrid" "M events/s" "$(col 2 "$s")" "$(col 1 "$s") .. $(col 3 "$s")" "$note"
        s=$(paste -d' ' "$tmpd/en" "$tmpd/es" | awk '{ print $1 / $2 }' | stats)
        bench_json_add smaller "engines: $desc, native / SimGrid" "x" "$(col 2 "$s")" "$(col 1 "$s") .. $(col 3 "$s")" "$note"
    done
fi
