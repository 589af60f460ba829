#!/bin/sh
# probes.sh BINARY - the stand-alone probes of scripts/ (scripts/*.c, each
# one `cc -O2 -pthread scripts/NAME.c` as its header says; docs/validate.md
# quotes what they measured) still build, without a warning, so that a
# figure in the docs can be measured again.  They are not run: what they
# print depends on the machine.
set -u
bin=$1
. tests/e2e/lib.inc
# they do not run gvlsim: the release build's pass builds them, a sanitizer
# build's pass (make test's second) would only build them again
[ "${GVLSIM_SANITIZED:-0}" = 1 ] && skip "built by the release build's pass (they do not run gvlsim)"

cc=${CC:-cc}
for src in scripts/*.c; do
    checks=$((checks + 1))
    "$cc" -std=gnu11 -O2 -Wall -Wextra -Werror -pthread -o "$tmp/probe" "$src" -lm 2>"$tmp/err" ||
        fail "$src does not build: $(head -n 3 "$tmp/err")"
done

finish probes.sh
