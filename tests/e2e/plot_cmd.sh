#!/bin/sh
# plot_cmd.sh BINARY - `gvlsim plot`: the gnuplot script (always), the PNG
# (when gnuplot is installed), re-rendering from the script alone, the
# message and exit code 7 without gnuplot, and input errors.
set -u
bin=$1
. tests/e2e/lib.inc
cat >"$tmp/s.csv" <<'CSV'
point,rep,policy,cores,wall_s,host_s
0,0,hot,8,4.0,
0,1,hot,8,6.0,
1,0,hot,1,1.0,
2,0,eager,8,10,
3,0,eager,1,1,
CSV

# -- the script: fixed parts, written beside the PNG
run plot "$tmp/s.csv" --x cores --y wall_s --series policy --logx --script-only -o "$tmp/p.png"
expect_code 0 "--script-only"
checks=$((checks + 1))
[ -s "$tmp/p.gp" ] && [ ! -e "$tmp/p.png" ] || fail "--script-only: expected p.gp and no p.png"
for line in "    set terminal pngcairo size 1280,720 noenhanced font 'DejaVu Sans,11'" \
            "set datafile separator comma" "set logscale x" "8,5,4,6,2" "set ylabel 'wall time'"; do
    checks=$((checks + 1))
    grep -qxF "$line" "$tmp/p.gp" || fail "p.gp lacks: $line"
done
checks=$((checks + 1))
[ "$(tail -n 1 "$tmp/p.gp")" = "unset output" ] || fail "p.gp does not end with unset output"

# -- the PNG, when gnuplot is here (it is after scripts/deps.sh)
if command -v gnuplot >/dev/null 2>&1; then
    run plot "$tmp/s.csv" --x cores --y wall_s --series policy
    expect_code 0 "plot"
    expect_line err "gvlsim plot: wrote $tmp/s.png (script $tmp/s.gp)" "plot message"
    checks=$((checks + 1))
    [ "$(head -c 4 "$tmp/s.png" | od -An -c | tr -d ' ')" = '211PNG' ] || fail "s.png is not a PNG"
    checks=$((checks + 1))
    ls "$tmp" | grep -q tmp && fail "a temporary file was left: $(ls "$tmp")"
    # re-render from the script alone, elsewhere
    (cd "$tmp" && gnuplot -d -c s.gp again.png) >"$tmp/out" 2>"$tmp/err"
    checks=$((checks + 1))
    [ "$(head -c 4 "$tmp/again.png" | od -An -c | tr -d ' ')" = '211PNG' ] || fail "re-render with gnuplot -c failed: $(cat "$tmp/err")"
fi

# -- SVG by suffix; rows in JSON Lines; durations with units; references,
# ratios and the state breakdown
if command -v gnuplot >/dev/null 2>&1; then
    run plot "$tmp/s.csv" --x cores --y wall_s --series policy -o "$tmp/v.svg"
    expect_code 0 "plot to SVG"
    checks=$((checks + 1))
    grep -q '<svg' "$tmp/v.svg" || fail "v.svg is not SVG"
    checks=$((checks + 1))
    [ -s "$tmp/v.gp" ] || fail "the script beside v.svg"
    # the script renders PNG or SVG by the name it is given
    (cd "$tmp" && gnuplot -d -c v.gp again.png) >"$tmp/out" 2>"$tmp/err"
    checks=$((checks + 1))
    [ "$(head -c 4 "$tmp/again.png" | od -An -c | tr -d ' ')" = '211PNG' ] || fail "v.gp did not render a PNG"
fi
"$bin" sweep scenarios/mtime_loop.json --set machine.cores=2 --set ractors.0.threads.1.count=2 \
    --set ractors.0.threads.1.program.0.times_total=1000 \
    --param ractors.0.threads.1.program.0.body.1.dur=1us,20us,1ms --param runtime.gvl_policy=eager,hot_steal \
    --reproducible -q -o "$tmp/d.jsonl" || fail "the duration sweep"
