#!/bin/sh
# bpf_record.sh BINARY - scripts/bpf builds, and its probes record a real
# `gvlsim exec` run on two CPUs: the scheduler probe sees the run's
# wake-ups and switches (and, if they idle, its CPUs going idle), and
# sched_wakes.awk reports on them; the futex probe sees the timer thread's
# timed waits.  What the kernel decided is not checked (it is the
# machine's, and the load's); that records arrive, in the documented
# shape, is.  Skipped
# without clang, bpftool, libbpf, a kernel with BTF, root, or 2 CPUs.
# real-threads: BPF probes around gvlsim exec
set -u
bin=$1
. tests/e2e/lib.inc
[ "${GVLSIM_SANITIZED:-0}" = 1 ] && skip "run by the release build's pass (the probes do not test gvlsim)"
need_cmd clang clang
need_cmd bpftool bpftool
pkg-config --exists libbpf 2>/dev/null || skip "libbpf is not installed (optional: apt-get install libbpf-dev)"
[ -r /sys/kernel/btf/vmlinux ] || skip "the kernel has no BTF (/sys/kernel/btf/vmlinux)"
[ "$(id -u)" = 0 ] || skip "loading a BPF probe needs root"
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"

scripts/bpf/build.sh "$tmp/bpf" >"$tmp/build.out" 2>&1 || fail "scripts/bpf/build.sh failed: $(tail -n 5 "$tmp/build.out")"
rec="$tmp/bpf/bpf_record"

# usage and a probe that cannot be opened
run_cmd "$rec" "$tmp/bpf/sched_wakes.bpf.o" "$tmp/x.txt"
expect_code 2 "bpf_record without a command"
run_cmd "$rec" "$tmp/nothing.bpf.o" "$tmp/x.txt" true
expect_code 3 "bpf_record, no such probe"
[ -e "$tmp/x.txt" ] || [ -e "$tmp/x.txt.tmp" ] && fail "a failed bpf_record left an output file"

args="scenarios/mtime_loop.json --set machine.cores=2 --set ractors.0.threads.1.program.0.times_total=20000"
run_cmd "$rec" "$tmp/bpf/sched_wakes.bpf.o" "$tmp/sw.txt" "$bin" exec $args -o "$tmp/x.csv"
if [ "$code" = 3 ]; then skip "this kernel refused the scheduler probe: $(head -n 2 "$tmp/err")"; fi
expect_code 0 "bpf_record sched_wakes.bpf.o"
[ -e "$tmp/sw.txt.tmp" ] && fail "bpf_record left its temporary file"
for k in 1 2 3; do
    grep -q "^$k " "$tmp/sw.txt" || fail "no record of kind $k (scripts/bpf/gv_bpf.h)"
done
bad=$(awk '($1 == 1 && NF != 13) || ($1 == 2 && NF != 20) || ($1 == 3 && NF != 8) || ($1 == 4 && NF != 10) || ($1 == 5 && NF != 9)' "$tmp/sw.txt" | head -n 1)
[ -z "$bad" ] || fail "a record of the wrong length: $bad"
run_cmd awk -f scripts/bpf/sched_wakes.awk "$tmp/sw.txt"
expect_code 0 "sched_wakes.awk on a recording"
expect_match out '^process [0-9]+: [0-9]+ wake-ups recorded$' "the recorded process"
expect_match out "^  with two tasks on the queue: [0-9]+, preempting [0-9]+ [(][0-9]+%[)]; EEVDF's rule from the recorded state agrees with [0-9]+ [(][0-9]+%[)]$" "wakes onto the waker's CPU judged"

run_cmd "$rec" "$tmp/bpf/futex_calls.bpf.o" "$tmp/fx.txt" "$bin" exec $args -o "$tmp/x.csv"
expect_code 0 "bpf_record futex_calls.bpf.o"
bad=$(awk '$1 != 10 || NF != 9' "$tmp/fx.txt" | head -n 1)
[ -z "$bad" ] || fail "a futex record of the wrong shape: $bad"
run_cmd awk -f scripts/bpf/futex_calls.awk "$tmp/fx.txt"
expect_code 0 "futex_calls.awk on a recording"
expect_match out '^  timed    ETIMEDOUT +[1-9]' "the timer thread's timed waits"
expect_match out '^  woke a waiter +[1-9]' "futex wakes that woke a thread"

run_cmd "$rec" "$tmp/bpf/futex_calls.bpf.o" "$tmp/fx2.txt" "$tmp/no-such-command"
expect_code 127 "bpf_record, a command that does not exist"
finish bpf_record.sh
