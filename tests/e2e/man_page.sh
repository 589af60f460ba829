#!/bin/sh
# man_page.sh BINARY - the man page (`gvlsim help --man`, what `make`
# writes to build/gvlsim.1 and `make install` installs) holds every command
# with its usage, every option of every command's help, the exit codes and
# the environment, and renders without a groff warning.
set -u
bin=$1
. tests/e2e/lib.inc

run help --man
expect_code 0 "help --man"
cp "$tmp/out" "$tmp/gvlsim.1"
expect_match out '^\.TH GVLSIM 1 ' ".TH"
for s in NAME SYNOPSIS DESCRIPTION OPTIONS COMMANDS ENVIRONMENT 'EXIT STATUS' FILES; do
    expect_line out ".SH $s" "section $s"
done
run help --man run
expect_code 2 "--man with a command"

if command -v groff >/dev/null 2>&1; then
    groff -man -Tascii -ww -z "$tmp/gvlsim.1" 2>"$tmp/warn"
    checks=$((checks + 1))
    [ ! -s "$tmp/warn" ] || fail "groff warnings: $(cat "$tmp/warn")"
    groff -man -Tascii -P-c -P-b -P-u "$tmp/gvlsim.1" 2>/dev/null >"$tmp/text"
else
    echo "  man_page.sh: groff is not installed (optional: groff-base): rendering not checked"
    # a rough rendering: roff requests dropped, escapes undone
    sed -e '/^\./d' -e 's/\\-/-/g' -e 's/\\f[BIR]//g' -e 's/\\e/\\/g' -e 's/\\&//g' "$tmp/gvlsim.1" >"$tmp/text"
fi
# words of the rendered page, hyphenation-free (.nh), one long line
tr -s ' \n' '  ' <"$tmp/text" >"$tmp/flat"

# every command: its section, its summary; every option label of its help
for cmd in $("$bin" help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p'); do
    checks=$((checks + 1))
    grep -qx "\.SS $cmd" "$tmp/gvlsim.1" || fail "no section for $cmd"
    "$bin" help "$cmd" >"$tmp/help"
    summary=$(sed -n 2p "$tmp/help")
    checks=$((checks + 1))
    grep -qF -- "$(echo "$summary" | tr -s ' ')" "$tmp/flat" || fail "$cmd: summary not in the man page: $summary"
    sed -n 's/^  \(-.*\)$/\1/p' "$tmp/help" | sed 's/  .*//' >"$tmp/labels"
    checks=$((checks + 1))
    [ -s "$tmp/labels" ] || fail "$cmd: no options found in its help"
    while IFS= read -r label; do
        checks=$((checks + 1))
        grep -qF -- "$label" "$tmp/flat" || fail "$cmd: option \"$label\" not in the man page"
    done <"$tmp/labels"
    exitline=$(sed -n 's/^exit status: //p' "$tmp/help")
    checks=$((checks + 1))
    grep -qF -- "Exit status: $(echo "$exitline" | tr -s ' ')" "$tmp/flat" || fail "$cmd: exit status not in the man page"
done
# the global exit codes and the environment
for code in 0 1 2 3 4 5 6 7; do
    checks=$((checks + 1))
    grep -qx "\.B $code" "$tmp/gvlsim.1" || fail "exit code $code not listed"
done
checks=$((checks + 1))
grep -q 'GVLSIM_MACHINES' "$tmp/flat" || fail "GVLSIM_MACHINES not documented"

finish man_page.sh
