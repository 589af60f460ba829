#!/bin/sh
# sources_sha.sh - the SHA-256 of what the fidelity tables are made from,
# printed on one line (nothing outside a git checkout): every file git
# tracks in the current directory's repository that can move a simulated
# figure, hashed as it is in the work tree - and under docs/data/validate
# also those it would track (untracked, not ignored: a host's directory that
# scripts/validate_results.sh has just measured and stamped, before it is
# committed; a stray file elsewhere does not move the stamp).  That is every tracked file but
# the prose (*.md), the tests (tests/) and docs/, and of docs/ the fidelity
# runs themselves: docs/data/validate/targets.txt and, per host, its
# profiles (host.json, cache-*.json, ruby-*.json), host.txt, targets.txt
# and runs (*.rows.csv) - not the tables made from them (NAME.csv,
# regimes.txt) nor this hash (sources.sha256).  scripts/docs/validate.sh
# writes it beside the tables once every table is this tree's (make docs)
# and, finding it unchanged, lets CI's whole check be the half one
# (README, "Generated docs").
#   sources_sha.sh --loose   instead, the files outside docs/data/validate
#                            that git does not track but would hash once
#                            added (not ignored, not prose or tests): a new
#                            source left unadded when the stamp is written
#                            makes a stamp its commit does not match
set -u
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || exit 0
# what is not a source: the prose, the tests, docs/ (whose fidelity runs are
# taken below)
not_source='\.md$|^tests/|^docs/'
if [ "${1:-}" = --loose ]; then
    git ls-files -o --exclude-standard | grep -v -E "$not_source"
    exit 0
fi
# (each file's name and content hash, then the hash of that list)
{
    git ls-files | grep -v -E "$not_source"
    git ls-files -co --exclude-standard docs/data/validate |
        grep -E '^docs/data/validate/targets\.txt$|/(host\.json|host\.txt|targets\.txt|cache-[^/]*\.json|ruby-[^/]*\.json|[^/]*\.rows\.csv)$'
} | LC_ALL=C sort | while IFS= read -r f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
    xargs -0 -r sha256sum | sha256sum | cut -d' ' -f1
