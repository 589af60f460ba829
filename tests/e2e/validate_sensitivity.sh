#!/bin/sh
# validate_sensitivity.sh BINARY - `gvlsim validate --sensitivity` end to
# end, simulator only (the real side is --measured rows written here): on
# a profile whose calibration moves one key (tests/data/machines/
# calibrated.json: syscall_stat_ns 500 / 1000 / 2000 ns -> syscalls.stat),
# each figure's range is exactly the figures of the profile with that key
# at 500 ns and at 2 us, and names syscalls.stat; a key that is not its
# calibration's derivation, and one the command line sets, are left out
# and said so; every report form; the same bytes twice; every error class.
set -u
bin=$1
. tests/e2e/lib.inc

prof=tests/data/machines/calibrated.json
mtime="scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=2000 --set ractors.0.threads.1.count=2
       --set ractors.0.threads.1.program.0.body.1.dur=machine"
# measured rows as `validate --rows` writes them (only the columns --measured reads)
rows=$tmp/rows.csv
{
    echo "point,rep,machine.cores,backend,engine,wall_s,ops,vol_switches,gvl_handoffs"
    echo "0,0,1,pthread,pthread,0.004,2000,10,8"
    echo "1,0,2,pthread,pthread,0.006,2000,900,800"
} >"$rows"

# sim_at STAT COL METRIC CORES: the simulated COL of a plain validate with
# syscalls.stat at STAT ("" for the profile's own)
sim_at() {
    set_stat=""
    [ -n "$1" ] && set_stat="--set machine.syscalls.stat=$1"
    # shellcheck disable=SC2086
    "$bin" validate $mtime --backend sim,pthread --set machine=$prof $set_stat --measured "$rows" -q \
        -o "$tmp/plain.csv" >/dev/null 2>&1 || echo "validate failed"
    awk -F, -v col="$2" -v m="$3" -v c="$4" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $h["metric"] == m && $h["machine.cores"] == c { print $h[col] }' "$tmp/plain.csv"
}
# cell COL METRIC CORES FILE: a cell of a sensitivity table
cell() {
    awk -F, -v col="$1" -v m="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $h["metric"] == m && $h["machine.cores"] == c { print $h[col] }' "$4"
}

# -- the range is the figure at q1 and at q3 of syscall_stat_ns
# shellcheck disable=SC2086
run validate $mtime --backend sim,pthread --set machine=$prof --measured "$rows" --sensitivity -o "$tmp/s.csv"
expect_code 0 "validate --sensitivity"
checks=$((checks + 1))
head -n 1 "$tmp/s.csv" | grep -qx 'point,machine.cores,metric,backend,engine,simulated,measured_min,measured_median,measured_max,runs,rel_error,range_min,range_max,sensitive_to,sensitive_measurement' ||
    fail "table header: $(head -n 1 "$tmp/s.csv")"
expect_match err '^validate: sensitivity 1/2: syscall_stat_ns at q1 \(500\): syscalls.stat$' "progress, q1"
expect_match err '^validate: sensitivity 2/2: syscall_stat_ns at q3 \(2000\): syscalls.stat$' "progress, q3"
expect_match out 'range over the IQRs +most sensitive to$' "text header"
expect_match out '\(2 variants, 1 seed each' "text note: variants"
expect_match out 'not varied \(the profile.s value is not its calibration.s derivation\): syscalls.write_devnull' "text note: a hand-set key"
expect_match out '1 measurement this gvlsim does not derive keys from' "text note: an unknown measurement"
for m in "wall_s 1" "wall_s 2" "cores_ratio 2" "vol_switches_per_op 2"; do
    set -- $m
    lo=$(sim_at 500ns simulated "$1" "$2"); mid=$(sim_at "" simulated "$1" "$2"); hi=$(sim_at 2us simulated "$1" "$2")
    want_lo=$(printf '%s\n%s\n%s\n' "$lo" "$mid" "$hi" | sort -g | head -n 1)
    want_hi=$(printf '%s\n%s\n%s\n' "$lo" "$mid" "$hi" | sort -g | tail -n 1)
    checks=$((checks + 1))
    got="$(cell range_min "$1" "$2" "$tmp/s.csv") $(cell range_max "$1" "$2" "$tmp/s.csv")"
    [ "$got" = "$want_lo $want_hi" ] || fail "$1 at $2 cores: range $got, want $want_lo $want_hi (stat 500ns: $lo, 1us: $mid, 2us: $hi)"
    checks=$((checks + 1))
    [ "$(cell simulated "$1" "$2" "$tmp/s.csv")" = "$mid" ] || fail "$1 at $2 cores: simulated moved"
