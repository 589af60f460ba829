#!/bin/sh
# chain_wakes.sh BINARY - scripts/chain_wakes.sh on a made-up trace of the
# queue ping-pong's two threads (tests/e2e/run.sh passes the binary; the
# script reads no gvlsim output but the format of its traces): the slices
# out of order in the file, a push the main thread ran within, one the
# worker's call ran on and the main thread parked after, one it ran on and
# the main thread's next call became a stretch, and the place count
# starting again after that call; then a trace with no push, and one
# without the threads' names.
set -u
bin=$1
. tests/e2e/lib.inc
sl() { printf '{"ph":"X","cat":"thread","name":"%s","pid":1,"tid":%s,"ts":%s,"dur":%s,"args":{"cpu":0}},\n' "$2" "$1" "$3" "$4"; }
names() {
    printf '{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}},\n'
    printf '{"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"worker"}},\n'
}
{
    printf '{"traceEvents":[\n'
    names
    sl 2 blocking 50.000000 8.500000     # push 3's call: ran on (8-9 us)
    sl 1 wants_gvl 10.000000 5.000000    # push 1 (place 1): main runs at 15,
    sl 2 blocking 10.000000 12.000000    #   within the worker's call (to 22)
    sl 1 running 15.000000 1.000000
    sl 1 parked 16.000000 14.000000
    sl 1 wants_gvl 30.000000 8.000000    # push 2 (place 2), 0.1 us off: the call
    sl 2 blocking 30.100000 3.500000     #   ends at 33.6, main waits to 38: ran on
    sl 1 running 38.000000 1.000000
    sl 1 parked 40.000000 10.000000      #   then main parks
    sl 1 wants_gvl 50.000000 12.000000   # push 3 (place 3): ran on
    sl 1 running 62.000000 1.000000
    sl 1 blocking 63.000000 600.000000   #   then main's call: a stretch
    sl 1 blocking 663.000000 1.000000    # (the same run of calls: no new place)
    sl 1 wants_gvl 700.000000 2.000000   # push 4 (place 1 again): main runs
    sl 2 blocking 699.900000 10.000000   #   within the call
    sl 2 running 0.000000 1.000000       # a worker slice of no push
    printf '{"ph":"i","cat":"instant","name":"x","pid":1,"tid":1,"s":"p","ts":1.0}\n'
    printf '],\n"metadata":{"generator":"gvlsim"}}\n'
} >"$tmp/t.json"
run_cmd sh scripts/chain_wakes.sh "$tmp/t.json"
expect_code 0 "chain_wakes.sh"
expect_empty err "chain_wakes.sh"
expect_line out "stretches (the main thread in a blocking slice of 500 us or more): 1, 0.60 ms" "stretches"
expect_line out "pushes 4: the main thread ran within the worker's next call 2 (50.0%), the call ran on 2 (50.0%)" "pushes"
expect_line out "  the calls that ran on, by length (us): 3-4: 1 8-9: 1" "lengths"
expect_line out "      1        2        0  0.0%          0          0          0" "place 1"
expect_line out "      2        1        1 100.0%          1          0          0" "place 2"
expect_line out "      3        1        1 100.0%          0          1          1" "place 3"

# the same threads under other names, given
sed 's/"main"/"m"/; s/"worker"/"w"/' "$tmp/t.json" >"$tmp/named.json"
run_cmd sh scripts/chain_wakes.sh "$tmp/named.json" m w
expect_code 0 "chain_wakes.sh with names"
expect_line out "pushes 4: the main thread ran within the worker's next call 2 (50.0%), the call ran on 2 (50.0%)" "named pushes"
run_cmd sh scripts/chain_wakes.sh "$tmp/named.json"
expect_code 1 "chain_wakes.sh without the threads' names"
expect_match err "no thread named" "names missing"

# no push: the worker's calls never begin with a wait of the main thread
{
    printf '{"traceEvents":[\n'
    names
    sl 1 wants_gvl 10.000000 5.000000
    sl 2 blocking 20.000000 12.000000
    printf '],\n"metadata":{"generator":"gvlsim"}}\n'
} >"$tmp/none.json"
run_cmd sh scripts/chain_wakes.sh "$tmp/none.json"
expect_code 1 "chain_wakes.sh without pushes"
expect_match err "no push of the main thread" "no push"

run_cmd sh scripts/chain_wakes.sh "$tmp/missing.json"
expect_code 2 "chain_wakes.sh on a missing file"
run_cmd sh scripts/chain_wakes.sh
expect_code 2 "chain_wakes.sh without a trace"
finish "$script"
