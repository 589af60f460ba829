#!/bin/sh
# schema_doc.sh SCHEMA_KEYS [DOC] - the key tables of scenarios/README.md
# against the schema tables of input/schema.c (listed by the program
# SCHEMA_KEYS, built from tests/docs/schema_keys.c), and the profile table
# against scenarios/machines/.
#
# In DOC, a line `<!-- keys:SECTION -->` precedes the table documenting
# SECTION (a section name printed by SCHEMA_KEYS: scenario, machine,
# syscalls, runtime, queue, mutex, condvar, measure, generator, Ractor, thread, stop; or `ops`, `dist`, `profiles`):
#   - an object's table: the first column lists exactly its keys;
#   - `ops`: the first column lists exactly the ops, and the second column of
#     each op's row names every key of that op (other than "op") and nothing
#     but those keys and their enum values;
#   - `dist`: the first column holds one JSON object per distribution with
#     exactly its keys;
#   - `profiles`: the first column lists exactly scenarios/machines/*.json.
# Every enum value must appear (as `value` or "value") somewhere in DOC, and every
# profile a doc of the repository uses ("machine": "NAME", machine=NAME,
# "profile": "NAME") must exist.
set -u
keys=${1:?usage: schema_doc.sh SCHEMA_KEYS [DOC]}
doc=${2:-scenarios/README.md}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$keys" >"$tmp/keys" || { echo "schema_doc: $keys failed" >&2; exit 1; }
ls scenarios/machines/*.json | sed 's|.*/||; s|\.json$||' >"$tmp/profiles"

# The documented tables: "SECTION<TAB>first cell<TAB>second cell" per row.
awk '
/^<!-- keys:[A-Za-z_ ]+ -->$/ { sec = $0; sub(/^<!-- keys:/, "", sec); sub(/ -->$/, "", sec); on = 1; rows = 0; next }
on && /^\|/ {
    rows++
    if (rows <= 2) next            # header and separator
    n = split($0, c, "|")
    a = c[2]; b = (n >= 4 ? c[3] : "")
    gsub(/^ +| +$/, "", a); gsub(/^ +| +$/, "", b)
    printf "%s\t%s\t%s\n", sec, a, b
    next
}
on && rows > 0 { on = 0 }
' "$doc" >"$tmp/doc"

fail=0
problem() { echo "schema_doc: $doc: $*"; fail=1; }
# ticks TEXT: the backquoted words of TEXT, one per line
ticks() { printf '%s\n' "$1" | grep -o '`[^`]*`' | tr -d '`'; }

# objects
for sec in scenario machine syscalls method_work runtime queue mutex condvar measure generator Ractor thread stop; do
    awk -F'\t' -v s="$sec" '$1 == s { print $2 }' "$tmp/keys" | sort >"$tmp/want"
    grep -q "^$sec	" "$tmp/doc" || { problem "no <!-- keys:$sec --> table"; continue; }
    awk -F'\t' -v s="$sec" '$1 == s { print $2 }' "$tmp/doc" | while IFS= read -r cell; do
        ticks "$cell" | head -n 1
    done | sort >"$tmp/have"
    comm -23 "$tmp/want" "$tmp/have" | while read -r k; do echo "schema_doc: $doc: $sec key \"$k\" is in input/schema.c but not documented"; done
    comm -13 "$tmp/want" "$tmp/have" | while read -r k; do echo "schema_doc: $doc: $sec key \"$k\" is documented but not in input/schema.c"; done
    cmp -s "$tmp/want" "$tmp/have" || fail=1
done

