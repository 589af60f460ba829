#!/bin/sh
# deps.sh - make sure the Debian packages gvlsim needs are installed.
# As root, installs what is missing with apt-get; otherwise prints the
# exact command to run.  Exit 0 when everything is present.
set -u
need=""
have_pkgconf() { command -v pkg-config >/dev/null 2>&1; }
have_pkgconf || need="$need pkg-config"
command -v cc >/dev/null 2>&1 || need="$need gcc"
command -v make >/dev/null 2>&1 || need="$need make"
if ! have_pkgconf || ! pkg-config --exists libcjson 2>/dev/null; then need="$need libcjson-dev"; fi
# zlib: gzip-compressed traces (gvlsim run --trace out.json.gz)
if ! have_pkgconf || ! pkg-config --exists zlib 2>/dev/null; then need="$need zlib1g-dev"; fi
if ! have_pkgconf || ! pkg-config --exists simgrid 2>/dev/null; then need="$need libsimgrid-dev"; fi
command -v gnuplot >/dev/null 2>&1 || need="$need gnuplot-nox"
# gnuplot's pngcairo terminal needs a font, or it draws boxes
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need="$need fonts-dejavu-core"
command -v gzip >/dev/null 2>&1 || need="$need gzip"
# Debian's ruby: the Ruby backend (gvlsim exec --backend ruby) and its tests.
# Optional: without it those tests are skipped, so a user who cannot
# install it still gets a passing `make test`; as root (CI) it is installed.
optional=""
command -v ruby >/dev/null 2>&1 || optional="ruby"
if [ -z "$need" ] && { [ -z "$optional" ] || [ "$(id -u)" -ne 0 ]; }; then
    echo "deps: all present (libcjson, zlib, simgrid, gnuplot, fonts${optional:+; not ruby: the Ruby backend's tests will be skipped})"
    [ -z "$optional" ] || echo "deps: for them, as root: apt-get install -y ruby" >&2
    exit 0
fi
[ "$(id -u)" -eq 0 ] && need="$need${optional:+ $optional}"
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "deps: installing:$need"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends $need >/dev/null || {
        echo "deps: apt-get install failed for:$need" >&2
        exit 1
    }
    echo "deps: installed:$need"
    exit 0
fi
echo "deps: missing:$need" >&2
echo "deps: run as root:  apt-get update && apt-get install -y$need" >&2
exit 1
