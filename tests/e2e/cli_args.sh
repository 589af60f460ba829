#!/bin/sh
# cli_args.sh BINARY - one command line for every command: the option forms,
# every kind of value with its range, usage errors (exit 2, before any work,
# nothing written), -h/--help and `gvlsim help` on every command, --version.
set -u
bin=$1
. tests/e2e/lib.inc
scn="scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=200"

# usage_error WHAT ARGS...: exit 2, the message on stderr with a usage line,
# nothing on stdout
usage_error() {
    what=$1
    shift
    run "$@"
    expect_code 2 "$what"
    expect_empty out "$what"
    expect_match err '^usage: gvlsim ' "$what: usage line"
}

# -- every command answers -h and --help (stdout, exit 0), the same text as
#    `gvlsim help CMD`, with an exit-status section
for cmd in run exec check sweep plot help; do
    run "$cmd" -h
    expect_code 0 "$cmd -h"
    expect_match out "^usage: gvlsim $cmd " "$cmd -h: usage"
    expect_match out '^exit status: [0-9]' "$cmd -h: exit status"
    expect_match out '^  -h, --help ' "$cmd -h lists -h"
    cp "$tmp/out" "$tmp/h1"
    run "$cmd" --help
    expect_code 0 "$cmd --help"
    checks=$((checks + 1))
    cmp -s "$tmp/out" "$tmp/h1" || fail "$cmd --help differs from $cmd -h"
    run help "$cmd"
    expect_code 0 "help $cmd"
    checks=$((checks + 1))
    cmp -s "$tmp/out" "$tmp/h1" || fail "gvlsim help $cmd differs from $cmd -h"
done
# -h wins over the rest of the line, even an invalid scenario
run run tests/data/bad/queue_pingpong.json -h
expect_code 0 "-h with a bad scenario"
expect_match out '^usage: gvlsim run ' "-h with a bad scenario"

# -- gvlsim itself: help, --version / -V documented and working
for h in help --help -h; do
    run $h
    expect_code 0 "gvlsim $h"
    expect_match out '^  -V, --version ' "gvlsim $h documents --version"
    expect_match out '^exit status:$' "gvlsim $h: exit status"
    expect_match out '^  sweep   ' "gvlsim $h lists sweep"
done
for v in --version -V; do
    run $v
    expect_code 0 "$v"
    expect_match out '^gvlsim [0-9]+\.[0-9]+\.[0-9]+$' "$v"
done
run
expect_code 2 "no command"
run rnu x.json
expect_code 2 "unknown command"
expect_line err 'gvlsim: unknown command "rnu" (did you mean "run"?)' "unknown command"
usage_error "help of an unknown command" help nosuch

# -- option forms: --opt value, --opt=value, -o value, -oVALUE, clusters, --
# shellcheck disable=SC2086
run run $scn --seed 5 -q --reproducible --no-header
expect_code 0 "--seed 5"
cp "$tmp/out" "$tmp/seed5"
# shellcheck disable=SC2086
run run $scn --seed=5 -q --reproducible -o "$tmp/a.csv" --no-header
expect_code 0 "--seed=5"
checks=$((checks + 1))
cmp -s "$tmp/a.csv" "$tmp/seed5" || fail "--seed=5 and --seed 5 differ"
# shellcheck disable=SC2086
run run $scn --seed=5 -q --reproducible "-o$tmp/b.csv" --no-header
checks=$((checks + 1))
cmp -s "$tmp/b.csv" "$tmp/seed5" || fail "-oFILE"
# shellcheck disable=SC2086
run sweep $scn --param machine.cores=1,2 -qj1 --reproducible -o "$tmp/j.csv"
expect_code 0 "sweep -qj1"
expect_empty err "sweep -qj1: -q in a cluster"
run run -- -dash.json
expect_code 5 "after --, an operand"
expect_line err "-dash.json: cannot read scenario: No such file or directory" "after --"
# shellcheck disable=SC2086
run run $scn -q -q --seed 5 --reproducible --no-header -o -
expect_code 0 "a repeated flag, -o - (stdout)"
checks=$((checks + 1))
cmp -s "$tmp/out" "$tmp/seed5" || fail "-o - is not stdout"

# -- values that start with '-': the '=' form; a forgotten value is caught
# shellcheck disable=SC2086
usage_error "-o followed by an option" run $scn -o --quiet
expect_line err "gvlsim run: option -o needs a value (for a value that starts with '-', write --output=--quiet)" "-o --quiet"
printf 'cores,wall_s\n1,2.0\n2,1.5\n' >"$tmp/p.csv"
run plot "$tmp/p.csv" --x cores --y wall_s --title=-minus- --script-only
expect_code 0 "--title=-minus-"
checks=$((checks + 1))
grep -q -- '-minus-' "$tmp/p.gp" || fail "--title=-minus- not in the script"

# -- flags take no value; valued options are given once; unknown options
# shellcheck disable=SC2086
usage_error "--quiet=1" run $scn --quiet=1
expect_line err 'gvlsim run: option --quiet takes no value (got "--quiet=1")' "--quiet=1"
# shellcheck disable=SC2086
usage_error "--seed twice" run $scn --seed 1 --seed=2
expect_line err 'gvlsim run: option --seed given twice (it takes one value)' "--seed twice"
# shellcheck disable=SC2086
usage_error "misspelt option" run $scn --sed 3
expect_line err 'gvlsim run: unknown option "--sed" (did you mean "--set"?)' "misspelt option"
usage_error "--trace on exec --backend ruby" exec scenarios/mtime_loop.json --backend ruby --trace "$tmp/t.json"
usage_error "a missing value" check tests/data/minimal.json --machines

