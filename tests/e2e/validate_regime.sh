#!/bin/sh
# validate_regime.sh BINARY - scripts/validate_results.sh keeps the cache
# keys of the regime a target's runs met when the host has none of it: a
# profile whose cache_probe (1 ns) no run can meet makes every run "another
# regime", so the script runs `gvlsim calibrate --only cache` after the
# runs and keeps OUTDIR/cache-split-HHMMSS.json if its probe is of the runs'
# regime (else says the regime moved); a second measurement captures again
# only if its runs' probe is of no cache profile already there.
# real-threads: scripts/validate_results.sh, the executor and calibrate (`make test` runs such scripts with nothing else at work: tests/e2e/run.sh)
set -u
bin=$1
. tests/e2e/lib.inc

[ "$(nproc)" -ge 2 ] || skip "scripts/validate_results.sh needs 2 CPUs"
. scripts/regime.inc
v=$tmp/v
mkdir -p "$v"
sed 's/^  "cache_probe": "[^"]*"/  "cache_probe": "1ns"/' \
    docs/data/validate/hosts/epyc-2vcpu-2026-12-07-v1272-s46b/host.json >"$tmp/host.json"
checks=$((checks + 1))
[ "$(key_ns "$tmp/host.json" cache_probe)" = 1 ] || fail "the test profile's cache_probe was not set to 1 ns"
printf 'pp | scenarios/queue_pingpong.json | sim,pthread | --set ractors.0.threads.0.program.0.times=200 --set ractors.0.threads.1.program.0.times=1000\n' >"$tmp/targets"

measure() {
    PROFILE="$tmp/host.json" TARGETS="$tmp/targets" QUIET_IDLE=0 QUICK=1 \
        scripts/validate_results.sh "$bin" "$v" >"$tmp/out" 2>"$tmp/err"
    code=$?
}
# check_capture WHAT: the runs' probe against the cache profiles there
# before (BEFORE: their probes) - captured (a file more, of the runs'
# regime, or the moved message) exactly when none held it
check_capture() {
    probe=$(col_median "$v/pp.rows.csv" line_probe_ns)
    checks=$((checks + 1))
    [ -n "$probe" ] || { fail "$1: the runs recorded no line_probe_ns"; return; }
    held=0
    for p in $before; do regime_apart "$probe" "$p" || held=1; done
    checks=$((checks + 1))
    if [ $held = 1 ]; then
        grep -q "met another cache regime" "$tmp/err" && fail "$1: calibrated again a regime a cache profile holds: $(cat "$tmp/err")"
        return
    fi
    grep -q "pp's runs met another cache regime (probe $probe ns, the profile's 1 ns): calibrate --only cache" "$tmp/err" ||
        { fail "$1: no capture of the runs' regime (probe $probe ns): $(cat "$tmp/err")"; return; }
    new=$(ls "$v"/cache-*.json 2>/dev/null | wc -l)
    checks=$((checks + 1))
    if grep -q "the cache regime moved before its keys were measured" "$tmp/err"; then
        [ "$new" -eq "$nfiles" ] || fail "$1: a cache profile of another regime than the runs' was kept"
        return
    fi
    [ "$new" -eq $((nfiles + 1)) ] || { fail "$1: $new cache profiles, not $((nfiles + 1))"; return; }
    f=$(ls -t "$v"/cache-split-*.json | head -n 1)
    checks=$((checks + 1))
    regime_apart "$probe" "$(key_ns "$f" cache_probe)" && fail "$1: $f is not of the runs' regime"
    expect_has "$f" "$1: the cache profile" '"cache_probe": ' '"line_transfer": ' '"free_remote": ' \
        '"command": "gvlsim calibrate --only cache -q -o '
    checks=$((checks + 1))
    grep -q '"syscall_stat_ns".*"not run (--only cache)"' "$f" || fail "$1: $f is not an --only cache profile"
}

nfiles=0 before=
measure
expect_code 0 "a regime the profile does not hold"
check_capture "first measurement"

nfiles=$(ls "$v"/cache-*.json 2>/dev/null | wc -l)
before=$(for f in "$v"/cache-*.json; do [ -f "$f" ] && key_ns "$f" cache_probe && echo; done)
measure
expect_code 0 "measured again"
check_capture "second measurement"
checks=$((checks + 1))
ls "$v" | grep -q 'tmp' && fail "a temporary file was left: $(ls "$v")"
finish "$script"
