#!/bin/sh
# check.sh BINARY - `gvlsim check`: exit codes, stdout and stderr.
# Run from the repository root by tests/e2e/run.sh.
set -u
bin=$1
. tests/e2e/lib.inc

# -- valid files: exit 0, one summary line each on stdout, nothing on stderr
run check tests/data/minimal.json
expect_code 0 "valid file"
expect_line out "tests/data/minimal.json: ok (1 ractor, 1 thread, machine default, 8 cores, policy eager)" "valid file"
expect_empty err "valid file"

run check tests/data/full.json scenarios/examples/token_pingpong.json
expect_code 0 "two valid files"
expect_line out "tests/data/full.json: ok (4 ractors, 11 threads, machine testbox, 6 cores, policy threshold)" "full"
expect_line out "scenarios/examples/token_pingpong.json: ok (1 ractor, 2 threads, machine default, 2 cores, policy eager)" "example"
expect_lines out 2 "two valid files"

# -- invalid: exit 3, every problem on stderr, one per line
run check tests/data/bad/queue_pingpong.json
expect_code 3 "invalid file"
expect_empty out "invalid file"
expect_line err 'tests/data/bad/queue_pingpong.json:14:21: /ractors/0/threads/1/program/3/op: unknown op "queue_pops" (did you mean "queue_pop"?)' "invalid file"
expect_lines err 2 "invalid file"

run check tests/data/bad/bad_duration.json
expect_code 3 "many problems"
expect_lines err 9 "many problems"

run check tests/data/bad/syntax.json
expect_code 3 "syntax error"
expect_line err "tests/data/bad/syntax.json:3:53: syntax error near '] } ] }'" "syntax error"

# -- valid and invalid together: the valid one still gets its line
run check tests/data/minimal.json tests/data/bad/main_count.json
expect_code 3 "valid + invalid"
expect_lines out 1 "valid + invalid"
expect_line err "tests/data/bad/main_count.json:2:27: /ractors/0/count: ractors[0] is the main Ractor and cannot be replicated: count must be 1, got 2" "valid + invalid"

# -- unreadable: exit 5, naming the file and the reason; it wins over 3
run check tests/data/no_such.json
expect_code 5 "missing file"
expect_line err "tests/data/no_such.json: cannot read scenario: No such file or directory" "missing file"

run check tests/data/bad/syntax.json tests/data/no_such.json
expect_code 5 "invalid + missing"

run check -- -dash.json
expect_code 5 "file after --"
expect_line err "-dash.json: cannot read scenario: No such file or directory" "file after --"

# -- --set, both spellings, applied to every file
run check tests/data/minimal.json --set runtime.gvl_policy=hot_steal --set=machine.cores=3
expect_code 0 "--set"
expect_line out "tests/data/minimal.json: ok (1 ractor, 1 thread, machine default, 3 cores, policy hot_steal)" "--set"

run check --set ractors.0.threads.0.count=5 tests/data/minimal.json tests/data/profile_name.json
expect_code 0 "--set on two files"
expect_line out "tests/data/minimal.json: ok (1 ractor, 5 threads, machine default, 8 cores, policy eager)" "--set file 1"
expect_line out "tests/data/profile_name.json: ok (1 ractor, 5 threads, machine testbox, 4 cores, policy eager)" "--set file 2"

run check tests/data/minimal.json --set runtime.gvl_policy=hot_stela
expect_code 3 "bad --set value"
expect_line err '--set[1]:1:20: /runtime/gvl_policy: unknown gvl_policy "hot_stela" (did you mean "hot_steal"?)' "bad --set value"

run check tests/data/minimal.json --set seed
expect_code 3 "--set without ="
expect_line err "--set[1]:1:1: missing '=' in \"seed\" (expected key.path=value)" "--set without ="

run check tests/data/profile_name.json --set machine=anon
expect_code 0 "--set machine=NAME"
expect_line out "tests/data/profile_name.json: ok (1 ractor, 1 thread, machine anon, 3 cores, policy eager)" "--set machine=NAME"

# -- machine profiles: --machines DIR, then <dir>/machines, then $GVLSIM_MACHINES
run check tests/data/profile_alt.json
expect_code 3 "unknown profile"
expect_line err 'tests/data/profile_alt.json:2:14: /machine: no machine profile "alt" (looked in: tests/data/machines)' "unknown profile"

run check --machines tests/data/altmachines tests/data/profile_alt.json
expect_code 0 "--machines"
expect_line out "tests/data/profile_alt.json: ok (1 ractor, 1 thread, machine alt, 12 cores, policy eager)" "--machines"

GVLSIM_MACHINES=/nonexistent:tests/data/altmachines run check tests/data/profile_alt.json
expect_code 0 "GVLSIM_MACHINES"

run check tests/data/profile_broken.json
expect_code 3 "errors in a profile"
expect_line err 'tests/data/machines/broken.json:2:12: /cores: 9000 is out of range (1..4096)' "errors in a profile"

# -- usage errors: exit 2
run check
expect_code 2 "no file"
expect_line err "gvlsim check: missing SCENARIO" "no file"

run check --frobnicate tests/data/minimal.json
expect_code 2 "unknown option"
expect_line err 'gvlsim check: unknown option "--frobnicate"' "unknown option"

run check tests/data/minimal.json --set
expect_code 2 "--set without a value"

run check --help
expect_code 0 "--help"
expect_line out "usage: gvlsim check SCENARIO... [--set KEY.PATH=VALUE]... [--machines DIR]" "--help"

run help check
expect_code 0 "gvlsim help check"

finish check.sh
