# the trace cannot be written: the old CSV stays as it was
echo old >"$BAD_TMP/out.csv"
"$1" run tests/data/minimal.json -q -o "$BAD_TMP/out.csv" --trace /dev/full
code=$?
[ "$(cat "$BAD_TMP/out.csv")" = old ] || { echo "the CSV was replaced" >&2; exit 99; }
exit $code
