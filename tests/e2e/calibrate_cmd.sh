#!/bin/sh
# calibrate_cmd.sh BINARY - `gvlsim calibrate --quick`: a profile that
# `check` and `run` accept as is (by a path relative to the working
# directory), with the host and every measurement recorded; usage errors;
# an unwritable output fails before measuring.  No timing is asserted: the
# numbers depend on this machine and its load.
# real-threads: gvlsim calibrate (`make test` runs such scripts with nothing else at work: tests/e2e/run.sh)
set -u
bin=$1
. tests/e2e/lib.inc

run calibrate --bogus
expect_code 2 "unknown option"
run calibrate --max-spread 0
expect_code 2 "--max-spread 0"
run calibrate --quick -o /nonexistent/dir/p.json
expect_code 5 "unwritable output"
expect_match err "^gvlsim calibrate: .*/nonexistent/dir" "unwritable output named"
run calibrate --quick --ruby ruby --no-ruby -o "$tmp/never.json"
expect_code 2 "--ruby with --no-ruby"
checks=$((checks + 1))
[ -e "$tmp/never.json" ] && fail "--ruby with --no-ruby wrote a profile"
run calibrate --help
expect_code 0 "--help"
expect_match out "docs/calibrate.md" "--help names the docs"

run calibrate --quick -q -o "$tmp/host.json"
expect_code 0 "calibrate --quick"
checks=$((checks + 1))
[ -s "$tmp/host.json" ] || fail "no profile written"
expect_has "$tmp/host.json" "profile" \
    '"name": "host"' '"os_scheduler": ' '"context_switch": ' '"wake_idle_core": ' \
    '"calibration": {' '"kernel": ' '"cpu": ' '"date": ' '"name": "wake_preempt"' \
    '"name": "syscall_stat_ns"' '"derivation": ' '"name": "ruby_insn_ns"' '"insn_time": ' \
    '"name": "wake_after_idle_30ms_ns"' '"name": "syscall_open_ns"' '"name": "syscall_close_ns"' \
    '"syscalls": {' '"stat": ' '"write_devnull": ' '"getpid": ' '"open_devnull": ' '"close": ' \
    '"key": "syscalls.stat"' '"name": "ruby_file_mtime_extra_ns"' '"name": "ruby_file_write_extra_ns"' \
    '"method_work": {' '"key": "method_work.stat"' '"key": "method_work.open_devnull"'
checks=$((checks + 1))
ls "$tmp" | grep -q 'tmp\.' && fail "a temporary file was left: $(ls "$tmp")"

# the profile as is, by a path relative to the working directory
root=$(pwd)
cd "$tmp" || exit 1
run check "$root/scenarios/queue_pingpong.json" --set machine=host.json
expect_code 0 "check --set machine=RELATIVE"
expect_match out "queue_pingpong.json: ok .*machine host" "the calibrated profile is used"
run run "$root/scenarios/mtime_loop.json" --set machine=host.json --set machine.cores=1 \
    --set ractors.0.threads.1.program.0.times_total=200 -q
expect_code 0 "run with the calibrated profile"
# its system-call costs serve a syscall op's "dur": "machine"
run run "$root/scenarios/queue_pingpong.json" --set machine=host.json --set machine.cores=1 \
    --set ractors.0.threads.0.program.0.times=20 --set ractors.0.threads.1.program.0.times=100 \
    --set ractors.0.threads.1.program.0.body.2.dur=machine --set ractors.0.threads.1.program.0.body.3.dur=machine \
    --set ractors.0.threads.1.program.0.body.4.dur=machine -q
expect_code 0 "dur=machine with the calibrated profile"
# its Ruby methods' work serves a syscall op's "method_work": "machine"
run run "$root/scenarios/queue_pingpong.json" --set machine=host.json --set machine.cores=1 \
    --set ractors.0.threads.0.program.0.times=20 --set ractors.0.threads.1.program.0.times=100 \
    --set ractors.0.threads.1.program.0.body.2.method_work=machine -q
expect_code 0 "method_work=machine with the calibrated profile"
run run "$root/scenarios/mtime_loop.json" --set machine=host.json --set machine.cores=1 \
    --set ractors.0.threads.1.program.0.times_total=200 \
    --set ractors.0.threads.1.program.0.body.1.method_work=machine -q
expect_code 0 "File.mtime's method_work=machine with the calibrated profile"
run check "$root/scenarios/queue_pingpong.json" --set machine=nosuch.json
expect_code 3 "missing relative profile"
expect_match err "no machine profile \"nosuch.json\" \(looked for: nosuch.json, $root/scenarios/nosuch.json\)" \
    "both places named"
cd "$root" || exit 1

# the stat benchmarks read the file the backends stat: the scenario beside
# the executable (by its absolute path) or the executable, named in the
# derivation
checks=$((checks + 1))
grep -q "syscall_stat_ns [0-9.e+]* ns (of a path of [0-9]* components, .../" "$tmp/host.json" ||
    fail "syscalls.stat's derivation does not name the file"
# without a Ruby: no method_work, said so, and an op that asks for it fails to load
# (a whole second calibration, 7 s: the release build's; under a sanitizer
# the flag on the one-second speed stage, whose profile lacks method_work too)
only=""
[ "${GVLSIM_SANITIZED:-0}" = 1 ] && only="--only speed"
# shellcheck disable=SC2086
run calibrate --quick -q --no-ruby $only -o "$tmp/noruby.json"
expect_code 0 "calibrate --quick --no-ruby $only"
checks=$((checks + 1))
grep -qF '"method_work": {' "$tmp/noruby.json" && fail "--no-ruby wrote method_work"
run check scenarios/mtime_loop.json --set machine="$tmp/noruby.json" \
    --set ractors.0.threads.1.program.0.body.1.method_work=machine
expect_code 3 "method_work=machine on a profile without it"
expect_match err "has no Ruby method work for call \"stat\" \(machine.method_work.stat\)" "the missing key named"

# --machines may be given several times: the first directory that has it wins
mkdir -p "$tmp/m1" "$tmp/m2"
printf '{ "cores": 3 }\n' >"$tmp/m2/box.json"
printf '{ "cores": 5 }\n' >"$tmp/m1/other.json"
run check tests/data/minimal.json --set machine=box --machines "$tmp/m1" --machines "$tmp/m2"
expect_code 0 "--machines twice"
expect_match out "machine box, 3 cores" "the second --machines directory searched"
finish "$script"
