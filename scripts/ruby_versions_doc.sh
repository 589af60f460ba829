#!/bin/sh
# ruby_versions_doc.sh - write the CRuby version table (input/ruby_version.c)
# to docs/data/ruby-versions.txt and re-render the docs, which show it in
# scenarios/README.md ("Ruby versions").  tests/unit/test_ruby_version
# checks that the data file is the table's current rendering.
set -eu
cd "$(dirname "$0")/.."
make --no-print-directory build/release/tests/test_ruby_version >/dev/null
build/release/tests/test_ruby_version --print-table >docs/data/ruby-versions.txt
scripts/docs/render.sh
