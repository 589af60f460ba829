#!/bin/sh
# bad_inputs.sh BINARY - every case of tests/bad/ ends as its class allows
# (an exit code, a message, no hang, no sanitizer report, no raw control
# character), and the README's table of bad inputs is what they give.
# Run from the repository root by tests/e2e/run.sh.
set -u
scripts/bad-inputs.sh "$1" --check README.md >/dev/null
