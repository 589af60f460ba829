#!/bin/sh
# render.sh [--check] - (re)write the generated tables and values of the
# docs from the data under docs/data (scripts/docs/render.awk describes the
# markers; scripts/docs/tables/NAME.awk renders the marker NAME).
#   render.sh           rewrite README.md, docs/*.md and scenarios/README.md
#                       where a rendering differs
#   render.sh --check   change nothing; fail (exit 1) if any file differs
#                       from its rendering, or a renderer is never used
# `make docs` runs scripts/docs/simulate.sh first, then this.
set -u
cd "$(dirname "$0")/../.." || exit 2
check=0
[ "${1:-}" = --check ] && check=1
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
data=$(find docs/data -type f \( -name '*.csv' -o -name '*.txt' \) ! -name sim-runs.txt | sort | tr '\n' ' ')
: >"$tmp/used"
rc=0
for f in README.md docs/*.md scenarios/README.md; do
    [ -f "$f" ] || continue
    awk -v DATA="$data" -v USED="$tmp/used" -f scripts/docs/render.awk "$f" >"$tmp/out" || { rc=1; continue; }
    cmp -s "$f" "$tmp/out" && continue
    if [ $check -eq 1 ]; then
        echo "docs: $f differs from its rendering (run make docs):"
        diff "$f" "$tmp/out" | head -n 10 | cut -c1-200
        rc=1
    else
        cp "$tmp/out" "$f.tmp" && mv "$f.tmp" "$f" && echo "docs: rewrote $f"
    fi
done
for r in scripts/docs/tables/*.awk; do
    [ -e "$r" ] || continue
    n=$(basename "$r" .awk)
    grep -qx "$n" "$tmp/used" || { echo "docs: $r is not used by any marker"; rc=1; }
done
[ $rc -eq 0 ] && [ $check -eq 1 ] && echo "docs: $(sort -u "$tmp/used" | wc -l) renderers, $(wc -l <"$tmp/used") tables and values: every one matches its data"
exit $rc
