# 1,000,001 JSON values in a 2 MB file: refused before it takes memory
{ printf '{"ractors": [{"threads": [{}]}], "description": "x", "x": ['; yes '0,' | head -n 1000000 | tr -d '\n'; printf '0]}'; } >"$BAD_TMP/values.json"
exec "$1" check "$BAD_TMP/values.json"
