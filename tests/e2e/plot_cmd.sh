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
for line in "set terminal pngcairo size 1280,720 noenhanced font 'DejaVu Sans,11'" \
            "set datafile separator comma" "set logscale x 2" "8,5,4,6,2"; do
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
run plot "$tmp/none.csv" --x cores --y wall_s
expect_code 5 "missing CSV"
printf 'a,b\n1,2,3\n' >"$tmp/bad.csv"
run plot "$tmp/bad.csv" --x a --y b
expect_code 3 "malformed CSV"
expect_match err 'bad\.csv:2: 3 fields, the header has 2' "malformed CSV"
run plot "$tmp/s.csv" --x cores --y wall_s -o "$tmp/nodir/p.png"
expect_code 5 "unwritable output"

finish plot_cmd.sh
