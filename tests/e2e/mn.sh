#!/bin/sh
# mn.sh BINARY - `gvlsim run` on the M:N / counter scenarios: the columns
# they fill (insn_counter, line_transfers, native_threads), the summary,
# and the RUBY_MAX_CPU=1 hang of the 3.3/3.4 cap.
set -u
bin=$1
. tests/e2e/lib.inc
small="--set ractors.1.threads.0.program.0.insns=10000000"

run run scenarios/tarai_ractors.json $small --reproducible
expect_code 0 "tarai"
expect_match out '^tarai_ractors,sim,native,eager,none,shared,12,9,9,1,' "tarai row"
expect_match err 'wants_snt|running' "tarai summary"
# line_transfers, native_threads (main + 8 SNTs + timer), gc_count, gc_clock_s, mutex_waits,
# timeouts, engine_events, empty host_s
expect_match out ',[1-9][0-9]*,10,0,0.000000000,0,0,[0-9]+,$' "tarai line_transfers and native threads"

run run scenarios/tarai_ractors.json $small --reproducible --no-header --set runtime.insn_counter=none --set runtime.max_cpu=8
expect_code 0 "tarai minus_one"
expect_match out ',0,9,0,0.000000000,0,0,[0-9]+,$' "minus_one: no transfers, 7 SNTs"

run check scenarios/tarai_ractors.json scenarios/examples/mn_pingpong.json
expect_code 0 "check"
expect_line out "scenarios/tarai_ractors.json: ok (9 ractors, 9 threads, machine x86_20489, 12 cores, policy eager)" "check tarai"

# RUBY_MAX_CPU=1 with the 3.3/3.4 cap: no SNT is ever created and the
# timer ticks on while the Ractor waits in the grq (the Bug #20146 hang):
# the run hits the time limit
cat >"$tmp/hang.json" <<'JSON'
{ "runtime": { "max_cpu": 1, "snt_cap": "minus_one" },
  "ractors": [ { "threads": [ { "name": "main", "program": [ { "op": "join" } ] } ] },
               { "name": "w", "threads": [ { "name": "t", "program": [ { "op": "compute", "insns": 1000 } ] } ] } ] }
JSON
run run "$tmp/hang.json" --max-time 1
expect_code 4 "hang"
expect_match err 'simulated time limit of 1.000 s reached with 2 threads still running' "hang"

finish mn.sh
