#!/bin/sh
# cache_probe.sh BINARY - the cache-regime probe: `calibrate --only cache`
# writes the cache keys and cache_probe only, with the probes among its
# measurements; `validate` records the probe before each configuration's
# real runs (--rows column line_probe_ns, the report's note), reads it back
# with --measured, and warns when it differs from the profile's
# cache_probe by more than 1.5x; bad values are errors.  The warning is
# checked on --measured rows (no timing involved) and, on a host with two
# CPUs, on real runs against a profile whose cache_probe no probe can meet.
# real-threads: gvlsim calibrate --only cache and validate on the pthread backend (`make test` runs such scripts with nothing else at work: tests/e2e/run.sh)
set -u
bin=$1
. tests/e2e/lib.inc

ncpu=$(nproc)
mtime="scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=500"

# -- usage and schema errors
run calibrate --only bogus
expect_code 2 "--only bogus"
expect_match err "only" "--only bogus named"
run check $mtime --set machine.cache_probe=-1ns
expect_code 3 "cache_probe -1ns"
expect_match err "cache_probe" "cache_probe -1ns named"
run check $mtime --set machine.cache_probe=fast
expect_code 3 "cache_probe not a duration"
run check $mtime --set machine.cache_probe=150ns
expect_code 0 "cache_probe 150ns accepted"

# -- a profile whose probe no run meets (1 ms a locked add), one that has none
sed 's/"name": "report_m4"/"name": "far", "cache_probe": "1ms"/' scenarios/machines/report_m4.json >"$tmp/far.json"
grep -q '"cache_probe": "1ms"' "$tmp/far.json" || fail "far.json: sed did not add cache_probe"

# -- --measured: rows with the probe, the warning against the far profile
cat >"$tmp/rows.csv" <<'EOF'
point,rep,machine.cores,backend,engine,wall_s,ops,vol_switches,gvl_handoffs,line_probe_ns
0,0,1,pthread,pthread,0.01,1000,1000,1000,52.5
1,0,2,pthread,pthread,0.02,1000,1500,1000,48.0
0,1,1,pthread,pthread,0.01,1000,1000,1000,55.0
1,1,2,pthread,pthread,0.02,1000,1500,1000,160.0
EOF
run validate $mtime --backend sim,pthread --measured "$tmp/rows.csv" --set machine="$tmp/far.json"
expect_code 0 "--measured, far profile"
expect_match out '^cache probe \(a locked add on a line the other CPU stored to\) before the runs: 48-160 ns; the profile.s cache_probe 1000000 ns$' "--measured: the probes' range"
expect_match err '^gvlsim validate: warning: the cache probe before 4 of 4 configurations. runs differs from the profile.s cache_probe by more than 1.5x .*another cache regime than the profile' "--measured: warning"
# a profile in the runs' regime for three of them: one run (160 ns) met another
run validate $mtime --backend sim,pthread --measured "$tmp/rows.csv" --set machine.cache_probe=50ns
expect_code 0 "--measured, 50 ns profile"
expect_match err 'warning: the cache probe before 1 of 4 configurations. runs .*machine.cores=2, run 2: 160 ns against 50 ns' "--measured: the run that moved"
run validate $mtime --backend sim,pthread --measured "$tmp/rows.csv" --set machine.cache_probe=140ns
expect_match err 'before 3 of 4 ' "--measured: 140 ns profile, three far"
# no cache_probe in the profile: said, no warning
run validate $mtime --backend sim,pthread --measured "$tmp/rows.csv"
expect_code 0 "--measured, no cache_probe"
expect_match out 'the profile records no cache_probe$' "--measured: no cache_probe"
checks=$((checks + 1))
grep -q warning "$tmp/err" && fail "a warning without a cache_probe"
# rows without the column (written before it existed): no note, no warning
cut -d, -f1-9 "$tmp/rows.csv" >"$tmp/old.csv"
run validate $mtime --backend sim,pthread --measured "$tmp/old.csv" --set machine="$tmp/far.json"
expect_code 0 "--measured, rows without line_probe_ns"
checks=$((checks + 1))
grep -q 'cache probe\|warning' "$tmp/out" "$tmp/err" && fail "rows without the probe: a note or warning"
# a bad probe cell: the file and row named
sed 's/,160.0$/,fast/' "$tmp/rows.csv" >"$tmp/bad.csv"
run validate $mtime --backend sim,pthread --measured "$tmp/bad.csv"
expect_code 3 "--measured, bad line_probe_ns"
expect_match err "bad.csv: row 5: line_probe_ns \"fast\" is not a positive number" "bad probe named"
sed 's/,160.0$/,-3/' "$tmp/rows.csv" >"$tmp/bad.csv"
run validate $mtime --backend sim,pthread --measured "$tmp/bad.csv"
expect_code 3 "--measured, negative line_probe_ns"