# ops
awk -F'\t' '$1 ~ /^op / { sub(/^op /, "", $1); print $1 }' "$tmp/keys" | sort -u >"$tmp/want"
awk -F'\t' '$1 == "ops" { print $2 }' "$tmp/doc" | tr -d '`' | sort >"$tmp/have"
[ -s "$tmp/have" ] || problem "no <!-- keys:ops --> table"
comm -23 "$tmp/want" "$tmp/have" | while read -r k; do echo "schema_doc: $doc: op \"$k\" is not documented"; done
comm -13 "$tmp/want" "$tmp/have" | while read -r k; do echo "schema_doc: $doc: op \"$k\" is documented but not in input/schema.c"; done
cmp -s "$tmp/want" "$tmp/have" || fail=1
while IFS= read -r op; do
    cell=$(awk -F'\t' -v o="\`$op\`" '$1 == "ops" && $2 == o { print $3 }' "$tmp/doc")
    ticks "$cell" | sort -u >"$tmp/named"
    awk -F'\t' -v s="op $op" '$1 == s && $2 != "op" { print $2 }' "$tmp/keys" | sort >"$tmp/opkeys"
    awk -F'\t' -v s="op $op" '$1 == s && $3 != "" { n = split($3, v, " "); for (i = 1; i <= n; i++) print v[i] }' \
        "$tmp/keys" >"$tmp/opvals"
    comm -23 "$tmp/opkeys" "$tmp/named" | while read -r k; do echo "schema_doc: $doc: op $op: key \"$k\" is not documented"; done
    comm -23 "$tmp/opkeys" "$tmp/named" | grep -q . && fail=1
    sort -u "$tmp/opkeys" "$tmp/opvals" >"$tmp/allowed"
    # JSON literals (defaults such as `true`) are not key names
    comm -23 "$tmp/named" "$tmp/allowed" | grep -v '^\(true\|false\|null\|[0-9"].*\)$' >"$tmp/extra"
    while read -r k; do echo "schema_doc: $doc: op $op: \"$k\" is documented as a key but is not one"; done <"$tmp/extra"
    [ -s "$tmp/extra" ] && fail=1
done <"$tmp/want"

# distributions: {"dist": "NAME", "k": D, ...}
awk -F'\t' '$1 ~ /^dist / { sub(/^dist /, "", $1); print $1 " " $2 }' "$tmp/keys" | sort >"$tmp/want"
awk -F'\t' '$1 == "dist" { print $2 }' "$tmp/doc" | while IFS= read -r cell; do
    name=$(printf '%s' "$cell" | sed -n 's/.*"dist": *"\([a-z_]*\)".*/\1/p')
    printf '%s' "$cell" | grep -o '"[a-z_]*":' | tr -d '":' | while read -r k; do echo "$name $k"; done
done | sort >"$tmp/have"
[ -s "$tmp/have" ] || problem "no <!-- keys:dist --> table"
comm -23 "$tmp/want" "$tmp/have" | while read -r k; do echo "schema_doc: $doc: distribution key \"$k\" is not documented"; done
comm -13 "$tmp/want" "$tmp/have" | while read -r k; do echo "schema_doc: $doc: distribution key \"$k\" is documented but not in input/schema.c"; done
cmp -s "$tmp/want" "$tmp/have" || fail=1

# enum values
awk -F'\t' '$3 != "" { n = split($3, v, " "); for (i = 1; i <= n; i++) print $2 " " v[i] }' "$tmp/keys" | sort -u |
while read -r k v; do
    grep -q "\`$v\`\|\"$v\"" "$doc" || echo "schema_doc: $doc: value \"$v\" of \"$k\" is not documented"
done >"$tmp/enum"
[ -s "$tmp/enum" ] && { cat "$tmp/enum"; fail=1; }

# profiles
sort "$tmp/profiles" >"$tmp/want"
awk -F'\t' '$1 == "profiles" { print $2 }' "$tmp/doc" | tr -d '`' | sort >"$tmp/have"
[ -s "$tmp/have" ] || problem "no <!-- keys:profiles --> table"
comm -23 "$tmp/want" "$tmp/have" | while read -r k; do echo "schema_doc: $doc: profile \"$k\" (scenarios/machines/$k.json) is not documented"; done
comm -13 "$tmp/want" "$tmp/have" | while read -r k; do echo "schema_doc: $doc: profile \"$k\" is documented but scenarios/machines/$k.json does not exist"; done
cmp -s "$tmp/want" "$tmp/have" || fail=1
for f in README.md docs/*.md scenarios/README.md; do
    # a profile name, not a path (machine=host.json, machine=dir/x) or a
    # placeholder in capitals (NAME, PATH)
    grep -o '"machine": *"[A-Za-z0-9_./]*"\|"profile": *"[A-Za-z0-9_./]*"\|machine=[A-Za-z0-9_./]*' "$f" |
        tr -d '"' | sed 's/.*[:=] *//' | sort -u | while read -r p; do
        case $p in *.*|*/*|*[!A-Z]*) ;; *) continue ;; esac
        case $p in *.*|*/*) continue ;; esac
        grep -qx "$p" "$tmp/profiles" || echo "schema_doc: $f uses the machine profile \"$p\", which does not exist"
    done
done >"$tmp/uses"
[ -s "$tmp/uses" ] && { cat "$tmp/uses"; fail=1; }

[ "$fail" -eq 0 ] && echo "schema_doc: every key, value and profile of the schema is documented in $doc"
exit "$fail"
