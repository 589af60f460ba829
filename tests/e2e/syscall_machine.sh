#!/bin/sh
# syscall_machine.sh BINARY - a syscall op's "dur": "machine" takes the
# machine profile's cost of its call (machine.syscalls): accepted where the
# profile has it (also set with --set), a load error at the op's dur (file,
# line:column, JSON pointer; exit 3, nothing written) where it has not; the
# executor makes the real call.
# real-threads: one gvlsim exec (`make test` runs such scripts with nothing else at work: tests/e2e/run.sh)
set -u
bin=$1
. tests/e2e/lib.inc

f=tests/data/syscall_machine.json
run check "$f"
expect_code 0 "every call the op asks for is in the profile"
run check "$f" --set ractors.0.threads.0.program.0.call=open_devnull
expect_code 3 "a call the profile has no cost for"
expect_line err "$f:4:47: /ractors/0/threads/0/program/0/dur: \"machine\": the machine profile \"sysbox\" has no cost for call \"open_devnull\" (machine.syscalls.open_devnull): measure it with gvlsim calibrate, set it (--set machine.syscalls.open_devnull=DURATION), or give the op a duration" \
    "file, line:column, pointer and the key to give"
run check "$f" --set ractors.0.threads.0.program.0.call=open_devnull --set machine.syscalls.open_devnull=2us
expect_code 0 "the missing cost set on the command line"
run run "$f" -o "$tmp/never.csv" --set machine=anon
expect_code 3 "run: a profile without system-call costs"
expect_match err "/ractors/0/threads/0/program/0/dur: \"machine\": the machine profile \"anon\" has no cost for call \"stat\"" \
    "run reports it"
checks=$((checks + 1))
[ -e "$tmp/never.csv" ] && fail "a failed load wrote an output"
run check scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.body.1.dur=machine
expect_code 3 "a shipped profile has no system-call costs"
expect_match err "^--set\[1\]:1:42: /ractors/0/threads/1/program/0/body/1/dur: \"machine\": the machine profile \"report_m4\" has no cost for call \"stat\"" \
    "the --set's position"
# column NAME of the CSV row in $tmp/out
col() { awk -F, -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i } NR == 2 { print $c }' "$tmp/out"; }
# the simulator: four calls, the GVL-releasing ones in blocking regions of
# 1.3 us (stat, the profile's: not x work_scale 2), 2 us (stat's 1 us x 2)
# and 1.1 us (write_devnull), with their regions' entries and exits
run run "$f" -q --set machine.cores=1
expect_code 0 "run"
checks=$((checks + 1))
[ "$(col syscalls)" = 4 ] || fail "syscalls: $(col syscalls), expected 4"
checks=$((checks + 1))
awk -v b="$(col blocking_s)" 'BEGIN { exit !(b > 4.3e-6 && b < 5.3e-6) }' || fail "blocking_s $(col blocking_s): not about 4.4 us"
# the executor makes each real call (once: no dur to fill)
run exec "$f" -q --max-spread 1000 --set machine.cores=1
expect_code 0 "the executor"
checks=$((checks + 1))
[ "$(col syscalls)" = 4 ] || fail "executor syscalls: $(col syscalls), expected 4"
finish "$script"
