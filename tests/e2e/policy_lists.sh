#!/bin/sh
# policy_lists.sh BINARY - the scripts that name every GVL policy themselves
# (a loop over them, a --param list, the docs' awk table) name the ones
# gvlsim has: a sixth policy fails here, with the file to extend, rather
# than going missing from a sweep or a table.  The list is gvlsim's own
# (its error for an unknown policy).
set -u
bin=$1
. tests/e2e/lib.inc

run run scenarios/queue_pingpong.json --set runtime.gvl_policy=nosuch
expect_code 3 "an unknown policy"
want=$(sed -n 's/.*unknown gvl_policy "nosuch" (expected one of: \(.*\))$/\1/p' "$tmp/err" | tr -d ',')
checks=$((checks + 1))
[ -n "$want" ] || fail "no policy list in gvlsim's error: $(cat "$tmp/err")"
want_sorted=$(echo "$want" | tr ' ' '\n' | grep . | sort -u | tr '\n' ' ')
for f in scripts/exec_results.sh scripts/fuzz.sh scripts/same_rows.sh scripts/docs/imports.sh \
         scripts/docs/lib.awk tests/e2e/exec.sh tests/e2e/parallel_jobs.sh; do
    lines=$(grep -n 'hot_steal[ ,]delayed' "$f")
    checks=$((checks + 1))
    [ -n "$lines" ] || { fail "$f: no list of the policies found"; continue; }
    echo "$lines" | while IFS= read -r l; do
        # the line's words that are policies, once each
        got=$(for w in $(echo "${l#*:}" | tr -c 'a-z_' ' '); do
                  case " $want_sorted " in *" $w "*) echo "$w" ;; esac
              done | sort -u | tr '\n' ' ')
        [ "$got" = "$want_sorted" ] || echo "$f:${l%%:*}: names \"$got\", gvlsim has \"$want_sorted\""
    done > "$tmp/miss"
    [ -s "$tmp/miss" ] && fail "$(cat "$tmp/miss")"
done
finish "$script"
