#!/bin/sh
# bpf_record.sh BINARY - scripts/bpf builds, and its probes record a real
# `gvlsim exec` run on two CPUs: the scheduler probe sees the run's
# wake-ups and switches (and, if they idle, its CPUs going idle), and
# sched_wakes.awk reports on them; the futex probe sees the timer thread's
# timed waits; with a one-page buffer records are lost and bpf_record
# fails saying so.  What the kernel decided is not checked (it is the
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

# record PROBE NAME BAD: record a short `gvlsim exec` run with build/bpf/PROBE.bpf.o
# into $tmp/NAME.txt (skipped if this kernel refuses the probe), check that no
# record matches the awk condition BAD (a wrong kind or length, gv_bpf.h) and
# run scripts/bpf/PROBE.awk on it
args="scenarios/mtime_loop.json --set machine.cores=2 --set ractors.0.threads.1.program.0.times_total=20000"
record() {
    run_cmd "$rec" "$tmp/bpf/$1.bpf.o" "$tmp/$2.txt" "$bin" exec $args -o "$tmp/x.csv"
    [ "$code" = 3 ] && skip "this kernel refused $1.bpf.o: $(head -n 2 "$tmp/err")"
    expect_code 0 "bpf_record $1.bpf.o"
    [ -e "$tmp/$2.txt.tmp" ] && fail "bpf_record left its temporary file"
    bad=$(awk "$3" "$tmp/$2.txt" | head -n 1)
    [ -z "$bad" ] || fail "$1: a record of the wrong kind or length: $bad"
    run_cmd awk -f "scripts/bpf/$1.awk" "$tmp/$2.txt"
    expect_code 0 "$1.awk on a recording"
}

record sched_wakes sw '($1 == 1 && NF != 17) || ($1 == 2 && NF != 20) || ($1 == 3 && NF != 8) || ($1 == 4 && NF != 10) || ($1 == 5 && NF != 9) || $1 < 1 || $1 > 5'
for k in 1 2 3; do
    grep -q "^$k " "$tmp/sw.txt" || fail "no record of kind $k (scripts/bpf/gv_bpf.h)"
done
expect_match out '^process [0-9]+: [0-9]+ wake-ups recorded$' "the recorded process"
# (a busy host may leave no wake with only the two tasks queued: "0 ... (-)")
expect_match out "^  with two tasks on the queue: [0-9]+, preempting [0-9]+ [(]([0-9]+%|-)[)]; EEVDF's rule from the recorded state agrees with [0-9]+ [(]([0-9]+%|-)[)]$" "wakes onto the waker's CPU judged"

record futex_calls fx '$1 != 10 || NF != 9'
expect_match out '^  timed    ETIMEDOUT +[1-9]' "the timer thread's timed waits"
expect_match out '^  woke a waiter +[1-9]' "futex wakes that woke a thread"

run_cmd "$rec" "$tmp/bpf/futex_calls.bpf.o" "$tmp/fx2.txt" "$tmp/no-such-command"
expect_code 127 "bpf_record, a command that does not exist"

# a buffer of one page: records are lost, and bpf_record says so and fails
GV_RB_BYTES=4096 scripts/bpf/build.sh "$tmp/small" >"$tmp/build.out" 2>&1 || fail "build.sh with GV_RB_BYTES=4096 failed: $(tail -n 5 "$tmp/build.out")"
run_cmd "$tmp/small/bpf_record" "$tmp/small/sched_wakes.bpf.o" "$tmp/lost.txt" "$bin" exec $args -o "$tmp/x.csv"
expect_code 4 "bpf_record with records lost"
expect_match err "^bpf_record: [1-9][0-9]* records lost [(]the probe's buffer was full[)]: $tmp/lost.txt is incomplete$" "records lost: the message"
[ -s "$tmp/lost.txt" ] || fail "records lost: what was recorded is not written"
finish bpf_record.sh
