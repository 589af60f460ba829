#!/bin/sh
# handoffs_awk.sh BINARY - scripts/handoffs.awk on a made-up trace of three
# threads (tests/e2e/run.sh passes the binary; the script reads no gvlsim
# output but the format of its traces): running slices out of order in the
# file, a thread running twice in a row (no hand-off), and one hand-off of
# each kind - the previous holder in a blocking call, wanting the GVL back,
# parked, ended - each with the new holder's wait for the GVL.
set -u
bin=$1
. tests/e2e/lib.inc
# sl TID NAME TS DUR: one thread slice as the trace writer prints it
sl() { printf '{"ph":"X","cat":"thread","name":"%s","pid":1,"tid":%s,"ts":%s,"dur":%s},\n' "$2" "$1" "$3" "$4"; }
{
    printf '{"traceEvents":[\n'
    printf '{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}},\n'
    sl 1 running 0.000000 10.000000       # 1 runs 0-10, then blocks 10-20
    sl 1 blocking 10.000000 10.000000
    sl 2 blocking 0.000000 5.000000       # 2 back from a blocking call of its own:
    sl 2 wants_gvl 5.000000 7.000000      # 2 waits 5-12, takes it while 1 blocks
    sl 2 running 12.000000 8.000000       # 12-20: hand-off, holder blocking, wait 7: quick
    sl 1 wants_gvl 20.000000 5.000000     # 1 wants it back 20-25
    sl 3 wants_gvl 18.000000 4.000000     # 3 waits 18-22
    sl 3 running 22.000000 3.000000       # 22-25: hand-off, 2 ... (its state: below)
    sl 2 parked 20.000000 30.000000       # 2 parked 20-50
    sl 1 running 25.000000 5.000000       # 25-30: hand-off from 3, which then
    sl 3 wants_gvl 25.000000 10.000000    #   wants it back (25-35): kind wants_gvl, 1's wait 5
    sl 1 running 30.000000 2.000000       # 30-32: 1 again, no hand-off
    sl 3 running 35.000000 1.000000       # 35-36: hand-off from 1, which has ended: (other), 3's wait 10
    sl 1 blocking 32.000000 1.000000      # (1's last slice ends at 33)
    printf '{"ph":"i","cat":"instant","name":"x","pid":1,"tid":1,"s":"p","ts":1.0}\n'
    printf '],\n"metadata":{"generator":"gvlsim"}}\n'
} >"$tmp/t.json"
run_cmd awk -f scripts/handoffs.awk "$tmp/t.json"
expect_code 0 "handoffs.awk"
expect_empty err "handoffs.awk"
expect_line out "running slices 6, blocking slices 3, hand-offs 4 (1.3333 per blocking slice)" "counts"
expect_line out "  previous holder blocking       1  new holder's wait: median 7.00 us, p90 7.00 us" "blocking"
expect_line out "  previous holder wants_gvl      1  new holder's wait: median 5.00 us, p90 5.00 us" "wants_gvl"
expect_line out "  previous holder parked         1  new holder's wait: median 4.00 us, p90 4.00 us" "parked"
expect_line out "  previous holder (other)        1  new holder's wait: median 10.00 us, p90 10.00 us" "ended"
expect_line out "  quick (previous holder blocking, new one back from its own blocking call within 20 us): 1" "quick"
finish "$script"
