#!/bin/sh
# bench_base.sh REV - build gvlsim as it was at commit REV, for `make bench`
# to time it side by side with the tree's build in the same run.  The commit
# is checked out with `git worktree add --detach` under $TMPDIR (default
# /tmp) and built there once; the binary's path is printed on stdout.  Exits
# non-zero (with the reason on stderr) when REV is not in this clone (a
# shallow clone) or does not build.
set -u
rev=${1:?usage: bench_base.sh REV}
top=$(git rev-parse --show-toplevel 2>/dev/null) || { echo "bench_base: not in a git clone" >&2; exit 1; }
sha=$(git -C "$top" rev-parse --verify -q "$rev^{commit}") || {
    echo "bench_base: commit $rev is not in this clone (fetch it, or unshallow the clone)" >&2; exit 1; }
dir=${TMPDIR:-/tmp}/gvlsim-bench-$(echo "$sha" | cut -c1-12)
if [ ! -x "$dir/gvlsim" ]; then
    if [ ! -e "$dir/.git" ]; then
        git -C "$top" worktree prune
        git -C "$top" worktree add --detach "$dir" "$sha" >/dev/null 2>&1 || {
            echo "bench_base: git worktree add $dir $sha failed" >&2; exit 1; }
    fi
    echo "bench_base: building $rev in $dir" >&2
    make -C "$dir" gvlsim >/dev/null 2>"$dir/.build-errors" || {
        echo "bench_base: building $rev failed (see $dir/.build-errors)" >&2; exit 1; }
fi
echo "$dir/gvlsim"
