#!/bin/sh
# completion.sh BINARY - the bash completion (`gvlsim help --completion-data`
# + scripts/completion.bash, as `make` builds it): commands, each command's
# options, option values by kind, scenario keys one segment at a time with
# their values, machine profile names where gvlsim would look for them.
set -u
bin=$1
. tests/e2e/lib.inc
need_cmd bash bash
: >"$tmp/out"
: >"$tmp/err"

{ "$bin" help --completion-data && cat scripts/completion.bash; } >"$tmp/gvlsim.bash"
checks=$((checks + 1))
bash -n "$tmp/gvlsim.bash" 2>"$tmp/err" || fail "the completion script has a syntax error"

# complete LINE: the candidates bash would offer for LINE (cursor at its
# end), sorted, on one line
complete_line() {
    bash -c '. "$1"; COMP_LINE=$2; COMP_POINT=${#2}; COMP_WORDBREAKS=$3; _gvlsim
             [ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}" | LC_ALL=C sort | tr "\n" " "' \
        _ "$tmp/gvlsim.bash" "$1" "${2:-"\"'><=;|&(:"}"
}
# expect_completion LINE WANT: exactly these candidates
expect_completion() {
    checks=$((checks + 1))
    got=$(complete_line "$1")
    [ "$got" = "$2" ] || fail "completion of \"$1\": got \"$got\", want \"$2\""
}

expect_completion "gvlsim " "calibrate check compare exec fit help import merge plot run sweep validate "
expect_completion "gvlsim sw" "sweep "
expect_completion "gvlsim -" "--help --version -V -h "
expect_completion "gvlsim run --se" "--seed --set "
expect_completion "gvlsim sweep x.json --s" "--seed --seeds --set --shard --shards "
expect_completion "gvlsim exec x.json --t" "--timeout --trace --trace-max-events "
expect_completion "gvlsim run x.json --format " "csv json jsonl "
expect_completion "gvlsim run x.json --format j" "json jsonl "
expect_completion "gvlsim run x.json --format=js" "json jsonl "
expect_completion "gvlsim run x.json --engine " "native simgrid "
expect_completion "gvlsim help r" "run "
expect_completion "gvlsim run x.json --seed " ""
# every option of every command, as the help lists it
for cmd in run exec check sweep plot help; do
    want=$("$bin" help "$cmd" | sed -n 's/^  \(-.*\)$/\1/p' | sed 's/  .*//; s/,//; s/ [^-].*//' |
           tr ' ' '\n' | LC_ALL=C sort | tr '\n' ' ')
    expect_completion "gvlsim $cmd -" "$want"
done

# scenario keys after --set and --param, one segment at a time (no word break
# in them: readline replaces the whole word)
expect_completion "gvlsim run x.json --set runtime.gvl_p" "runtime.gvl_policy= "
expect_completion "gvlsim run x.json --set mach" "machine. machine= "
expect_completion "gvlsim run x.json --set machine.co" "machine.compute_after_idle= machine.cond_wait_section= machine.context_switch= machine.cores= machine.coroutine_switch= machine.corun_slowdown= "
expect_completion "gvlsim run x.json --set rac" "ractors. "
expect_completion "gvlsim run x.json --set ractors." "ractors.0. "
expect_completion "gvlsim run x.json --set ractors.3" "ractors.3. "
expect_completion "gvlsim run x.json --set ractors.3.t" "ractors.3.threads. "
expect_completion "gvlsim run x.json --set ractors.1.threads.2.c" "ractors.1.threads.2.count= "
expect_completion "gvlsim sweep x.json --param ractors.0.threads.0.program.0.body.1.d" \
    "ractors.0.threads.0.program.0.body.1.dur= "
# values after '=' (readline replaces only what follows the '=')
expect_completion "gvlsim run x.json --set runtime.gvl_policy=" "barging delayed eager hot_steal threshold "
expect_completion "gvlsim run x.json --set runtime.gvl_policy=hot" "hot_steal "
expect_completion "gvlsim check x.json --set runtime.mn_main=" "false true "
expect_completion "gvlsim run x.json --set ractors.0.threads.0.program.1.op=qu" "queue_pop queue_push "
expect_completion "gvlsim sweep x.json --param runtime.gvl_policy=eager,ba" "eager,barging "
# with '=' not a word break, the whole word is replaced
checks=$((checks + 1))
got=$(complete_line "gvlsim run x.json --set runtime.gvl_policy=hot" " ")
[ "$got" = "runtime.gvl_policy=hot_steal " ] || fail "without '=' in COMP_WORDBREAKS: $got"

# machine profiles: --machines directories, the scenario's machines/, $GVLSIM_MACHINES
expect_completion "gvlsim run scenarios/mtime_loop.json --set machine=" "$(ls scenarios/machines | sed -n 's/\.json$//p' | LC_ALL=C sort | tr '\n' ' ')"
expect_completion "gvlsim run scenarios/mtime_loop.json --set machine=re" "report_m4 "
expect_completion "gvlsim check tests/data/minimal.json --machines tests/data/altmachines --set machine.profile=a" "alt anon "
checks=$((checks + 1))
got=$(GVLSIM_MACHINES=tests/data/altmachines complete_line "gvlsim check x.json --set machine=al")
[ "$got" = "alt " ] || fail "profiles from GVLSIM_MACHINES: $got"

# files by kind: scenarios (*.json), CSVs, directories
mkdir -p "$tmp/d/sub"
: >"$tmp/d/a.json"
: >"$tmp/d/b.csv"
expect_completion "gvlsim run $tmp/d/" "$tmp/d/a.json $tmp/d/sub/ "
expect_completion "gvlsim plot $tmp/d/" "$tmp/d/b.csv $tmp/d/sub/ "
expect_completion "gvlsim check x.json --machines $tmp/d/" "$tmp/d/sub "
expect_completion "gvlsim run x.json -o $tmp/d/b" "$tmp/d/b.csv "

finish completion.sh
