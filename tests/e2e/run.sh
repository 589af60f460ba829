#!/bin/sh
# tests/e2e/run.sh BINARY [sim|real] - run every tests/e2e/*.sh (except
# this driver) from the repository root, each given the absolute path of
# BINARY; print a pass/fail summary and exit non-zero if any failed.  A
# script that exits 77 was skipped (an optional dependency is missing: it
# says which).
#
# A script with a line "# real-threads: WHAT" runs gvlsim on real threads
# (the executor, calibrate, a Ruby): its watchdogs and busy-loop
# calibrations see the host's load, so `make test` runs those scripts
# (`real`) alone, after the simulator-only ones (`sim`), which it runs
# beside other suites.  Without the second argument every script runs.
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: tests/e2e/run.sh BINARY [sim|real]" >&2
    exit 2
fi
bin=$1
only=${2:-}
case $only in ''|sim|real) ;; *) echo "usage: tests/e2e/run.sh BINARY [sim|real]" >&2; exit 2 ;; esac
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
if [ ! -x "$bin" ]; then
    echo "e2e: $bin is not an executable" >&2
    exit 2
fi
cd "$(dirname "$0")/../.." || exit 2

pass=0
fail=0
skip=0
failed=
for t in tests/e2e/*.sh; do
    name=$(basename "$t")
    [ "$name" = run.sh ] && continue
    if [ -n "$only" ]; then
        kind=sim
        grep -q '^# real-threads:' "$t" && kind=real
        [ "$kind" = "$only" ] || continue
    fi
    sh "$t" "$bin"
    rc=$?
    if [ "$rc" -eq 0 ]; then
        pass=$((pass + 1))
        echo "PASS $name"
    elif [ "$rc" -eq 77 ]; then
        skip=$((skip + 1))
        echo "SKIP $name"
    else
        fail=$((fail + 1))
        failed="$failed $name"
        echo "FAIL $name"
    fi
done
echo "e2e${only:+ ($only)}: $pass passed, $skip skipped, $fail failed${failed:+ ($failed )}"
[ "$fail" -eq 0 ]
