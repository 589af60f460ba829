#!/bin/sh
# validate_cmd.sh BINARY - `gvlsim validate` end to end on small sizes: the
# default grid (machine.cores=1,2, or 1 alone on a one-CPU host), the
# table's rows and their counts, the raw rows of every run, the interleaved
# order, --measured (a past measurement against today's simulator) giving
# the same table, the report formats, and every error class.  Nothing here
# depends on timing: counts and the simulated column only (--max-spread 1000
# lets a busy host calibrate the executor's busy loop).
# real-threads: validate on the pthread backend (`make test` runs such scripts with nothing else at work: tests/e2e/run.sh)
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
# every real run's row has its probes (the wake probe's cost to its waker:
# a FUTEX_WAKE, more than 100 ns; the speed probe's stat(2), 100 ns to
# 1 ms), the simulator's none
checks=$((checks + 1))
bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "line_probe_ns") l = i; if ($i == "wake_probe_ns") w = i
                                                      if ($i == "speed_slow_share") s = i; if ($i == "backend") b = i
                                                      if ($i == "wake_cost_probe_ns") c = i; if ($i == "stat_probe_ns") t = i }
                         if (!l || !w || !s || !c || !t || w != l + 1 || s != w + 1 || c != s + 1 || t != c + 1 || t != NF) { print "header: " $0; exit } next }
               $b == "pthread" && !($l > 0 && $w > 1000 && $w < 1e6 && $s ~ /^[01]\.[0-9][0-9][0-9]$/ && $s <= 1 && $c > 100 && $c < 1e6 && $t > 100 && $t < 1e6) { print NR ": " $l " " $w " " $s " " $c " " $t }
               $b == "sim" && ($l != "" || $w != "" || $s != "" || $c != "" || $t != "") { print NR ": " $l " " $w " " $s " " $c " " $t }' "$tmp/rows.csv")
[ -z "$bad" ] || fail "rows' probes: $bad"
# every measured run counted its 2000 calls
checks=$((checks + 1))
bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ops") c = i; next } $c != 2000' "$tmp/rows.csv")
[ -z "$bad" ] || fail "rows with ops != 2000: $bad"
# the table: per point wall_s, vol/op, handoffs/op, cpus_busy (+ cores_ratio at 2 cores)
checks=$((checks + 1))
head -n 1 "$tmp/t.csv" | grep -qx 'point,machine.cores,runtime.gvl_policy,metric,backend,engine,simulated,measured_min,measured_median,measured_max,runs,rel_error' ||
    fail "table header: $(head -n 1 "$tmp/t.csv")"
nrows=$((4 * npoints))
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
# report_m4 is another machine's profile: its wake_idle_core may be more
# than 15% from this host's wake probes, which -q still warns of
# (and its speed levels, none, from this host's slow share)
grep -v '^gvlsim validate: warning: the \(wake\|speed\) probe before ' "$tmp/err" >"$tmp/err.rest"
mv "$tmp/err.rest" "$tmp/err"
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

# -- --seeds N: the simulator under N seeds (sweep's: the scenario's seed,
# then SplitMix64 ones), the simulated column their median, with min / max
run validate $mtime --backend sim,pthread --param machine.cores=$cores --param runtime.gvl_policy=eager,barging \
    --measured "$tmp/rows.csv" --seeds 1 -o "$tmp/s1.csv" -q
expect_code 0 "--seeds 1"
checks=$((checks + 1))
cmp -s "$tmp/t2.csv" "$tmp/s1.csv" || fail "--seeds 1 differs from no --seeds: $(diff "$tmp/t2.csv" "$tmp/s1.csv")"
run validate $mtime --backend sim,pthread --param machine.cores=$cores --param runtime.gvl_policy=eager \
    --measured "$tmp/rows.csv" --seeds 3 -o "$tmp/s3.csv" --rows "$tmp/s3rows.csv"
