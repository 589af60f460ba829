#!/bin/sh
# calibrate_ruby.sh BINARY - `calibrate --only ruby`: the keys of one Ruby
# (insn_time, the gc_ keys, alloc_object, env_escape_work, method_work.*, method_work_after.*) and nothing else, no profile when that Ruby
# cannot run; scripts/profile_sets.sh turns a profile's keys into --set
# overrides that a run lays over a host's profile.  The Ruby is Debian's
# `ruby` (a test dependency); without it the real part is skipped.
# real-threads: gvlsim calibrate --only ruby runs a Ruby pinned to a CPU (`make test` runs such scripts with nothing else at work: tests/e2e/run.sh)
set -u
bin=$1
. tests/e2e/lib.inc

mtime="scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=500"

# -- usage: --only ruby and --no-ruby exclude each other; a Ruby that
#    cannot run is exit 4, and neither writes a profile
run calibrate --only ruby --no-ruby -o "$tmp/never.json"
expect_code 2 "--only ruby --no-ruby"
expect_match err "--no-ruby excludes --only ruby" "--only ruby --no-ruby named"
run calibrate --only ruby --ruby "$tmp/no-such-ruby" -q -o "$tmp/never.json"
expect_code 4 "--only ruby with a Ruby that does not run"
expect_match err "^gvlsim calibrate: --only ruby: " "--only ruby: the failure said"
checks=$((checks + 1))
[ -e "$tmp/never.json" ] && fail "a failed --only ruby wrote a profile"

# -- profile_sets.sh on the committed shipped-style profile: the named keys
#    as --set overrides, in order; a curve as one word; a missing key, no
#    key list
h=docs/data/validate/hosts/xeon-2vcpu-2026-12-02/host.json
out=$(scripts/profile_sets.sh "$h" context_switch futex_wake 2>"$tmp/err")
checks=$((checks + 1))
printf '%s\n' "$out" | grep -qE '^--set machine\.context_switch=[0-9.]+[nu]s --set machine\.futex_wake=[0-9.]+[nu]s$' ||
    fail "profile_sets.sh named keys: \"$out\""
checks=$((checks + 1))
scripts/profile_sets.sh "$h" no_such_key >/dev/null 2>"$tmp/err" && fail "profile_sets.sh: a missing key accepted"
expect_match err "no key no_such_key" "profile_sets.sh: the missing key named"
checks=$((checks + 1))
out=$(scripts/profile_sets.sh "$h" wake_idle_extra 2>"$tmp/err")
printf '%s\n' "$out" | grep -qE '^--set machine\.wake_idle_extra=\[\["[0-9.]+[nu]?s","[0-9.]+[pnu]?s"\](,\["[0-9.]+[num]?s","[0-9.]+[pnu]?s"\])+\]$' ||
    fail "profile_sets.sh: a curve not as one word of JSON: \"$out\""
checks=$((checks + 1))
set -f
# shellcheck disable=SC2086
run run scenarios/queue_pingpong.json --set machine="$h" $out -q
set +f
expect_code 0 "a run with the curve as profile_sets.sh gives it"
checks=$((checks + 1))
scripts/profile_sets.sh scenarios/machines/report_m4.json >/dev/null 2>"$tmp/err" &&
    fail "profile_sets.sh: a profile without a key list accepted"

if ! command -v ruby >/dev/null 2>&1; then
    echo "  $script: no ruby on PATH: the measurement itself is not checked" >&2
    finish "$script"
fi

# -- the Ruby's keys, nothing else; the Ruby given by a path some
#    directories deep, which the recorded command shortens
mkdir -p "$tmp/opt/ruby-x/bin" && ln -s "$(command -v ruby)" "$tmp/opt/ruby-x/bin/ruby" || fail "no symlink"
# a sanitizer build takes the quick stage (half the rounds: 9 s against 19
# here): the same code, the whole stage is the release build's to run
quick=
[ "${GVLSIM_SANITIZED:-0}" = 1 ] && quick=--quick
# shellcheck disable=SC2086
run calibrate --only ruby --ruby "$tmp/opt/ruby-x/bin/ruby" -q -o "$tmp/ruby.json" $quick
expect_code 0 "calibrate --only ruby"
expect_has "$tmp/ruby.json" "--only ruby profile" \
    '"insn_time": ' '"method_work": {' '"stat": ' '"open_devnull": ' '"key": "insn_time"' \
    '"key": "method_work.stat"' '"key": "method_work.open_devnull"' '"key": "method_work_after.close"' \
    '"method_work_after": {' '"name": "ruby_file_write_open_write_ns", "unit": "ns", "what": ' '--only ruby' \
    '"name": "ruby_insn_ns", "unit": "ns", "what": ' '"gc_free_body": ' '"key": "gc_free_body"' \
    '"name": "ruby_sweep_body_ns", "unit": "ns", "what": ' '"gc_sweep_per_slot": ' '"gc_mark_base": ' \
    '"gc_mark_per_page": ' '"gc_mark_per_thread": ' '"gc_mark_per_object": ' '"alloc_object": ' '"name": "ruby_alloc_ns", ' '"key": "gc_mark_per_page"' \
    '"env_escape_work": ' '"name": "ruby_escape_ns", ' '"key": "env_escape_work"' \
    '"name": "ruby_sweep_slot_ns", "unit": "ns", "what": ' '"name": "ruby_mark_page_ns", "unit": "ns", "what": '
