#!/bin/sh
# stamp.sh - scripts/docs/sources_sha.sh, the hash behind the fidelity
# tables' stamp (scripts/docs/validate.sh): in a scratch git repository,
# every change that can move a simulated figure changes it (a source, a
# scenario, a script, a host's profile, runs or targets, the targets'
# list), and none that cannot does (the prose, the tests, the tables made
# from the runs, the stamp itself, an ignored file); a host's directory
# counts before it is committed; outside a git checkout it prints nothing.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
cd "$tmp" || exit 2
[ -z "$(sh "$here/scripts/docs/sources_sha.sh")" ] || { echo "stamp: a hash outside a git checkout"; fail=1; }
git init -q . && git config user.email t@t && git config user.name t || exit 2
h=docs/data/validate/hosts/h
mkdir -p sim scenarios scripts tests "$h" docs
for f in sim/a.c scenarios/s.json scripts/x.sh README.md docs/notes.md tests/t.c docs/data/validate/targets.txt \
         $h/host.json $h/host.txt $h/targets.txt $h/cache-1.json $h/ruby-3.3.json $h/m.rows.csv $h/m.csv \
         $h/regimes.txt docs/data/validate/sources.sha256 docs/data/sim.csv; do
    echo "$f" >"$f"
done
git add -A && git commit -q -m init || exit 2
base=$(sh "$here/scripts/docs/sources_sha.sh")
[ ${#base} -eq 64 ] || { echo "stamp: no hash in a checkout: '$base'"; fail=1; }
# each change, then put back
moves() {
    echo changed >>"$1"
    now=$(sh "$here/scripts/docs/sources_sha.sh")
    git checkout -q -- "$1"
    [ "$now" != "$base" ]
}
for f in sim/a.c scenarios/s.json scripts/x.sh docs/data/validate/targets.txt $h/host.json $h/host.txt \
         $h/targets.txt $h/cache-1.json $h/ruby-3.3.json $h/m.rows.csv; do
    moves "$f" || { echo "stamp: a change to $f leaves the hash"; fail=1; }
done
for f in README.md docs/notes.md tests/t.c $h/m.csv $h/regimes.txt docs/data/validate/sources.sha256 docs/data/sim.csv; do
    moves "$f" && { echo "stamp: a change to $f moves the hash"; fail=1; }
done
[ "$(sh "$here/scripts/docs/sources_sha.sh")" = "$base" ] || { echo "stamp: not the same twice"; fail=1; }
# a host measured but not committed yet moves it, and the stamp made then
# holds once it is committed; a stray untracked file elsewhere, or an
# ignored one there, does not move it
h2=docs/data/validate/hosts/h2
mkdir -p "$h2" && echo profile >"$h2/host.json" && echo x >"$h2/old.rows.csv" && echo old.rows.csv >.git/info/exclude
echo log >LOG
new=$(sh "$here/scripts/docs/sources_sha.sh")
[ "$new" != "$base" ] || { echo "stamp: an untracked host's profile leaves the hash"; fail=1; }
git add "$h2" && git commit -q -m h2 || exit 2
[ "$(sh "$here/scripts/docs/sources_sha.sh")" = "$new" ] || { echo "stamp: committing the host moves the hash"; fail=1; }
echo y >>LOG && echo y >>"$h2/old.rows.csv"
[ "$(sh "$here/scripts/docs/sources_sha.sh")" = "$new" ] || { echo "stamp: a stray or ignored file moves the hash"; fail=1; }
# --loose names the stray file outside docs/ (a source once added), not
# the ignored one nor anything tracked
[ "$(sh "$here/scripts/docs/sources_sha.sh" --loose)" = LOG ] ||
    { echo "stamp: --loose lists '$(sh "$here/scripts/docs/sources_sha.sh" --loose | tr '\n' ' ')', not LOG"; fail=1; }
[ $fail -eq 0 ] && echo "stamp: 11 inputs move the hash (one of them untracked), 7 outputs and prose and two stray files do not; --loose names the stray one"
exit $fail
