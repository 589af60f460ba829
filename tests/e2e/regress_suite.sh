#!/bin/sh
# regress_suite.sh BINARY - scripts/regress.sh (`make regress`): part of the
# seed suite against the committed baselines passes on an unchanged tree; a
# changed model parameter (a machine profile value) fails with a readable
# table; a missing baseline is an error of its own; --update rewrites.
set -u
bin=$1
. tests/e2e/lib.inc
only="mtime_loop tarai_ractors"
regress() {
    REGRESS_ONLY=$only REGRESS_OUT="$tmp/new" sh scripts/regress.sh "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
    code=$?
}
regress
expect_code 0 "an unchanged tree"
expect_line out "regress: mtime_loop: ok (9 configurations, 35 metrics each)" "mtime_loop ok"
expect_line out "regress: 2 sweeps, each equal to its baseline" "summary"

# the same profile with one value changed, found first through --machines
mkdir "$tmp/m"
sed 's/"wake_idle_core": "12us"/"wake_idle_core": "14us"/' scenarios/machines/report_m4.json >"$tmp/m/report_m4.json"
checks=$((checks + 1))
grep -q '"wake_idle_core": "14us"' "$tmp/m/report_m4.json" || fail "the profile edit did not apply"
REGRESS_ARGS="--machines $tmp/m" regress
expect_code 1 "a changed model parameter"
expect_line out "regress: mtime_loop:" "the failing sweep is named"
expect_match out "^  gvlsim compare tests/regress/mtime_loop.csv .*: regression: [0-9]+ metrics beyond tolerance in [0-9]+ of 9 configurations$" "compare summary"
expect_match out "^    configuration +metric +base +new +change +tolerance$" "table header"
expect_match out "^    ractors.0.threads.1.count=8 machine.cores=2 threads=9 +wall_s +[0-9.]+ +[0-9.]+ +\+[0-9.]+% +exact$" "a wall_s row"
expect_match out "^regress: tarai_ractors: ok" "the other profile's sweep still matches"
expect_line out "regress: 2 sweeps, 1 not equal to their baseline (exit 1)" "summary"

# a missing baseline; --update writes it
mkdir "$tmp/base"
cp tests/regress/tarai_ractors.csv "$tmp/base/"
REGRESS_BASE="$tmp/base" regress
expect_code 3 "a missing baseline"
expect_match err "regress: mtime_loop: no baseline .*/mtime_loop.csv \(make regress-update writes it\)" "missing baseline"
REGRESS_BASE="$tmp/base" regress --update
expect_code 0 "update"
checks=$((checks + 1))
cmp -s "$tmp/base/mtime_loop.csv" tests/regress/mtime_loop.csv || fail "update wrote another baseline"
finish regress_suite.sh
