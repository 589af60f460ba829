#!/bin/sh
# sweep_resume.sh BINARY - a sweep killed with SIGKILL midway loses no
# finished run: `--resume` runs only what its journal lacks, and the CSV is
# byte for byte the one an uninterrupted sweep writes (failed runs and exit
# status included); a job of `--emit-jobs` run again after a kill resumes
# its shard.  Run from the repository root by tests/e2e/run.sh.
set -u
bin=$1
. tests/e2e/lib.inc

# 40 runs of ~25 ms; the gvl_policy "nosuch" points fail (exit 3).  Under
# a sanitizer build (GVLSIM_SANITIZED=1, ~5x slower) 5x fewer messages keep
# the runs as long, so the kill still lands midway, for a fifth of the CPU
n=50000
[ "${GVLSIM_SANITIZED:-0}" = 1 ] && n=10000
sweep="sweep scenarios/examples/token_pingpong.json --param machine.cores=1,2
       --param runtime.gvl_policy=eager,hot_steal,delayed,threshold,nosuch --seeds 4 --reproducible -q
       --set ractors.0.threads.0.program.0.times=$n --set ractors.0.threads.1.program.0.times=$n"
# shellcheck disable=SC2086
run $sweep -j 2 -o "$tmp/full.csv"
expect_code 3 "uninterrupted"
full_code=$code

kill_midway() {  # kill_midway OUT [COMMAND...]: start the sweep (or COMMAND), SIGKILL it after 3 journaled runs
    # A busy machine (make test runs suites side by side) can starve this
    # loop until the sweep has finished: then the outputs are removed and
    # the sweep started again, up to 5 times, before the check fails.
    out=$1
    shift
    attempt=1
    while :; do
        if [ $# -gt 0 ]; then
            "$@" >"$tmp/out" 2>"$tmp/err" &
        else
            # shellcheck disable=SC2086
            "$bin" $sweep -j 2 -o "$out" >"$tmp/out" 2>"$tmp/err" &
        fi
        pid=$!
        i=0
        while [ $i -lt 2000 ] && kill -0 $pid 2>/dev/null &&
              [ "$(cat "$out.journal" 2>/dev/null | grep -c '^R ')" -lt 3 ]; do
            sleep 0.01
            i=$((i + 1))
        done
        kill -KILL $pid 2>/dev/null
        wait $pid 2>/dev/null
        [ -f "$out" ] && [ $attempt -lt 5 ] || break
        rm -f "$out" "$out.journal"
        attempt=$((attempt + 1))
    done
    checks=$((checks + 1))
    [ -f "$out.journal" ] && [ ! -f "$out" ] || fail "kill midway: the sweep was not interrupted in $attempt attempts ($(ls "$tmp"))"
}

kill_midway "$tmp/k.csv"
# without --resume the journal is not thrown away
# shellcheck disable=SC2086
run $sweep -j 2 -o "$tmp/k.csv"
expect_code 2 "journal left, no --resume"
expect_line err "gvlsim sweep: $tmp/k.csv.journal: the journal of an interrupted sweep is here: add --resume to continue it, or remove it to start over" "journal left"
# another sweep cannot resume it
# shellcheck disable=SC2086
run $sweep -j 2 -o "$tmp/k.csv" --resume --set runtime.quantum=50ms
expect_code 2 "another sweep"
expect_match err 'belongs to a different sweep' "another sweep"
# the same sweep resumes it, with another -j
# shellcheck disable=SC2086
run $sweep -j 1 -o "$tmp/k.csv" --resume
expect_code "$full_code" "resumed"
checks=$((checks + 1))
cmp -s "$tmp/full.csv" "$tmp/k.csv" || fail "resumed: the CSV differs from the uninterrupted sweep's"
checks=$((checks + 1))
[ -z "$(ls "$tmp" | grep -e '\.journal$' -e '\.tmp\.')" ] || fail "resumed: journal or temporary file left: $(ls "$tmp")"

# a record torn by the kill (the process died writing it) is dropped and rerun
kill_midway "$tmp/t.csv"
printf 'R 39 0 1200 0badc0de\npoint,rep,ma' >>"$tmp/t.csv.journal"
# shellcheck disable=SC2086
run $sweep -j 2 -o "$tmp/t.csv" --resume
expect_code "$full_code" "torn record"
checks=$((checks + 1))
cmp -s "$tmp/full.csv" "$tmp/t.csv" || fail "torn record: the CSV differs from the uninterrupted sweep's"

# a job of --emit-jobs that is run again (a re-submitted Slurm task, GNU
# parallel's --resume-failed) resumes its shard instead of stopping at the
# journal or starting over
# shellcheck disable=SC2086
run $sweep -j 2 --emit-jobs parallel --shards 2 -o "$tmp/e.csv"
expect_code 0 "emit jobs"
expect_match out "--shard=1/2 --resume -o '$tmp/e'.1-of-2'.csv'$" "the job resumes"
job=$(head -n 1 "$tmp/out")
kill_midway "$tmp/e.1-of-2.csv" sh -c "exec $job"
run_job() { sh -c "exec $job" >"$tmp/out" 2>"$tmp/err"; code=$?; }
run_job
code1=$code
cp "$tmp/e.1-of-2.csv" "$tmp/resumed.csv"
checks=$((checks + 1))
[ -z "$(ls "$tmp" | grep -e '\.journal$' -e '\.tmp\.')" ] || fail "job resumed: journal or temporary file left: $(ls "$tmp")"
rm "$tmp/e.1-of-2.csv"
run_job  # uninterrupted, from no journal
expect_code "$code1" "job resumed: the status of an uninterrupted job"
checks=$((checks + 1))
cmp -s "$tmp/e.1-of-2.csv" "$tmp/resumed.csv" || fail "job resumed: the shard differs from an uninterrupted job's"

# no journal for stdout
# shellcheck disable=SC2086
run $sweep -o - --resume
expect_code 2 "--resume to stdout"

finish "$script"
