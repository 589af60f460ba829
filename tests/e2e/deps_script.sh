#!/bin/sh
# deps_script.sh BINARY - scripts/deps.sh tells required packages from
# optional ones: for a user who is not root, a missing optional package
# (SimGrid, Ruby, groff, GNU parallel) is a note and exit 0, so `make test` goes on and
# skips what needs it; a missing required one is exit 1 with the apt-get
# line.  Run against stub commands (a fake `id`, `pkg-config`, ...), so it
# never installs anything.
set -u
bin=$1
. tests/e2e/lib.inc
: >"$tmp/out"
: >"$tmp/err"

# stubs PKGS_PRESENT: a PATH with cc, make, gnuplot, gzip, a non-root `id`
# and a pkg-config that knows only PKGS_PRESENT
stubs() {
    rm -rf "$tmp/bin"
    mkdir "$tmp/bin"
    for c in cc make gnuplot gzip; do
        printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/$c"
    done
    printf '#!/bin/sh\necho 1000\n' >"$tmp/bin/id"
    printf '#!/bin/sh\n[ "$1" = --exists ] || exit 1\ncase " %s " in *" $2 "*) exit 0 ;; esac\nexit 1\n' \
        "$1" >"$tmp/bin/pkg-config"
    chmod +x "$tmp/bin"/*
}
deps() {
    PATH=$tmp/bin /bin/sh scripts/deps.sh "$@" >"$tmp/out" 2>"$tmp/err"
    code=$?
}
fonts=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
[ -e "$fonts" ] || skip "fonts-dejavu-core is not installed (required; \`make deps\` as root)"

# optional ones missing (simgrid, ruby, groff, parallel): a note, exit 0
stubs "libcjson zlib"
deps
expect_code 0 "optional missing, not root"
expect_line err "deps: optional, missing: libsimgrid-dev ruby groff-base parallel (the tests that need them are skipped)" "optional note"
expect_match err '^deps: to run every test, as root:  apt-get update && apt-get install -y libsimgrid-dev ruby groff-base parallel$' "optional command"

# a required one missing: exit 1 with the command, optional ones included
stubs "zlib simgrid"
deps
expect_code 1 "required missing"
expect_line err "deps: missing: libcjson-dev" "required missing"
expect_line err "deps: run as root:  apt-get update && apt-get install -y libcjson-dev ruby groff-base parallel" "required command"

# --check never installs, even as root
stubs "libcjson zlib"
printf '#!/bin/sh\necho 0\n' >"$tmp/bin/id"
printf '#!/bin/sh\necho apt-get was called >&2\nexit 1\n' >"$tmp/bin/apt-get"
chmod +x "$tmp/bin/id" "$tmp/bin/apt-get"
deps --check
expect_code 0 "--check as root"
checks=$((checks + 1))
grep -q 'apt-get was called' "$tmp/err" && fail "--check ran apt-get"
# without --check, root installs the optional ones too (apt-get fails here: only a note)
deps
expect_code 0 "root, optional install failed"
expect_match err '^deps: could not install the optional libsimgrid-dev ruby groff-base parallel' "root, optional install failed"

# everything present
stubs "libcjson zlib simgrid"
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/ruby"
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/groff"
printf '#!/bin/sh\necho GNU parallel 20221122\n' >"$tmp/bin/parallel"
chmod +x "$tmp/bin/ruby" "$tmp/bin/groff" "$tmp/bin/parallel"
deps
expect_code 0 "all present"
expect_match out '^deps: all present' "all present"

finish deps_script.sh
