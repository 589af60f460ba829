#!/bin/sh
# validate_cmd.sh BINARY - `gvlsim validate` end to end on small sizes: the
# default grid (machine.cores=1,2, or 1 alone on a one-CPU host), the
# table's rows and their counts, the raw rows of every run, the interleaved
# order, --measured (a past measurement against today's simulator) giving
# the same table, the report formats, and every error class.  Nothing here
# depends on timing: counts and the simulated column only (--max-spread 1000
# lets a busy host calibrate the executor's busy loop).
set -u
bin=$1
. tests/e2e/lib.inc

ncpu=$(nproc)
cores=1,2
[ "$ncpu" -ge 2 ] || cores=1
mtime="scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=2000 --set ractors.0.threads.1.count=2"

# -- sim against the executor, 2 runs each, every output
run validate $mtime --backend sim,pthread --reps 2 --max-spread 1000 --param machine.cores=$cores --param runtime.gvl_policy=eager,barging \
    -o "$tmp/t.csv" --rows "$tmp/rows.csv"
expect_code 0 "validate sim,pthread"
expect_match out '^mtime_loop: simulated against measured, 2 runs per backend and configuration' "report title"
expect_match out '^host: .*, [0-9]+ CPUs, Linux .*; simulated with machine profile report_m4$' "report host"
expect_match out '^1-minute load average: [0-9.]+ before the runs, [0-9.]+ after' "report load"
expect_match out '^configuration +metric +simulated +pthread: min / median / max +error$' "report header"
expect_match out '^machine.cores=1 runtime.gvl_policy=eager +wall_s ' "first configuration"
expect_match err '^validate: 1/' "progress"
npoints=2
[ "$cores" = 1 ] || npoints=4
# the raw rows: npoints simulated + 2 x npoints measured, header first
checks=$((checks + 1))
[ "$(wc -l <"$tmp/rows.csv")" -eq $((1 + 3 * npoints)) ] || fail "rows.csv: $(wc -l <"$tmp/rows.csv") lines"
checks=$((checks + 1))
head -n 1 "$tmp/rows.csv" | grep -q '^point,rep,machine.cores,runtime.gvl_policy,scenario,backend,engine,' ||
    fail "rows.csv header: $(head -n 1 "$tmp/rows.csv")"
# interleaved: the measured rows go point 0..n-1 (rep 0), then again (rep 1)
checks=$((checks + 1))
order=$(awk -F, 'NR > 1 && $6 == "pthread" { printf "%s:%s ", $1, $2 }' "$tmp/rows.csv")
want=$(awk -v n=$npoints 'BEGIN { for (k = 0; k < 2; k++) for (p = 0; p < n; p++) printf "%d:%d ", p, k }')
[ "$order" = "$want" ] || fail "measured rows out of order: $order (want $want)"
# every measured run counted its 2000 calls
checks=$((checks + 1))
bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ops") c = i; next } $c != 2000' "$tmp/rows.csv")
[ -z "$bad" ] || fail "rows with ops != 2000: $bad"
# the table: per point wall_s, vol/op, handoffs/op (+ cores_ratio at 2 cores)
checks=$((checks + 1))
head -n 1 "$tmp/t.csv" | grep -qx 'point,machine.cores,runtime.gvl_policy,metric,backend,engine,simulated,measured_min,measured_median,measured_max,runs,rel_error' ||
    fail "table header: $(head -n 1 "$tmp/t.csv")"
nrows=$((3 * npoints))
[ "$cores" = 1 ] || nrows=$((nrows + 2))
checks=$((checks + 1))
[ "$(wc -l <"$tmp/t.csv")" -eq $((1 + nrows)) ] || fail "table: $(wc -l <"$tmp/t.csv") lines, expected $((1 + nrows))"
checks=$((checks + 1))
awk -F, 'NR > 1 && ($11 != 2 || $5 != "pthread" || $6 != "pthread") { bad = 1 } END { exit bad }' "$tmp/t.csv" ||
    fail "table rows without 2 pthread runs: $(cat "$tmp/t.csv")"
if [ "$cores" != 1 ]; then
    checks=$((checks + 1))
    grep -q '^2,2,eager,cores_ratio,pthread,pthread,' "$tmp/t.csv" || fail "no cores_ratio row at 2 cores, eager"
fi
# the simulated column is the simulator's: wall_s of point 0 = gvlsim run's
run run $mtime --set machine.cores=1 --set runtime.gvl_policy=eager -o "$tmp/run.csv" -q
want=$(csv_col wall_s "$tmp/run.csv")
checks=$((checks + 1))
got=$(awk -F, '$1 == 0 && $4 == "wall_s" { print $7 }' "$tmp/t.csv")
awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; exit !(d < 1e-9 && d > -1e-9) }' || fail "simulated wall_s $got, gvlsim run: $want"

# -- --measured: the same table from the rows, without running anything real
run validate $mtime --backend sim,pthread --param machine.cores=$cores --param runtime.gvl_policy=eager,barging \
    --measured "$tmp/rows.csv" -o "$tmp/t2.csv" -q