expect_lacks "$tmp/ruby.json" "--only ruby profile" \
    '"context_switch": ' '"wake_idle_core": ' '"cache_probe": ' '"syscalls": ' '"os_scheduler": '
checks=$((checks + 1))
grep -qF '"command": "gvlsim calibrate --only ruby --ruby .../ruby-x/bin/ruby -q -o ' "$tmp/ruby.json" ||
    fail "--only ruby: the recorded command does not shorten the Ruby's path"
checks=$((checks + 1))
grep -qF "$tmp/opt" "$tmp/ruby.json" && fail "--only ruby: the profile names the Ruby's directories"
checks=$((checks + 1))
grep -q '"name": "futex_wake_ns".*"note": "not run (--only ruby)"' "$tmp/ruby.json" ||
    fail "--only ruby: futex_wake_ns not marked as not run"
# the work after a hand-off across CPUs: measured with two CPUs, and then
# its keys written (one CPU: skipped, said so)
if [ "$(nproc)" -ge 2 ]; then
    expect_has "$tmp/ruby.json" "--only ruby profile, two CPUs" \
        '"name": "ruby_cross_write_ns", "unit": "ns", "what": ' '"compute_after_idle": ' '"method_after_idle": {' \
        '"key": "method_after_idle.open_devnull"'
else
    expect_has "$tmp/ruby.json" "--only ruby profile, one CPU" '"note": "one CPU in the affinity mask'
fi

# -- laid over a whole profile: the run takes the Ruby's method work (a
#    syscall op with "method_work": "machine" charges it), and the keys are
#    the ones the partial profile holds
sets=$(scripts/profile_sets.sh "$tmp/ruby.json")
checks=$((checks + 1))
printf '%s\n' "$sets" | grep -qE '^--set machine\.insn_time=[0-9.]+[pnu]?s --set machine\.gc_free_body=[0-9.]+[pnu]?s --set machine\.gc_sweep_per_slot=[0-9.]+[pnu]?s --set machine\.gc_mark_base=[0-9.]+[pnu]?s --set machine\.gc_mark_per_page=[0-9.]+[pnu]?s --set machine\.gc_mark_per_thread=[0-9.]+[pnu]?s --set machine\.gc_mark_per_object=[0-9.]+[pnu]?s --set machine\.alloc_object=[0-9.]+[pnu]?s --set machine\.env_escape_work=[0-9.]+[pnu]?s --set machine\.gc_cold=\[\[[^ ]*\]\] --set machine\.method_work\.stat=[0-9.]+[pnu]?s --set machine\.method_work\.open_devnull=[0-9.]+[pnu]?s --set machine\.method_work\.write_devnull=[0-9.]+[pnu]?s --set machine\.method_work\.close=[0-9.]+[pnu]?s --set machine\.method_work_after\.stat=[0-9.]+[pnu]?s --set machine\.method_work_after\.close=[0-9.]+[pnu]?s( --set machine\.compute_after_idle=[0-9.]+[pnu]?s --set machine\.method_after_idle\.stat=[0-9.]+[pnu]?s --set machine\.method_after_idle\.open_devnull=[0-9.]+[pnu]?s)?$' ||
    fail "profile_sets.sh of the --only ruby profile: \"$sets\""
mw="--set ractors.0.threads.1.program.0.body.1.dur=machine --set ractors.0.threads.1.program.0.body.1.method_work=machine"
# shellcheck disable=SC2086
run run $mtime $mw --set machine="$h" --set machine.method_work.stat=0ns -q
expect_code 0 "a run with no method work"
cp "$tmp/out" "$tmp/none.csv"
# shellcheck disable=SC2086
run run $mtime $mw --set machine="$h" $sets --set machine.method_work.stat=50us -q
expect_code 0 "a run with the Ruby's keys and 50 us of method work"
checks=$((checks + 1))
w0=$(csv_col wall_s "$tmp/none.csv"); w1=$(csv_col wall_s "$tmp/out")
awk -v a="$w0" -v b="$w1" 'BEGIN { exit !(b > a + 0.02) }' ||
    fail "500 calls with 50 us of method work each: wall $w1 s against $w0 s without"
# shellcheck disable=SC2086
run run $mtime $mw --set machine="$h" $sets -q
expect_code 0 "a run with the Ruby's keys"

finish "$script"
