#!/bin/sh
# tests/docs/run.sh GVLSIM SCHEMA_KEYS - the checks of the documentation
# (`make docs-test`, part of `make test`):
#   render    every generated table and value of the docs matches its data
#             (scripts/docs/render.sh --check);
#   data      the committed simulation data is what this gvlsim gives
#             (scripts/docs/simulate.sh --check: the cheapest runs re-run);
#   imports   the real traces' imports and replays are what this gvlsim
#             gives (scripts/docs/imports.sh --check: all of them re-done);
#   validate  the fidelity tables are the committed measurements beside this
#             gvlsim's simulation (scripts/docs/validate.sh --check: each
#             target's figures on one host; every table whole, sensitivity
#             ranges included, with DOCS_CHECK_EVENTS=all, as CI runs it,
#             unless the stamp says make docs made them from these sources);
#   stamp     the hash behind that stamp moves with every input of the
#             tables and with nothing else (tests/docs/stamp.sh);
#   schema    every key, value and profile of the schema is documented in
#             scenarios/README.md (tests/docs/schema_doc.sh);
#   links     no committed file points outside the repository
#             (tests/docs/links.sh).
set -u
bin=${1:?usage: tests/docs/run.sh GVLSIM SCHEMA_KEYS}
keys=${2:?usage: tests/docs/run.sh GVLSIM SCHEMA_KEYS}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
case $keys in /*) ;; *) keys=$(pwd)/$keys ;; esac
cd "$(dirname "$0")/../.." || exit 2
pass=0
fail=0
check() {
    name=$1; shift
    if out=$("$@" 2>&1); then
        pass=$((pass + 1)); echo "PASS docs $name: $(printf '%s\n' "$out" | tail -n 1)"
    else
        fail=$((fail + 1)); echo "FAIL docs $name"; printf '%s\n' "$out" | sed 's/^/  /'
    fi
}
check render sh scripts/docs/render.sh --check
check data sh scripts/docs/simulate.sh -b "$bin" -j 2 --check "${DOCS_CHECK_EVENTS:-40000000}"
check imports sh scripts/docs/imports.sh -b "$bin" --check
# shellcheck disable=SC2046
check validate sh scripts/docs/validate.sh -b "$bin" --check $([ "${DOCS_CHECK_EVENTS:-}" = all ] && echo all)
check stamp sh tests/docs/stamp.sh
check schema sh tests/docs/schema_doc.sh "$keys"
check links sh tests/docs/links.sh
echo "docs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
