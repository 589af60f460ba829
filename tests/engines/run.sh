#!/bin/sh
# tests/engines/run.sh BINARY [SIMGRID] - the differential test of the two
# engines.  Every golden case (tests/golden/cases.txt) and every case of
# tests/engines/cases.txt (a suite that covers every model) runs on the
# native and on the SimGrid engine, each logging every fired event
# (GVLSIM_EVENT_LOG).  The event logs must be identical, and so must the CSVs
# apart from the `engine` and `host_s` columns, and a failing run must fail
# alike (exit code and message; cases named fail_* must fail, the others
# must succeed).  On a difference, the first diverging event
# is printed (time, handler, object).
#
# SIMGRID is "yes" when the build has the SimGrid engine (the Makefile passes
# it): then a missing engine is a failure; otherwise the test is skipped.
set -u
bin=${1:?usage: tests/engines/run.sh BINARY [yes]}
want=${2:-}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
dir=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$dir/../.." && pwd)
cd "$top" || exit 2

if ! "$bin" run tests/data/minimal.json --engine simgrid -q -o /dev/null 2>/dev/null; then
    if [ "$want" = yes ]; then
        echo "FAIL engines: this build should have the SimGrid engine:"
        "$bin" run tests/data/minimal.json --engine simgrid -q -o /dev/null
        exit 1
    fi
    echo "engines: skipped (no SimGrid engine in this build; install libsimgrid-dev)"
    exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$dir/lib.sh"

pass=0; fail=0
check() {  # check NAME SCENARIO ARGS...
    name=$1; scn=$2; shift 2
    for e in native simgrid; do
        # shellcheck disable=SC2086
        GVLSIM_EVENT_LOG="$tmp/$e.log" "$bin" run "$scn" --reproducible -q --engine $e "$@" </dev/null \
            -o "$tmp/$e.csv" 2>"$tmp/$e.err"
        echo $? >"$tmp/$e.rc"
        sed "s/\[sim\/$e\]/[sim\/ENGINE]/" "$tmp/$e.err" >"$tmp/$e.msg"
        [ -e "$tmp/$e.csv" ] && csv_drop_engine_columns "$tmp/$e.csv" >"$tmp/$e.cut" || : >"$tmp/$e.cut"
    done
    why=
    case $name in fail_*) want_rc=nonzero ;; *) want_rc=0 ;; esac
    if [ "$want_rc" = 0 ] && [ "$(cat "$tmp/native.rc")" != 0 ]; then
        why="the native run failed: $(head -3 "$tmp/native.err")"
    elif [ "$want_rc" != 0 ] && [ "$(cat "$tmp/native.rc")" = 0 ]; then
        why="the native run should have failed"
    elif ! cmp -s "$tmp/native.log" "$tmp/simgrid.log"; then why="event logs differ"
    elif ! cmp -s "$tmp/native.rc" "$tmp/simgrid.rc"; then
        why="exit codes differ: native $(cat "$tmp/native.rc"), simgrid $(cat "$tmp/simgrid.rc")"
    elif ! cmp -s "$tmp/native.msg" "$tmp/simgrid.msg"; then why="messages differ"
    elif ! cmp -s "$tmp/native.cut" "$tmp/simgrid.cut"; then why="CSVs differ"
    elif [ "$(cat "$tmp/native.rc")" = 0 ] && ! grep -q ',simgrid,' "$tmp/simgrid.csv"; then
        why="the simgrid CSV does not name its engine"
    fi
    if [ -z "$why" ]; then
        pass=$((pass + 1))
        return
    fi
    fail=$((fail + 1))
    echo "FAIL engines $name: $why"
    first_divergence "$bin" "$tmp/native.log" "$tmp/simgrid.log"
    diff "$tmp/native.msg" "$tmp/simgrid.msg" | head -6
    diff "$tmp/native.cut" "$tmp/simgrid.cut" | head -6
}

for list in tests/golden/cases.txt tests/engines/cases.txt; do
    while IFS='|' read -r name scn args; do
        name=$(echo "$name" | tr -d ' ')
        case "$name" in ''|'#'*) continue ;; esac
        scn=$(echo "$scn" | tr -d ' ')
        # shellcheck disable=SC2086
        check "$name" "$scn" $args
    done <"$list"
done
echo "engines: $pass cases identical on native and simgrid, $fail differ"
[ "$fail" -eq 0 ]
