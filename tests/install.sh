#!/bin/sh
# tests/install.sh MAKE - `make install` into a staging directory (DESTDIR,
# PREFIX=/usr): every file in its place with its mode, the installed binary
# runs (also with the SimGrid engine, when built), the installed man page is what `gvlsim help --man` prints (and
# renders without warnings when groff is installed), the completion script
# loads in bash; then `make uninstall` leaves nothing behind.
set -u
make=${1:-make}
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "  install.sh: $*" >&2; fail=1; }

dest=$tmp/stage
$make --no-print-directory -s install DESTDIR="$dest" PREFIX=/usr >"$tmp/log" 2>&1 ||
    { cat "$tmp/log" >&2; bad "make install failed"; exit 1; }
for f in usr/bin/gvlsim usr/share/man/man1/gvlsim.1 usr/share/bash-completion/completions/gvlsim \
         usr/share/doc/gvlsim/README.md usr/share/gvlsim/scenarios/mtime_loop.json \
         usr/share/gvlsim/scenarios/machines/dev_vm.json usr/share/gvlsim/scenarios/README.md; do
    [ -f "$dest/$f" ] || bad "missing $f"
done
[ -x "$dest/usr/bin/gvlsim" ] || bad "usr/bin/gvlsim is not executable"
[ "$(stat -c %a "$dest/usr/share/man/man1/gvlsim.1")" = 644 ] || bad "gvlsim.1 is not mode 644"
nscn=$(find scenarios -type f | wc -l)
ninst=$(find "$dest/usr/share/gvlsim/scenarios" -type f | wc -l)
[ "$nscn" -eq "$ninst" ] || bad "$ninst scenario files installed, $nscn in the tree"

"$dest/usr/bin/gvlsim" --version | grep -qx 'gvlsim [0-9.]*' || bad "installed gvlsim --version"
# the installed binary finds the installed profiles through GVLSIM_MACHINES
GVLSIM_MACHINES=$dest/usr/share/gvlsim/scenarios/machines "$dest/usr/bin/gvlsim" check \
    "$dest/usr/share/gvlsim/scenarios/queue_pingpong.json" >/dev/null || bad "installed scenario does not check"
# the SimGrid engine, when built, is installed in lib/gvlsim and found there
if [ -f gvlsim-simgrid.so ]; then
    [ -f "$dest/usr/lib/gvlsim/gvlsim-simgrid.so" ] || bad "missing usr/lib/gvlsim/gvlsim-simgrid.so"
    GVLSIM_MACHINES=$dest/usr/share/gvlsim/scenarios/machines "$dest/usr/bin/gvlsim" run --engine simgrid -q \
        -o /dev/null "$dest/usr/share/gvlsim/scenarios/examples/token_pingpong.json" ||
        bad "the installed gvlsim does not run --engine simgrid"
fi
"$dest/usr/bin/gvlsim" help --man | cmp -s - "$dest/usr/share/man/man1/gvlsim.1" ||
    bad "the installed man page differs from gvlsim help --man"
if command -v groff >/dev/null 2>&1; then
    groff -man -Tascii -ww -z "$dest/usr/share/man/man1/gvlsim.1" 2>"$tmp/groff" || bad "groff failed"
    [ ! -s "$tmp/groff" ] || bad "groff warnings: $(cat "$tmp/groff")"
else
    echo "  install.sh: groff not installed (optional: groff-base): man page rendering not checked"
fi
if command -v bash >/dev/null 2>&1; then
    bash -c ". '$dest/usr/share/bash-completion/completions/gvlsim' && complete -p gvlsim" \
        >"$tmp/complete" 2>&1 || bad "the completion script does not load: $(cat "$tmp/complete")"
fi

$make --no-print-directory -s uninstall DESTDIR="$dest" PREFIX=/usr >"$tmp/log" 2>&1 ||
    { cat "$tmp/log" >&2; bad "make uninstall failed"; }
left=$(find "$dest" -type f | sed "s|^$dest/||")
[ -z "$left" ] || bad "make uninstall left: $left"

[ "$fail" -eq 0 ] && echo "install: make install / uninstall ok"
exit "$fail"
