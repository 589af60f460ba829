# a sweep killed before: its journal stops a new sweep to the same output
"$1" sweep tests/data/minimal.json --param machine.cores=1,2 -q -o "$BAD_TMP/s.csv" 2>/dev/null || exit 98
printf 'gvlsim-journal 1 0 00000000\n\n' >"$BAD_TMP/s.csv.journal"
exec "$1" sweep tests/data/minimal.json --param machine.cores=1,2 -q -o "$BAD_TMP/s.csv"