if [ "$ncpu" -ge 2 ]; then
    # -- calibrate --only cache: the cache keys and cache_probe, nothing else
    run calibrate --only cache -q -o "$tmp/cache.json"
    expect_code 0 "calibrate --only cache"
    expect_has "$tmp/cache.json" "--only cache profile" \
        '"cache_probe": ' '"line_transfer": ' '"lock_line": ' '"remote_rmw": ' '"free_remote": ' '"sched_lock_cs": ' \
        '"line_store_batch": ' '"mutex_uncontended": ' '"name": "line_probe_ns", "unit": "ns", "what": ' \
        '"name": "line_probe_end_ns"' '"key": "cache_probe"' '(cache probe ' '--only cache'
    expect_lacks "$tmp/cache.json" "--only cache profile" \
        '"context_switch": ' '"wake_idle_core": ' '"os_scheduler": ' '"insn_time": '
    checks=$((checks + 1))
    grep -q '"name": "futex_wake_ns".*"note": "not run (--only cache)"' "$tmp/cache.json" ||
        fail "--only cache: futex_wake_ns not marked as not run"
    run check $mtime --set machine="$tmp/cache.json"
    expect_code 0 "the --only cache profile loads"

    # -- calibrate --only speed: the window series alone; its keys only if it saw two levels
    run calibrate --only speed --quick -q -o "$tmp/speed.json"
    expect_code 0 "calibrate --only speed"
    expect_has "$tmp/speed.json" "--only speed profile" '"name": "speed_window_ns", "unit": "ns"' '--only speed'
    expect_lacks "$tmp/speed.json" "--only speed profile" '"context_switch": ' '"cache_probe": ' '"insn_time": '
    checks=$((checks + 1))
    if grep -q '"speed_levels": ' "$tmp/speed.json"; then
        grep -q '"speed_dwell": \["[0-9.]*[mu]*s", "[0-9.]*[mu]*s"\]' "$tmp/speed.json" ||
            fail "--only speed: speed_levels without two dwells"
    else
        grep -q 'one level (90th / 10th percentile' "$tmp/speed.json" || fail "--only speed: no levels and no note why"
    fi
    run check $mtime --set machine="$tmp/speed.json"
    expect_code 0 "the --only speed profile loads"

    # -- real runs: the probe in the rows and the note, the warning against the far profile
    run validate $mtime --backend sim,pthread --reps 2 --max-spread 1000 --set machine="$tmp/far.json" \
        --rows "$tmp/real.csv" -q
    expect_code 0 "validate, far profile"
    expect_match out 'cache probe \(a locked add on a line the other CPU stored to\) before the runs: [0-9]+-[0-9]+ ns; the profile.s cache_probe 1000000 ns; wake probe \(an idle CPU.s wake, wake_idle_core.s measurement\) before the runs: [0-9.]+-[0-9.]+ us; the profile.s wake_idle_core [0-9.]+ us; speed probe \(the share of speed_levels. windows of stat calls at the slow level, each CPU alone\) before the runs: [0-9]+-[0-9]+%; the profile.s slow share [0-9]+%; its stat\(2\) \(the median of those windows. calls\) before the runs: [0-9.]+-[0-9.]+ us$' "real: the note"
    expect_match err '^gvlsim validate: warning: the cache probe before 4 of 4 configurations. runs differs' "real: warning"
    # every pthread row has a probe, no simulator row has one
    checks=$((checks + 1))
    bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "line_probe_ns") c = i; if ($i == "backend") b = i }; next }
                   ($b == "pthread") != ($c ~ /^[0-9.]+$/ && $c > 0) { print }' "$tmp/real.csv")
    [ -z "$bad" ] || fail "rows whose line_probe_ns does not match their backend: $bad"
    # read back: the same note
    run validate $mtime --backend sim,pthread --measured "$tmp/real.csv" --set machine="$tmp/far.json"
    expect_code 0 "--measured of the real rows"
    expect_match err 'before 4 of 4 ' "--measured of the real rows: warning"
else
    # one CPU: no probe, said in the note
    run validate $mtime --backend sim,pthread --reps 1 --max-spread 1000 --set machine="$tmp/far.json"
    expect_code 0 "validate on one CPU"
    expect_match out 'no cache probe: ' "one CPU: no probe"
fi

finish
