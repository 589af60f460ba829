#!/bin/sh
# validate.sh [-b GVLSIM] [--check] - the fidelity tables of the README:
# the measured runs committed under docs/data/validate set beside this
# tree's simulator.
#
# For every target of docs/data/validate/targets.txt ("NAME | SCENARIO |
# BACKENDS | ARGUMENTS [| ruby=VERSION]") whose runs NAME.rows.csv exist
# (written by scripts/validate_results.sh), runs
#     gvlsim validate SCENARIO --backend BACKENDS ARGUMENTS
#         --set machine=docs/data/validate/host.json
#         --measured docs/data/validate/NAME.rows.csv -o NAME.csv
# which simulates afresh and nothing else (no real run, so a target measured
# on a Ruby built from source needs no such Ruby here): NAME.csv is the comparison table
# (docs/validate.md) that scripts/docs/tables/validate*.awk render.
#   validate.sh          rewrite the NAME.csv that differ (`make docs`)
#   validate.sh --check  change nothing; fail if a NAME.csv is not what this
#                        tree's simulator gives (`make docs-test`): a model
#                        change that moves a simulated figure of the table
#                        shows here, and `make docs` brings the table (and
#                        whether each target is met) up to date.
set -u
name=validate.sh
. "$(dirname "$0")/args.inc"
dir=docs/data/validate
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
rc=0
n=0
# shellcheck disable=SC2094
grep -v '^#' "$dir/targets.txt" | grep -v '^ *$' | while IFS='|' read -r name scenario backends args needs; do
    name=$(echo $name); scenario=$(echo $scenario); backends=$(echo $backends)
    [ -f "$dir/$name.rows.csv" ] || { echo "validate.sh: $dir/$name.rows.csv: not measured yet (scripts/validate_results.sh)" >&2; continue; }
    # shellcheck disable=SC2086
    if ! "$bin" validate "$scenario" --backend "$backends" $args --set machine=$dir/host.json \
            --measured "$dir/$name.rows.csv" -o "$tmp/$name.csv" -q >/dev/null 2>"$tmp/err"; then
        echo "validate.sh: $name: gvlsim validate failed:" >&2
        cat "$tmp/err" >&2
        exit 1
    fi
    if cmp -s "$tmp/$name.csv" "$dir/$name.csv"; then
        :
    elif [ $check -eq 1 ]; then
        echo "validate.sh: $dir/$name.csv is not what this tree's simulator gives (run make docs):"
        diff "$dir/$name.csv" "$tmp/$name.csv" | head -n 6 | cut -c1-200
        exit 1
    else
        cp "$tmp/$name.csv" "$dir/$name.csv.tmp" && mv "$dir/$name.csv.tmp" "$dir/$name.csv" &&
            echo "validate.sh: rewrote $dir/$name.csv"
    fi
done || rc=1
[ $rc -eq 0 ] && [ $check -eq 1 ] && echo "validate.sh: $(ls "$dir"/*.rows.csv 2>/dev/null | wc -l) fidelity tables match this tree's simulator"
exit $rc
