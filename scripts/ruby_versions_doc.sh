#!/bin/sh
# ruby_versions_doc.sh - splice the CRuby version table (input/ruby_version.c)
# into scenarios/README.md, between its two "ruby-versions" markers.
# tests/unit/test_ruby_version checks that the copy is current.
set -eu
cd "$(dirname "$0")/.."
make --no-print-directory build/release/tests/test_ruby_version >/dev/null
doc=scenarios/README.md
table=$(mktemp)
trap 'rm -f "$table"' EXIT
build/release/tests/test_ruby_version --print-table >"$table"
scripts/splice_doc.sh "$doc" ruby-versions "$table"
echo "ruby_versions_doc.sh: $doc updated"
