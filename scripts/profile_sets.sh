#!/bin/sh
# profile_sets.sh PROFILE [KEY...] - the keys a profile `gvlsim calibrate`
# wrote as command-line overrides: "--set machine.KEY=VALUE" for each KEY
# of its calibration's key list (every one when no KEY is given), on one
# line, in the profile's order.  For a partial profile (`calibrate --only
# cache`, `--only ruby`) laid over a host's whole one:
#     gvlsim validate ... --set machine=host.json $(scripts/profile_sets.sh ruby-4.1.0.json)
# Each value is one word: calibrate writes durations, counts, fractions
# and curves (a curve as JSON without spaces, `[["1ms","0s"],["3ms","381ns"]]`:
# expand the line with globbing off, `set -f`, as scripts/docs/validate.sh
# does).  Exit 1
# also when a named KEY is not in the profile or the profile has no key list.
set -u
[ $# -ge 1 ] || { echo "usage: scripts/profile_sets.sh PROFILE [KEY...]" >&2; exit 2; }
prof=$1; shift
[ -f "$prof" ] || { echo "profile_sets.sh: $prof: no such file" >&2; exit 1; }
# the key list: one line each, `{ "key": "K", "value": "V", ... }`
# (a curve's value is JSON in the string, its quotes escaped: unescaped,
# its spaces dropped, it is one word, `[["1ms","0s"],["3ms","381ns"]]`)
keys=$(sed -n 's/^ *{ "key": "\([^"]*\)", "value": "\(\([^"\\]\|\\.\)*\)".*/\1 \2/p' "$prof" |
    awk '{ k = $1; sub(/^[^ ]* /, ""); gsub(/\\"/, "\""); gsub(/ /, ""); print k, $0 }')
[ -n "$keys" ] || { echo "profile_sets.sh: $prof: no calibration key list (not written by gvlsim calibrate?)" >&2; exit 1; }
if [ $# -eq 0 ]; then
    set -- $(echo "$keys" | cut -d' ' -f1)
fi
out=
for k in "$@"; do
    v=$(echo "$keys" | awk -v k="$k" '$1 == k { sub(/^[^ ]* /, ""); print; exit }')
    [ -n "$v" ] || { echo "profile_sets.sh: $prof: no key $k" >&2; exit 1; }
    case $v in
    *' '*) echo "profile_sets.sh: $prof: $k = $v: not one word" >&2; exit 1 ;;
    esac
    out="$out${out:+ }--set machine.$k=$v"
done
echo "$out"
