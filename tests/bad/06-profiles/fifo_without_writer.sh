# a FIFO named as the profile, that nothing writes to: refused, no hang
mkfifo "$BAD_TMP/m4.json"
printf '{"machine": "%s", "ractors": [{"threads": [{}]}]}' "$BAD_TMP/m4.json" >"$BAD_TMP/s.json"
exec "$1" check "$BAD_TMP/s.json"