run plot "$tmp/d.jsonl" --x ractors.0.threads.1.program.0.body.1.dur --y wall_s --series runtime.gvl_policy --logx --logy --script-only -o "$tmp/d.png"
expect_code 0 "durations with units, from JSON Lines"
expect_line d.gp "set xtics ('1 µs' 1e-06, '20 µs' 2e-05, '1 ms' 0.001)" "duration ticks in seconds"
"$bin" sweep scenarios/mtime_loop.json --set machine.cores=2 --set ractors.0.threads.1.count=2 \
    --set ractors.0.threads.1.program.0.times_total=1000 --param ractors.0.threads.1.program.0.body.1.dur=1000,20000 \
    --reproducible -q -o "$tmp/ns.csv" || fail "the plain-nanosecond sweep"
run plot "$tmp/ns.csv" --x ractors.0.threads.1.program.0.body.1.dur --y wall_s --script-only -o "$tmp/ns.png"
expect_code 0 "a duration key swept in plain nanoseconds"
expect_line ns.gp "set xtics ('1 µs' 1e-06, '20 µs' 2e-05)" "plain nanoseconds plotted in seconds"
run plot "$tmp/d.jsonl" --x ractors.0.threads.1.program.0.body.1.dur --y wall_s --series runtime.gvl_policy --ratio-to runtime.gvl_policy=eager --script-only -o "$tmp/r.png"
expect_code 0 "--ratio-to across series"
expect_line r.gp "set ylabel 'wall time, relative to runtime.gvl_policy=eager'" "ratio label"
run plot "$tmp/s.csv" --x cores --y wall_s --series policy --ratio-to cores=3 --script-only
expect_code 2 "--ratio-to without its reference point"
printf 'cores,wall_s,policy,label,source
8,7,hot,"run A","someone, https://example.org"
' >"$tmp/ref.csv"
run plot "$tmp/s.csv" --x cores --y wall_s --series policy --ref "$tmp/ref.csv" --script-only -o "$tmp/f.png"
expect_code 0 "--ref"
expect_match f.gp "title 'measured: run A'$" "reference in the legend"
expect_match f.gp "^set label 1 'measured: someone, https://example.org' at graph 0.5, graph 1" "source cited"
run plot "$tmp/s.csv" --x cores --y wall_s --ref "$tmp/none.csv" --script-only
expect_code 5 "an unreadable --ref"
run plot tests/regress/pingpong_policies.csv --x cores --series runtime.gvl_policy --breakdown --script-only -o "$tmp/b.png"
expect_code 0 "--breakdown"
expect_match b.gp "^plot for \[i=2:5\] \\\$bars using i" "stacked bars of four states"
# 15 bars with long labels ("threshold" over "quantum=100 ms"): in the SVG,
# neighbouring tick labels stand at least their half-widths apart (DejaVu
# Sans at 11 px: 7.2 px a character, a generous average), and labels too long
# for the width stand upright, a line (13 px) or more apart
# svg_ticks FILE: "X ROTATED TEXT" of each tick label line below the plot
svg_ticks() {
    awk 'match($0, /<g transform="translate\([0-9.]+,/) { x = substr($0, RSTART + 24, RLENGTH - 25)
                                                        rot = /rotate\(-90\)/ ? 1 : 0; next }
         /<text>quantum=/ { t = $0; sub(/.*<text>/, "", t); sub(/<\/text>.*/, "", t); print x, rot, t }' "$1"
}
svg_check() {  # svg_check FILE WHAT
    checks=$((checks + 1))
    svg_ticks "$1" | sort -n | awk -v what="$2" '
        { n++; if ($2) rot++ }
        n > 1 && !$2 && $1 - px < 7.2 * (length($0) - length($1) - 3 + plen) / 2 { bad = bad " " NR }
        n > 1 && $2 && $1 - px < 13 { bad = bad " " NR }
        { px = $1; plen = length($0) - length($1) - 3 }
        END { if (n != 15 || bad != "") { printf "%s: %d labels, overlapping at%s\n", what, n, bad; exit 1 } }' \
        >"$tmp/svgcheck" || fail "$(cat "$tmp/svgcheck")"
}
if command -v gnuplot >/dev/null 2>&1; then
    run plot tests/regress/puma_policies.csv --breakdown --x runtime.quantum --series runtime.gvl_policy \
        -o "$tmp/bars.svg"
    expect_code 0 "--breakdown, 15 bars"
    svg_check "$tmp/bars.svg" "15 bars, SVG"
    checks=$((checks + 1))
    svg_ticks "$tmp/bars.svg" | grep -q '^[0-9.]* 0 quantum=100 ms$' || fail "15 bars: the labels are not horizontal"
    sed 's/,hot_steal,/,hot_steal_with_a_much_longer_variant_name,/' tests/regress/puma_policies.csv >"$tmp/long.csv"
    run plot "$tmp/long.csv" --breakdown --x runtime.quantum --series runtime.gvl_policy -o "$tmp/long.svg"
    expect_code 0 "--breakdown, 15 bars, long labels"
    svg_check "$tmp/long.svg" "15 bars with long labels, SVG"
    checks=$((checks + 1))
    svg_ticks "$tmp/long.svg" | grep -q '^[0-9.]* 1 quantum=100 ms$' || fail "long labels: not upright"