done
# the one-core wall time grows with the stat's cost: a real range, named
checks=$((checks + 1))
[ "$(cell range_min wall_s 1 "$tmp/s.csv")" != "$(cell range_max wall_s 1 "$tmp/s.csv")" ] || fail "wall_s at 1 core: no range"
expect_col_in() {  # COL METRIC CORES VALUE WHAT
    checks=$((checks + 1))
    v=$(cell "$1" "$2" "$3" "$tmp/s.csv")
    [ "$v" = "$4" ] || fail "$5: $1 is '$v', want '$4'"
}
expect_col_in sensitive_to wall_s 1 syscalls.stat "wall_s, 1 core"
expect_col_in sensitive_measurement wall_s 1 syscall_stat_ns "wall_s, 1 core"

# -- the same bytes twice; markdown and JSON carry the same
cp "$tmp/s.csv" "$tmp/s1.csv"
# shellcheck disable=SC2086
run validate $mtime --backend sim,pthread --set machine=$prof --measured "$rows" --sensitivity -o "$tmp/s.csv" -q --report json
expect_code 0 "validate --sensitivity --report json"
checks=$((checks + 1))
cmp -s "$tmp/s.csv" "$tmp/s1.csv" || fail "a second run wrote other rows"
expect_match out '"sensitivity":\{"seeds":1,"variants":2,"note":"not varied' "json: sensitivity"
expect_match out '"sensitive_to":"syscalls.stat"' "json: rows"
# shellcheck disable=SC2086
run validate $mtime --backend sim,pthread --set machine=$prof --measured "$rows" --sensitivity -q --report markdown
expect_code 0 "validate --sensitivity --report markdown"
expect_match out '^\| configuration \| metric \| simulated \| pthread \| error \| range over the IQRs \| most sensitive to \|$' "markdown header"

# -- --seeds 3 --sensitivity-seeds 1: the variants under the first seed
# shellcheck disable=SC2086
run validate $mtime --backend sim,pthread --set machine=$prof --measured "$rows" --sensitivity --seeds 3 \
    --sensitivity-seeds 1 -q -o "$tmp/s3.csv"
expect_code 0 "validate --seeds 3 --sensitivity-seeds 1"
expect_match out '\(2 variants, 1 seed each' "seeds: note"

# -- a key the command line sets is not moved
# shellcheck disable=SC2086
run validate $mtime --backend sim,pthread --set machine=$prof --set machine.syscalls.stat=1us --measured "$rows" \
    --sensitivity -q -o "$tmp/s4.csv"
expect_code 0 "validate --sensitivity, stat set"
expect_match out '\(0 variants, 1 seed each' "set key: no variant"
expect_match out 'not varied \(set on the command line\): syscalls.stat' "set key: said"
checks=$((checks + 1))
[ "$(cell range_min wall_s 1 "$tmp/s4.csv")" = "$(cell range_max wall_s 1 "$tmp/s4.csv")" ] || fail "set key: a range"

# -- errors
# a shipped profile: no calibration (exit 3, the profile's file:line:col)
# shellcheck disable=SC2086
run validate scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=2000 --backend sim,pthread \
    --measured "$rows" --sensitivity -o "$tmp/e.csv"
expect_code 3 "a profile without calibration"
expect_match err '^gvlsim validate: --sensitivity: scenarios/machines/report_m4.json:1:1: no "calibration" section: ' "no calibration: message"
checks=$((checks + 1))
[ ! -e "$tmp/e.csv" ] || fail "no calibration: wrote -o"
# quartiles out of order, a measurement named twice: file:line:col and pointer
sed 's/"median": 1000, "q1": 500/"median": 1000, "q1": 1500/' "$prof" >"$tmp/order.json"
# shellcheck disable=SC2086
run validate $mtime --backend sim,pthread --set machine="$tmp/order.json" --measured "$rows" --sensitivity
expect_code 3 "quartiles out of order"
expect_match err "^gvlsim validate: --sensitivity: $tmp/order.json:10:72: /calibration/measurements/0: measurement \"syscall_stat_ns\": q1 1500, median 1000, q3 2000 are not in order$" "order: message"
sed 's/"syscall_write_ns"/"syscall_stat_ns"/' "$prof" >"$tmp/twice.json"
# shellcheck disable=SC2086
run validate $mtime --backend sim,pthread --set machine="$tmp/twice.json" --measured "$rows" --sensitivity
expect_code 3 "a measurement named twice"
expect_match err "^gvlsim validate: --sensitivity: $tmp/twice.json:11:17: /calibration/measurements/1: measurement \"syscall_stat_ns\" named twice$" "twice: message"
# usage
# shellcheck disable=SC2086
run validate $mtime --backend sim,pthread --set machine=$prof --measured "$rows" --sensitivity-seeds 1
expect_code 2 "--sensitivity-seeds alone"
expect_match err 'sensitivity-seeds is for --sensitivity' "seeds alone: message"
# shellcheck disable=SC2086
run validate $mtime --backend sim,pthread --set machine=$prof --measured "$rows" --sensitivity --sensitivity-seeds 2
expect_code 2 "--sensitivity-seeds above --seeds"
expect_match err 'more than --seeds 1' "seeds above: message"

finish "$script"
