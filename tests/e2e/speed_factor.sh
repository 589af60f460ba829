#!/bin/sh
# speed_factor.sh BINARY - a core a hair faster or slower than 1 runs the
# regime of 1.  A model that dates the end of a payment must add the time
# the payment takes at its core's factor (sim/machine.h mach_owed_time),
# not the cost: until 2026-12-06 a thread leaving the timeslice set was
# dated by its unscaled cost (models/gvl.c), and on a core faster than 1
# the timer thread's own check after a tick found the set it had just left
# non-empty and took the 10 ms timed wait where at 1 it takes the infinite
# one.  The delayed policy's one-core ping-pong (200k messages, the
# scenario's machine) then had its timer woken through the eventfd once
# at x0.99 and x0.99999, 102 times at x1 and 115 at x1.01, and made 454-474
# voluntary switches against 639-713 (docs/validate.md, "The fast level is
# the profile's machine").  Checked: the eventfd wakes and the switches at
# x0.99, x0.99999 and x1.01 within 25% of those at x1.
set -u
bin=$1
. tests/e2e/lib.inc

# eventfd F: the timer's eventfd wake-ups in the summary of the run at xF
eventfd() { sed -n 's/.*timer thread: \([0-9]*\) eventfd wake-ups.*/\1/p' "$tmp/err-$1"; }
near() {  # near WHAT VALUE REF: VALUE within 25% of REF
    checks=$((checks + 1))
    awk -v v="$2" -v r="$3" 'BEGIN { exit !(v != "" && r > 0 && v >= 0.75 * r && v <= 1.25 * r) }' ||
        fail "$1: $2 against $3 at x1"
}
for f in 1 0.99 0.99999 1.01; do
    run run scenarios/queue_pingpong.json --set runtime.gvl_policy=delayed --set machine.cores=1 \
        --set "machine.speed_levels=[$f,$f]" --set 'machine.speed_dwell=["10ms","10ms"]' -o "$tmp/$f.csv"
    expect_code 0 "delayed at x$f"
    cp "$tmp/err" "$tmp/err-$f"
done
ref=$(eventfd 1)
checks=$((checks + 1))
[ "${ref:-0}" -ge 50 ] || fail "x1: the timer woken through its eventfd ${ref:-no} times (expected 50 or more)"
for f in 0.99 0.99999 1.01; do
    near "the timer's eventfd wakes at x$f" "$(eventfd $f)" "$ref"
    near "voluntary switches at x$f" "$(csv_col vol_switches "$tmp/$f.csv")" "$(csv_col vol_switches "$tmp/1.csv")"
done
finish "$script"
