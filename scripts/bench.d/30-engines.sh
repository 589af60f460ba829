# sourced by scripts/bench.sh: the native and the SimGrid engine on the same
# scenarios (scripts/engines_bench.sh measures them, the docs' renderer
# prints the table of docs/engines.md from that measurement).
echo "== engines: native vs SimGrid on the same scenarios ($runs interleaved runs each)"
if ! "$bin" run tests/data/minimal.json --engine simgrid -q -o /dev/null 2>/dev/null; then
    echo "(no SimGrid engine in this build)"
else
    engines_tmp=$(mktemp -d)
    if scripts/engines_bench.sh "$bin" "$engines_tmp/engines" "$runs"; then
        awk -v ARGS="$engines_tmp/engines" -f scripts/docs/lib.awk -f scripts/docs/tables/engines_speed.awk \
            "$engines_tmp/engines/raw.csv" "$engines_tmp/engines/host.txt"
    fi
    rm -rf "$engines_tmp"
fi
