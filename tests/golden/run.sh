#!/bin/sh
# Golden tests: every line of tests/golden/cases.txt ("name | scenario |
# arguments") is run with `gvlsim run --reproducible` and its CSV must equal
# tests/golden/NAME.csv byte for byte.  `run.sh BINARY --update` rewrites
# the .csv files: review that diff before committing, a golden change is a
# model change.
set -u
bin=${1:?usage: run.sh BINARY [--update]}
update=${2:-}
dir=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$dir/../.." && pwd)
pass=0; fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
while IFS='|' read -r name scn args; do
    name=$(echo "$name" | tr -d ' ')
    case "$name" in ''|'#'*) continue ;; esac
    scn=$(echo "$scn" | tr -d ' ')
    out="$tmp/$name.csv"
    # shellcheck disable=SC2086
    if ! (cd "$top" && "$bin" run "$scn" --reproducible -q $args -o "$out") 2>"$tmp/err"; then
        echo "FAIL golden $name: gvlsim exited non-zero"; cat "$tmp/err"; fail=$((fail+1))
    elif [ "$update" = "--update" ]; then
        cp "$out" "$dir/$name.csv"; echo "updated $name.csv"; pass=$((pass+1))
    elif ! cmp -s "$out" "$dir/$name.csv"; then
        echo "FAIL golden $name: CSV differs from tests/golden/$name.csv"
        diff "$dir/$name.csv" "$out" | head -6
        fail=$((fail+1))
    else
        pass=$((pass+1))
    fi
done < "$dir/cases.txt"
echo "golden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
