# a file that is not a journal where the journal goes
echo 'point,rep' >"$BAD_TMP/s.csv.journal"
exec "$1" sweep tests/data/minimal.json --param machine.cores=1,2 -q -o "$BAD_TMP/s.csv" --resume
