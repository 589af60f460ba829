#!/bin/sh
# Run each unit-test binary given; stop at the first failure.
set -u
fail=0
for t in "$@"; do
    echo "== $(basename "$t")"
    if ! "$t"; then
        echo "FAIL: $t"
        fail=1
        break
    fi
done
exit $fail
