#!/bin/sh
# long_turns_awk.sh BINARY - scripts/long_turns.awk on a made-up trace of
# three workers and main (tests/e2e/run.sh passes the binary; the script
# reads no gvlsim output but the format of its traces), twice: with each
# slice's CPU in its args (`gvlsim exec --trace`) and with core tracks
# instead (`gvlsim run --trace`).  Turns of 3, 1, 3, 3, 1 and 1 calls
# (long: 3 or more); the long turns end with the holder in its blocking
# call and the next thread on its CPU, the holder wanting the GVL back and
# the next thread on its CPU, and the holder ended; the workers end at 26,
# 29 and 32 us.
set -u
bin=$1
. tests/e2e/lib.inc
# sl TID NAME TS DUR CPU: one thread slice as the trace writer prints it,
# with its CPU (exec) or a busy slice of that core's track (sim)
sl() {
    if [ "$mode" = exec ]; then
        printf '{"ph":"X","cat":"thread","name":"%s","pid":1,"tid":%s,"ts":%s,"dur":%s,"args":{"cpu":%s}},\n' "$2" "$1" "$3" "$4" "$5"
    else
        printf '{"ph":"X","cat":"thread","name":"%s","pid":1,"tid":%s,"ts":%s,"dur":%s},\n' "$2" "$1" "$3" "$4"
        printf '{"ph":"X","cat":"core","name":"worker#%s","pid":1,"tid":%s,"ts":%s,"dur":%s,"args":{"state":"busy","task":"worker#%s"}},\n' \
            $(($1 - 2)) $((11 + $5)) "$3" "$4" $(($1 - 2))
    fi
}
for mode in exec sim; do
    {
        printf '{"traceEvents":[\n'
        for i in 0 1 2; do
            printf '{"ph":"M","name":"thread_name","pid":1,"tid":%d,"args":{"name":"worker#%d"}},\n' $((i + 2)) $i
        done
        printf '{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}},\n'
        printf '{"ph":"M","name":"thread_name","pid":1,"tid":11,"args":{"name":"core 0"}},\n'
        printf '{"ph":"M","name":"thread_name","pid":1,"tid":12,"args":{"name":"core 1"}},\n'
        printf '{"ph":"X","cat":"thread","name":"running","pid":1,"tid":1,"ts":0.000000,"dur":40.000000},\n'
        # worker#0's long turn: 3 calls, the last one still going when worker#1 runs on CPU 0
        sl 2 running 0.000000 1.000000 0; sl 2 blocking 1.000000 1.000000 0
        sl 2 running 2.000000 1.000000 0; sl 2 blocking 3.000000 1.000000 0
        sl 2 running 4.000000 1.000000 0; sl 2 blocking 5.000000 15.000000 0
        sl 3 wants_gvl 0.000000 8.000000 0
        sl 3 running 8.000000 1.000000 0; sl 3 blocking 9.000000 1.000000 0
        # worker#2's long turn on CPU 1, then it wants the GVL back (16-30) while worker#0 runs there
        sl 4 wants_gvl 0.000000 10.000000 1
        sl 4 running 10.000000 1.000000 1; sl 4 blocking 11.000000 1.000000 1
        sl 4 running 12.000000 1.000000 1; sl 4 blocking 13.000000 1.000000 1
        sl 4 running 14.000000 1.000000 1; sl 4 blocking 15.000000 1.000000 1
        sl 4 wants_gvl 16.000000 14.000000 1
        # worker#0's second long turn, then it ends (26)
        sl 2 running 20.000000 1.000000 1; sl 2 blocking 21.000000 1.000000 1
        sl 2 running 22.000000 1.000000 1; sl 2 blocking 23.000000 1.000000 1
        sl 2 running 24.000000 1.000000 1; sl 2 blocking 25.000000 1.000000 1
        sl 3 wants_gvl 10.000000 17.000000 0
        sl 3 running 27.000000 1.000000 0; sl 3 blocking 28.000000 1.000000 0
        sl 4 running 30.000000 1.000000 1; sl 4 blocking 31.000000 1.000000 1
        printf '{"ph":"i","cat":"instant","name":"x","pid":1,"tid":1,"s":"p","ts":1.0}\n'
        printf '],\n"metadata":{"generator":"gvlsim"}}\n'
    } >"$tmp/$mode.json"
    run_cmd awk -v long=3 -f scripts/long_turns.awk "$tmp/$mode.json"
    expect_code 0 "long_turns.awk ($mode)"
    expect_empty err "long_turns.awk ($mode)"
    expect_line out "$tmp/$mode.json: 3 workers, 6 turns, 3 long (>= 3 calls) with 75.0% of the calls; a long turn: 3 calls, 5 us (medians)" "turns ($mode)"
    expect_line out "    blocking | on its CPU                         1" "ended in a blocking call ($mode)"
    expect_line out "    wants_gvl | on its CPU                        1" "ended wanting the GVL ($mode)"
    expect_line out "    (none) | CPU unknown                          1" "ended with its holder ($mode)"
    expect_line out "  the holder in its blocking slice for 3.0 us (median) when the next thread started" "blocking age ($mode)"
    expect_line out "  the next long turn to the same thread: 0 of 2 (0%)" "same thread ($mode)"
    expect_line out "  the workers' calls when the first ended (0.0 ms): mean 3, coefficient of variation 0.616; the last two alone for 0.006 ms" "evenness ($mode)"
done
# no worker: said, exit 2
run_cmd awk -v prefix=nosuch -f scripts/long_turns.awk "$tmp/exec.json"
expect_code 2 "no such workers"
expect_match err "no thread named nosuch" "no such workers said"
finish "$script"
