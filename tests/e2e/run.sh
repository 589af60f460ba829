#!/bin/sh
# tests/e2e/run.sh BINARY - run every tests/e2e/*.sh (except this driver)
# from the repository root, each given the absolute path of BINARY; print a
# pass/fail summary and exit non-zero if any failed.
set -u
if [ $# -ne 1 ]; then
    echo "usage: tests/e2e/run.sh BINARY" >&2
    exit 2
fi
bin=$1
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
if [ ! -x "$bin" ]; then
    echo "e2e: $bin is not an executable" >&2
    exit 2
fi
cd "$(dirname "$0")/../.." || exit 2

pass=0
fail=0
failed=
for t in tests/e2e/*.sh; do
    name=$(basename "$t")
    [ "$name" = run.sh ] && continue
    if sh "$t" "$bin"; then
        pass=$((pass + 1))
        echo "PASS $name"
    else
        fail=$((fail + 1))
        failed="$failed $name"
        echo "FAIL $name"
    fi
done
echo "e2e: $pass passed, $fail failed${failed:+ ($failed )}"
[ "$fail" -eq 0 ]
