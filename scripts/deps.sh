#!/bin/sh
# deps.sh [--check] - make sure the Debian packages gvlsim needs are installed.
#
# Required (the build, the tests and the plots need them): a C compiler,
# make, pkg-config, libcjson-dev, zlib1g-dev, gnuplot-nox, fonts-dejavu-core,
# gzip.  Optional (only some tests need them, and those are skipped with a
# line saying so when they are missing): libsimgrid-dev (the SimGrid engine),
# ruby (the Ruby backend), groff-base (the man page's rendering check),
# parallel (GNU parallel: the test that runs a sweep's shards through it).
#
# As root (and without --check), installs everything missing, optional
# packages included, so that CI runs every test.  Otherwise prints the exact
# command to run, and exits 1 only if a required package is missing.
# --check never installs anything.
set -u
check_only=0
[ "${1:-}" = --check ] && check_only=1
need=""
optional=""
have_pkgconf() { command -v pkg-config >/dev/null 2>&1; }
pc() { have_pkgconf && pkg-config --exists "$1" 2>/dev/null; }
have_pkgconf || need="$need pkg-config"
command -v cc >/dev/null 2>&1 || need="$need gcc"
command -v make >/dev/null 2>&1 || need="$need make"
pc libcjson || need="$need libcjson-dev"
# zlib: gzip-compressed traces (gvlsim run --trace out.json.gz)
pc zlib || need="$need zlib1g-dev"
command -v gnuplot >/dev/null 2>&1 || need="$need gnuplot-nox"
# gnuplot's pngcairo terminal needs a font, or it draws boxes
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need="$need fonts-dejavu-core"
command -v gzip >/dev/null 2>&1 || need="$need gzip"
pc simgrid || optional="$optional libsimgrid-dev"
command -v ruby >/dev/null 2>&1 || optional="$optional ruby"
command -v groff >/dev/null 2>&1 || optional="$optional groff-base"
case "$(parallel --version 2>/dev/null)" in *"GNU parallel"*) ;; *) optional="$optional parallel" ;; esac

if [ -z "$need$optional" ]; then
    echo "deps: all present (libcjson, zlib, gnuplot, fonts; optional: simgrid, ruby, groff, parallel)"
    exit 0
fi
if [ "$check_only" -eq 0 ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "deps: installing:$need$optional"
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086
    if apt-get update -qq && apt-get install -y -qq --no-install-recommends $need $optional >/dev/null; then
        echo "deps: installed:$need$optional"
        exit 0
    fi
    [ -n "$need" ] || {
        echo "deps: could not install the optional$optional; the tests that need them are skipped" >&2
        exit 0
    }
    echo "deps: apt-get install failed for:$need$optional" >&2
    exit 1
fi
if [ -n "$optional" ]; then
    echo "deps: optional, missing:$optional (the tests that need them are skipped)" >&2
fi
if [ -n "$need" ]; then
    echo "deps: missing:$need" >&2
    echo "deps: run as root:  apt-get update && apt-get install -y$need$optional" >&2
    exit 1
fi
echo "deps: to run every test, as root:  apt-get update && apt-get install -y$optional" >&2
exit 0
