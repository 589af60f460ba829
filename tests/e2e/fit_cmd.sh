#!/bin/sh
# fit_cmd.sh BINARY - `gvlsim fit`: the Universal Scalability Law from a CSV
# made with known alpha = 0.05, beta = 0.002, lambda = 1000 (peak at
# N* = 21.79), one fit per series, the CSV output, a fall faster than the
# law can give warned about, and every error with its exit code.
set -u
bin=$1
. tests/e2e/lib.inc
awk 'BEGIN { print "policy,cores,ops_per_s,note";
             for (n = 1; n <= 32; n *= 2) printf "fast,%d,%.9g,x\n", n, 1000 * n / (1 + 0.05 * (n - 1) + 0.002 * n * (n - 1));
             for (n = 1; n <= 8; n++) printf "slow,%d,%.9g,y\n", n, 10 * n / (1 + 0.5 * (n - 1)) }' >"$tmp/s.csv"

run fit "$tmp/s.csv" --x cores --y ops_per_s --series policy -o "$tmp/fits.csv"
expect_code 0 "fit"
expect_match out "^policy +points +alpha +beta +lambda +peak_N +peak_X +rms_err +R\^2$" "header"
expect_match out "^fast +6 +0\.05 +0\.002 +1000 +21\.79 " "fast: alpha, beta, lambda, peak"
expect_match out "^slow +8 +0\.5 +0 +10 +none +none +0\.00% +1\.00000$" "slow: Amdahl, no peak"
checks=$((checks + 1))
head -n 1 "$tmp/fits.csv" | grep -qxF "series,points,alpha,beta,lambda,peak_n,peak_x,rms_rel_err,r2" ||
    fail "fits.csv header"
checks=$((checks + 1))
grep -qE '^slow,8,0\.(5|4999999[0-9]*),0,(10|9\.999999[0-9]*),,,' "$tmp/fits.csv" || fail "fits.csv: slow row"

expect_empty err "fit: no warning for points on the law"
# a fall faster than the law's (from 2 to 3 workers by more than half):
# fitted, exit 0, and warned about with its steepest such pair
printf 'ractors,ops_per_s\n2,4535910\n3,152345\n4,152215\n5,132575\n7,89670\n9,67435\n' >"$tmp/fall.csv"
run fit "$tmp/fall.csv" --x ractors --y ops_per_s
expect_code 0 "a fall beyond the law"
expect_line err "gvlsim fit: warning: ops_per_s falls from 4.53591e+06 at ractors=2 to 152345 at 3 (0.0336 of it), faster than the law can fall there (to 0.5 at the most): the fit does not describe these points (is ractors the number of workers?)" "the fall warned about"
# the same points counted from the first worker: the law fits them
awk -F, 'NR == 1 { print "workers," $2; next } { print $1 - 1 "," $2 }' "$tmp/fall.csv" >"$tmp/fall1.csv"
run fit "$tmp/fall1.csv" --x workers --y ops_per_s
expect_code 0 "the same points from one worker"
expect_empty err "no warning from one worker"
printf 'p,n,x\na,1,10\na,2,19\na,3,27\nb,2,10\nb,3,4\nb,4,3.9\n' >"$tmp/fall2.csv"
run fit "$tmp/fall2.csv" --x n --y x --series p
expect_code 0 "a series falling beyond the law"
expect_match err "^gvlsim fit: warning: series p=b: x falls from 10 at n=2 to 4 at 3 " "the series named"
expect_lacks "$tmp/err" "series a" "series p=a"

run fit "$tmp/s.csv" --x core --y ops_per_s
expect_code 2 "unknown column"
expect_match err "no such column; the columns are: policy cores ops_per_s note" "columns listed"
run fit "$tmp/s.csv" --x cores --y note
expect_code 2 "non-numeric column"
run fit "$tmp/s.csv" --x cores
expect_code 2 "missing --y"
run fit "$tmp/nosuch.csv" --x cores --y ops_per_s
expect_code 5 "missing CSV"
printf 'a,b\n1,2,3\n' >"$tmp/bad.csv"
run fit "$tmp/bad.csv" --x a --y b
expect_code 3 "malformed CSV"
printf 'policy,cores,ops_per_s\np,1,10\np,2,19\nq,1,5\nq,2,9\nq,4,12\n' >"$tmp/few.csv"
run fit "$tmp/few.csv" --x cores --y ops_per_s --series policy
expect_code 3 "too few points"
expect_line err "gvlsim fit: $tmp/few.csv: series policy=p: 2 distinct concurrency values: the law has 3 parameters, fit at least 3" "the series named"
printf 'n,x\n1,10\n2,0\n4,12\n' >"$tmp/zero.csv"
run fit "$tmp/zero.csv" --x n --y x
expect_code 3 "zero throughput"
expect_match err "throughput 0 at concurrency 2 is not > 0" "zero throughput named"
run fit "$tmp/s.csv" --x cores --y ops_per_s -o /nonexistent/dir/f.csv
expect_code 5 "unwritable output"
finish "$script"