expect_code 0 "validate --measured"
expect_empty err "--measured -q"
checks=$((checks + 1))
cmp -s "$tmp/t.csv" "$tmp/t2.csv" || fail "--measured table differs: $(diff "$tmp/t.csv" "$tmp/t2.csv")"
expect_match out "^host: the runs of $tmp/rows.csv; simulated with machine profile report_m4\$" "--measured host line"
# a subset of the grid is found in the rows too
run validate $mtime --backend sim,pthread --param machine.cores=1 --param runtime.gvl_policy=barging \
    --measured "$tmp/rows.csv" --report json -q
expect_code 0 "--measured subset"
expect_match out '^\{"scenario":"mtime_loop","host":"the runs of .*","runs_per_backend":2,"backends":\[\{"backend":"pthread","engine":"pthread"\}\],"rows":\[$' "json report"
expect_match out '^\{"point":0,"machine.cores":1,"runtime.gvl_policy":"barging","metric":"wall_s","backend":"pthread","engine":"pthread",' "json row"
run validate $mtime --backend sim,pthread --param machine.cores=1 --param runtime.gvl_policy=barging \
    --measured "$tmp/rows.csv" --report markdown -q
expect_match out '^\| configuration \| metric \| simulated \| pthread: min / median / max \| error \|$' "markdown header"
expect_match out '^\| machine.cores=1 runtime.gvl_policy=barging \| wall_s \| ' "markdown row"
# rows of another grid, of another backend, malformed
run validate $mtime --backend sim,pthread --param runtime.yjit=true,false --measured "$tmp/rows.csv" -q
expect_code 3 "--measured: a key the rows lack"
expect_match err 'no column runtime.yjit: its rows were measured over another grid' "--measured other grid message"
run validate $mtime --backend sim,ruby --param machine.cores=1 --param runtime.gvl_policy=eager --measured "$tmp/rows.csv" -q
expect_code 3 "--measured: no row of the backend"
expect_match err 'no ruby run of any configuration of this grid' "--measured no backend message"
printf 'point,rep,machine.cores\n0,0,1\n' >"$tmp/bad.csv"
run validate $mtime --backend sim,pthread --measured "$tmp/bad.csv"
expect_code 3 "--measured: not rows of validate"
expect_match err 'no column backend' "--measured bad file message"
run validate $mtime --backend sim,pthread --measured "$tmp/missing.csv"
expect_code 5 "--measured: unreadable"
run validate $mtime --backend sim,pthread --measured "$tmp/rows.csv" --reps 2
expect_code 2 "--measured with --reps"

# -- usage errors: nothing runs, nothing is written
for b in sim pthread,ruby; do
    run validate $mtime --backend $b -o "$tmp/u.csv"
    expect_code 2 "--backend $b"
    expect_match err 'needs sim and at least one real backend' "--backend $b message"
done
run validate $mtime --backend sim,pthread,jvm
expect_code 2 "--backend unknown"
run validate $mtime --backend sim,pthread --ruby /usr/bin/ruby
expect_code 2 "--ruby without the ruby backend"
run validate $mtime --reps 0
expect_code 2 "--reps 0"
run validate $mtime --param machine.cores=
expect_code 2 "empty --param value"
checks=$((checks + 1))
[ ! -e "$tmp/u.csv" ] || fail "a usage error wrote -o"

# -- invalid scenario or value (exit 3); more cores than the host has
run validate $mtime --backend sim,pthread --param runtime.gvl_policy=eager,fastest -o "$tmp/u.csv"
expect_code 3 "invalid --param value"
expect_match err 'configuration 2 \(runtime.gvl_policy=fastest machine.cores=1\):' "invalid point named"
run validate $mtime --backend sim,pthread --param machine.cores=$((ncpu + 1)) --reps 1 -o "$tmp/u.csv" -q
expect_code 3 "more cores than the host"
expect_match err "pthread, machine.cores=$((ncpu + 1)), run 1 failed:" "too many cores message"
checks=$((checks + 1))
[ ! -e "$tmp/u.csv" ] || fail "a failed validation wrote -o"
# an unwritable output
run validate $mtime --backend sim,pthread --param machine.cores=1 --reps 1 -o /nonexistent/dir/t.csv -q
expect_code 5 "unwritable -o"

# -- the ruby backend, when there is one: counts only
if command -v ruby >/dev/null 2>&1; then
    run validate $mtime --set 'runtime={"ruby": "3.1"}' --backend sim,ruby --param machine.cores=1 --reps 1 \
        --max-spread 1000 -o "$tmp/r.csv" -q
    expect_code 0 "validate sim,ruby"
    expect_match out '^configuration +metric +simulated +ruby [0-9.]+ +error$' "ruby column (one run: no min / max)"
    checks=$((checks + 1))
    grep -q '^0,1,gvl_handoffs_per_op,ruby,ruby [0-9.]*,[0-9.e-]*,,,,0,$' "$tmp/r.csv" ||
        fail "hand-offs of the ruby backend are not measured: $(cat "$tmp/r.csv")"
fi
finish "$script"
