# a journal written by another sweep (other values) cannot be resumed
"$1" sweep tests/data/minimal.json --param machine.cores=1,2 -q -o "$BAD_TMP/s.csv" &
pid=$!; wait $pid
printf 'gvlsim-journal 1 5 3610a686\nhello\n' >"$BAD_TMP/s.csv.journal"
exec "$1" sweep tests/data/minimal.json --param machine.cores=1,2 -q -o "$BAD_TMP/s.csv" --resume
