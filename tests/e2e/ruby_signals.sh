#!/bin/sh
# ruby_signals.sh BINARY - `gvlsim exec --backend ruby` interrupted by
# SIGINT, SIGTERM or SIGHUP while the Ruby program runs: gvlsim dies by the
# signal (exit 128 + N), the Ruby program is killed with it, and its
# private directory (the program, its report, stdout and stderr) is gone
# from $TMPDIR.  Without a ruby on PATH it is skipped.
# real-threads: Ruby programs (`make test` runs such scripts with nothing else at work: tests/e2e/run.sh)
set -u
bin=$1
. tests/e2e/lib.inc

need_cmd ruby ruby
rt="$tmp/rt"  # gvlsim's TMPDIR, nothing else in it
mkdir "$rt"

# the pids of processes whose command line names a file under $rt (the
# Ruby program: `ruby $rt/gvlsim-ruby.XXXXXX/program.rb ...`)
programs_running() {
    for p in /proc/[0-9]*; do
        grep -qsF "$rt/" "$p/cmdline" && echo "${p#/proc/}"
    done
}

# interrupt SIGNAL STATUS: start a Ruby run that never ends by itself
# (tests/data/exec_hang.json: only the watchdog stops it), signal gvlsim once
# the program runs, check what is left.
interrupt() {
    sig=$1 want=$2
    # a background job of a shell starts with SIGINT ignored, one under nohup
    # with SIGHUP ignored: env restores them
    TMPDIR="$rt" env --default-signal=INT,TERM,HUP "$bin" exec --backend ruby --max-spread 1000 --timeout 120 \
        tests/data/exec_hang.json -q -o "$tmp/h.csv" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    i=0  # the run's directory (not the version probe's) holds program.rb and the child's stdout
    while [ $i -lt 600 ] && ! { ls "$rt"/gvlsim-ruby.*/program.rb && ls "$rt"/gvlsim-ruby.*/stdout; } >/dev/null 2>&1; do
        sleep 0.05
        i=$((i + 1))
    done
    checks=$((checks + 1))
    [ -n "$(programs_running)" ] || { sleep 0.5; [ -n "$(programs_running)" ]; } ||
        fail "SIG$sig: the Ruby program did not start: $(ls -R "$rt")"
    stop_job "$sig" $pid
    expect_code "$want" "SIG$sig"
    checks=$((checks + 1))
    [ -z "$(ls -A "$rt")" ] || fail "SIG$sig: left in TMPDIR: $(ls -AR "$rt")"
    checks=$((checks + 1))
    left=$(programs_running)
    if [ -n "$left" ]; then
        fail "SIG$sig: the Ruby program runs on after gvlsim (pid $left)"
        kill -KILL $left 2>/dev/null
    fi
    rm -rf "${rt:?}"/*
    checks=$((checks + 1))
    [ ! -e "$tmp/h.csv" ] || fail "SIG$sig: an output was written"
}
interrupt INT 130
interrupt TERM 143
interrupt HUP 129

finish "$script"
