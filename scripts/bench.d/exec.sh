# exec.sh - sourced by scripts/bench.sh: the real executor's timings.
RUNS=$runs scripts/bench_exec.sh "$bin" | tee "$tmpd/exec"
# "LABEL   min / median / max s": into the JSON too
sed -n 's/^\(.*[^ ]\)  *\([0-9.]*\) \/  *\([0-9.]*\) \/  *\([0-9.]*\) s$/\1|\2|\3|\4/p' "$tmpd/exec" > "$tmpd/exec.fig"
while IFS='|' read -r x_label x_min x_med x_max; do
    bench_json_add smaller "executor: $x_label" "s" "$x_med" "$x_min .. $x_max" "$note; real threads, wall time"
done < "$tmpd/exec.fig"