# -- integers
for bad in -1 9007199254740993 1.5 abc "" +3; do
    # shellcheck disable=SC2086
    usage_error "--seed '$bad'" run $scn --seed "$bad"
done
# shellcheck disable=SC2086
run run $scn --seed 9007199254740992 -q --no-header
expect_code 0 "--seed 2^53"
expect_match out '^mtime_loop,sim,native,eager,none,none,2,1,9,9007199254740992,' "--seed 2^53 in the row"
# shellcheck disable=SC2086
usage_error "-j 1025" sweep $scn --param machine.cores=1 -j 1025
expect_line err 'gvlsim sweep: -j needs an integer 1..1024, got "1025"' "-j 1025"
# shellcheck disable=SC2086
usage_error "--trace-max-events 0" run $scn --trace "$tmp/t.json" --trace-max-events 0
checks=$((checks + 1))
[ ! -e "$tmp/t.json" ] || fail "a usage error wrote the trace"

# -- times: seconds or a duration with a unit; ranged; never overflowing
# shellcheck disable=SC2086
for bad in 0 -1 1e10 9000001 1e300 abc 5parsecs 1e-13; do
    usage_error "--max-time '$bad'" run $scn --max-time "$bad"
done
expect_line err 'gvlsim run: --max-time: "1e-13" is finer than a picosecond' "--max-time 1e-13"
# shellcheck disable=SC2086
run run $scn -q --max-time 9e6
expect_code 0 "--max-time 9e6 (the largest)"
run run scenarios/io_plus_cpu.json --max-time 500ms
expect_code 4 "--max-time 500ms"
expect_match err 'simulated time limit of 0\.500 s reached' "--max-time 500ms"
for bad in 1e10 0 -5 1e99; do
    usage_error "exec --timeout $bad" exec tests/data/exec_hang.json --timeout "$bad" -o "$tmp/h.csv"
done
expect_line err 'gvlsim exec: --timeout needs a time > 0 and at most 9e6 s, got "1e99"' "--timeout 1e99"
checks=$((checks + 1))
[ ! -e "$tmp/h.csv" ] || fail "exec --timeout: a usage error wrote the output"

# -- files and directories: never empty, refused before any work
for cmd in run exec sweep; do
    # shellcheck disable=SC2086
    usage_error "$cmd -o ''" $cmd $scn --param machine.cores=1 -o ''
done
expect_line err 'gvlsim sweep: -o needs a file name, got ""' "-o ''"
# shellcheck disable=SC2086
usage_error "run -o ''" run $scn -o ''
expect_line err 'gvlsim run: -o needs a file name, got ""' "run -o ''"
usage_error "plot -o ''" plot "$tmp/p.csv" --x cores --y wall_s -o ''
# shellcheck disable=SC2086
usage_error "--trace ''" run $scn --trace=
usage_error "--machines ''" check tests/data/minimal.json --machines ''
usage_error "an empty scenario" run ''
expect_line err 'gvlsim run: an empty SCENARIO ("") was given' "an empty scenario"

# -- enums: a suggestion, or the list
# shellcheck disable=SC2086
usage_error "--engine simgridx" run $scn --engine simgridx
expect_line err 'gvlsim run: --engine: unknown value "simgridx" (did you mean "simgrid"?)' "--engine simgridx"
# shellcheck disable=SC2086
usage_error "--format xml" run $scn --format xml
expect_line err 'gvlsim run: --format: unknown value "xml" (one of: csv, json or jsonl)' "--format xml"

# -- KEY=VALUE
# shellcheck disable=SC2086
usage_error "--set without =" run $scn --set seed
expect_line err 'gvlsim run: --set needs KEY=VALUE, got "seed"' "--set without ="
usage_error "--param =1" sweep scenarios/mtime_loop.json --param =1,2

# -- required options and operands
usage_error "plot without --y" plot "$tmp/p.csv" --x cores
expect_line err 'gvlsim plot: option --y is required (except with --breakdown)' "plot without --y"
usage_error "no scenario" run
expect_line err 'gvlsim run: missing SCENARIO' "no scenario"
usage_error "two scenarios" exec scenarios/mtime_loop.json scenarios/io_plus_cpu.json
expect_line err 'gvlsim exec: only one SCENARIO (got "scenarios/mtime_loop.json" and "scenarios/io_plus_cpu.json")' "two scenarios"
usage_error "help with two commands" help run sweep

# -- --machines may be given several times: every directory is searched, in order
run check --machines "$tmp" --machines tests/data/altmachines tests/data/profile_alt.json
expect_code 0 "--machines twice (the second has it)"
expect_line out "tests/data/profile_alt.json: ok (1 ractor, 1 thread, machine alt, 12 cores, policy eager)" "--machines twice"
run check --machines tests/data/altmachines --machines "$tmp" tests/data/profile_alt.json
expect_code 0 "--machines twice (the first has it)"
run check --machines "$tmp" --machines=/nonexistent tests/data/profile_alt.json
expect_code 3 "--machines twice, neither has it"
expect_line err "tests/data/profile_alt.json:2:14: /machine: no machine profile \"alt\" (looked in: $tmp, /nonexistent, tests/data/machines)" "--machines order"
# shellcheck disable=SC2086
run run tests/data/profile_alt.json --machines "$tmp" --machines tests/data/altmachines -q
expect_code 0 "run --machines twice"
# a profile in the first directory wins over one of the same name in the second
mkdir "$tmp/m2"
sed 's/"cores": *[0-9]*/"cores": 5/' tests/data/altmachines/alt.json >"$tmp/m2/alt.json"
run check --machines "$tmp/m2" --machines tests/data/altmachines tests/data/profile_alt.json
expect_line out "tests/data/profile_alt.json: ok (1 ractor, 1 thread, machine alt, 5 cores, policy eager)" "first --machines wins"

finish cli_args.sh