fi
# every thread state has its colour, the GC's too (a run with GC time)
run plot tests/golden/gc_ractors.csv --x cores --breakdown --script-only -o "$tmp/g.png"
expect_code 0 "--breakdown with GC time"
expect_match g.gp "^array name\[[0-9]*\] = \[.*'gc'" "the gc state is a bar segment"
checks=$((checks + 1))
grep -q "null" "$tmp/g.gp" && fail "a state without a colour: $(grep -n null "$tmp/g.gp")"
run plot "$tmp/s.csv" --x cores --y wall_s --breakdown --script-only
expect_code 2 "--breakdown with --y"
run plot "$tmp/s.csv" --x cores --series policy --breakdown --script-only
expect_code 2 "--breakdown without state columns"

# -- no gnuplot: the script is written, exit 7, a message saying what to install
env PATH=/nonexistent "$bin" plot "$tmp/s.csv" --x cores --y wall_s -o "$tmp/n.png" >"$tmp/out" 2>"$tmp/err"
code=$?
expect_code 7 "no gnuplot"
expect_match err 'gnuplot is not installed \(plots are optional\): the script .*/n\.gp is written; install gnuplot-nox' "no gnuplot"
checks=$((checks + 1))
[ -s "$tmp/n.gp" ] && [ ! -e "$tmp/n.png" ] || fail "no gnuplot: expected n.gp only"

# -- input errors
run plot "$tmp/s.csv" --x corez --y wall_s --script-only
expect_code 2 "unknown column"
expect_line err "gvlsim plot: --x corez: no such column; the columns are: point rep policy cores wall_s host_s" "unknown column"
run plot "$tmp/s.csv" --x policy --y wall_s --script-only
expect_code 2 "text column as x"
run plot "$tmp/s.csv" --y wall_s
expect_code 2 "--x missing"
run plot "$tmp/s.csv" --x cores
expect_code 2 "--y missing"
run plot "$tmp/none.csv" --x cores --y wall_s
expect_code 5 "missing CSV"
printf 'a,b\n1,2,3\n' >"$tmp/bad.csv"
run plot "$tmp/bad.csv" --x a --y b
expect_code 3 "malformed CSV"
expect_match err 'bad\.csv:2: 3 fields, the header has 2' "malformed CSV"
run plot "$tmp/s.csv" --x cores --y wall_s -o "$tmp/nodir/p.png"
expect_code 5 "unwritable output"

finish plot_cmd.sh
