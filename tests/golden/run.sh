#!/bin/sh
# Golden tests: each tests/golden/NAME.json is run with the arguments in
# NAME.args (one line, optional) and its CSV must equal NAME.csv byte for
# byte.  `tests/golden/run.sh BINARY --update` rewrites the .csv files
# (review the diff before committing: a golden change is a model change).
set -u
bin=${1:?usage: run.sh BINARY [--update]}
update=${2:-}
dir=$(cd "$(dirname "$0")" && pwd)
pass=0; fail=0
for scn in "$dir"/*.json; do
    name=$(basename "$scn" .json)
    args=""
    [ -f "$dir/$name.args" ] && args=$(cat "$dir/$name.args")
    out=$(mktemp)
    # shellcheck disable=SC2086
    if ! "$bin" run "$scn" --reproducible -q $args -o "$out" 2>"$out.err"; then
        echo "FAIL golden $name: gvlsim exited non-zero"; cat "$out.err"; fail=$((fail+1))
    elif [ "$update" = "--update" ]; then
        cp "$out" "$dir/$name.csv"; echo "updated $name.csv"; pass=$((pass+1))
    elif ! cmp -s "$out" "$dir/$name.csv"; then
        echo "FAIL golden $name: CSV differs from $name.csv"; diff "$dir/$name.csv" "$out" | head -5
        fail=$((fail+1))
    else
        pass=$((pass+1))
    fi
    rm -f "$out" "$out.err"
done
echo "golden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
