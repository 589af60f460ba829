#!/bin/sh
# validate.sh [-b GVLSIM] [--check] - the fidelity tables of the README:
# the measured runs committed under docs/data/validate, one directory per
# measured host, set beside this tree's simulator.
#
# docs/data/validate/targets.txt lists the targets ("NAME | SCENARIO |
# BACKENDS | ARGUMENTS [| ruby=VERSION]"), the same on every host.  Each
# directory docs/data/validate/hosts/HOST holds one host's measurement
# (written by scripts/validate_results.sh there): its profile host.json
# (`gvlsim calibrate`), host.txt (the host, the load) and NAME.rows.csv, the
# real runs of each target measured on it.  For every host and every target
# whose runs HOST/NAME.rows.csv exist, this runs
#     gvlsim validate SCENARIO --backend BACKENDS ARGUMENTS
#         --set machine=docs/data/validate/hosts/HOST/host.json
#         --measured docs/data/validate/hosts/HOST/NAME.rows.csv -o NAME.csv
# which simulates afresh and nothing else (no real run, so a target measured
# on a Ruby built from source needs no such Ruby here): HOST/NAME.csv is the
# comparison table (docs/validate.md) that scripts/docs/tables/validate*.awk
# render, one table per host.  A target a host has no runs of (a Ruby built
# from source not measured there yet) is left out of that host's tables.
#   validate.sh          rewrite the NAME.csv that differ (`make docs`)
#   validate.sh --check  change nothing; fail if a NAME.csv is not what this
#                        tree's simulator gives (`make docs-test`): a model
#                        change that moves a simulated figure of a table
#                        shows here, and `make docs` brings the tables (and
#                        whether each target is met) up to date.
set -u
name=validate.sh
. "$(dirname "$0")/args.inc"
top_dir=docs/data/validate
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
hosts=$(ls -d "$top_dir"/hosts/*/ 2>/dev/null | sed 's|/$||')
[ -n "$hosts" ] || { echo "validate.sh: no host directory under $top_dir/hosts" >&2; exit 1; }
grep -v '^#' "$top_dir/targets.txt" | grep -v '^ *$' >"$tmp/targets"
rc=0
ntab=0
for dir in $hosts; do
    [ -f "$dir/host.json" ] || { echo "validate.sh: $dir/host.json: no profile (scripts/validate_results.sh writes it)" >&2; exit 1; }
    # shellcheck disable=SC2094
    while IFS="|" read -r name scenario backends args _needs; do
        name=$(echo $name); scenario=$(echo $scenario); backends=$(echo $backends)
        [ -f "$dir/$name.rows.csv" ] || continue
        # shellcheck disable=SC2086
        if ! "$bin" validate "$scenario" --backend "$backends" $args --set machine=$dir/host.json \
                --measured "$dir/$name.rows.csv" -o "$tmp/$name.csv" -q >/dev/null 2>"$tmp/err"; then
            echo "validate.sh: $dir: $name: gvlsim validate failed:" >&2
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
    done <"$tmp/targets" || exit 1
    # a NAME.csv without its runs (a target renamed or dropped) would still
    # be rendered: refuse it
    for t in "$dir"/*.csv; do
        case $t in *.rows.csv) continue ;; esac
        [ -f "${t%.csv}.rows.csv" ] || { echo "validate.sh: $t has no runs ${t%.csv}.rows.csv: remove it" >&2; rc=1; }
    done
    ntab=$((ntab + $(ls "$dir"/*.rows.csv 2>/dev/null | wc -l)))
done
[ $rc -eq 0 ] && [ $check -eq 1 ] && echo "validate.sh: $ntab fidelity tables of $(echo "$hosts" | wc -l) hosts match this tree's simulator"
exit $rc