expect_code 0 "--seeds 3"
expect_match out '^mtime_loop: simulated against measured, the simulator under 3 seeds, 2 runs per backend and configuration' "--seeds title"
expect_match out '^configuration +metric +simulated: min / median / max +pthread: min / median / max +error$' "--seeds header"
expect_match err '^validate: 1/[0-9]+ sim machine.cores=1 runtime.gvl_policy=eager seed 1: wall ' "--seeds progress"
checks=$((checks + 1))
head -n 1 "$tmp/s3.csv" | grep -qx 'point,machine.cores,runtime.gvl_policy,metric,backend,engine,simulated,measured_min,measured_median,measured_max,runs,rel_error,simulated_min,simulated_max,simulated_runs' ||
    fail "--seeds table header: $(head -n 1 "$tmp/s3.csv")"
# the same three seeds as `sweep --seeds 3`: median, min and max of their wall_s
run sweep $mtime --set runtime.gvl_policy=eager --param machine.cores=$cores --seeds 3 -q -o "$tmp/sw.csv"
expect_code 0 "sweep --seeds 3"
# sweep_col POINT COLUMN: the values of COLUMN in sweep point POINT's rows, sorted
sweep_col() {
    awk -F, -v p="$1" -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
        $1 == p { print $c }' "$tmp/sw.csv" | sort -g
}
checks=$((checks + 1))
want=$(sweep_col 0 wall_s | tr '\n' ' ')
got=$(awk -F, '$1 == 0 && $4 == "wall_s" { print $13, $7, $14, $15 }' "$tmp/s3.csv")
awk -v w="$want" -v g="$got" 'BEGIN { split(w, a, " "); split(g, b, " ")
    for (i = 1; i <= 3; i++) { d = a[i] - b[i]; if (d > 1e-9 || d < -1e-9) exit 1 }
    exit b[4] != 3 }' || fail "--seeds 3: simulated min / median / max / runs $got, sweep's wall_s: $want"
# the raw rows: the simulator's run of seed k has rep k and that seed
checks=$((checks + 1))
seeds_rows=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "seed") s = i; if ($i == "backend") b = i }; next }
    $b == "sim" && $1 == 0 { printf "%s:%s ", $2, $s }' "$tmp/s3rows.csv")
seeds_sweep=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "seed") s = i; next }
    $1 == 0 { printf "%s:%s ", $2, $s }' "$tmp/sw.csv")
[ "$seeds_rows" = "$seeds_sweep" ] || fail "--seeds 3 rows: rep:seed $seeds_rows, sweep's $seeds_sweep"
if [ "$cores" != 1 ]; then
    # the ratio seed by seed: the median of wall(2 cores, k) / wall(1 core, k)
    checks=$((checks + 1))
    want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "wall_s") w = i; if ($i == "ops") o = i }; next }
        { t[$1, $2] = $w / $o } END { for (k = 0; k < 3; k++) printf "%.9g\n", t[1, k] / t[0, k] }' "$tmp/sw.csv" | sort -g | sed -n 2p)
    got=$(awk -F, '$4 == "cores_ratio" { print $7 }' "$tmp/s3.csv")
    awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; exit !(d < 1e-6 && d > -1e-6) }' ||
        fail "--seeds 3: simulated cores_ratio $got, the median of the per-seed ratios $want"
fi
# deterministic: the same arguments, the same bytes
run validate $mtime --backend sim,pthread --param machine.cores=$cores --param runtime.gvl_policy=eager \
    --measured "$tmp/rows.csv" --seeds 3 -o "$tmp/s3b.csv" -q
checks=$((checks + 1))
cmp -s "$tmp/s3.csv" "$tmp/s3b.csv" || fail "--seeds 3 twice: the tables differ"
run validate $mtime --backend sim,pthread --param machine.cores=1 --param runtime.gvl_policy=eager \
    --measured "$tmp/rows.csv" --seeds 3 --report json -q
expect_match out '"runs_per_backend":2,"seeds":3,"backends":' "--seeds json"
expect_match out '"simulated_min":[0-9.e-]+,"simulated_max":[0-9.e-]+,"simulated_runs":3\}' "--seeds json row"
for bad in 0 -1 x 100001; do
    run validate $mtime --backend sim,pthread --measured "$tmp/rows.csv" --seeds "$bad" -o "$tmp/u.csv"
    expect_code 2 "--seeds $bad"
    expect_match err "^gvlsim validate: --seeds needs an integer 1[.][.]100000, got \"$bad\"" "--seeds $bad message"
done

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
