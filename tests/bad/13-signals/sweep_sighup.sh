# interrupted while its outputs are pending: their temporary files go
long="--set ractors.0.threads.0.program.0.times=100000000 --set ractors.0.threads.1.program.0.times=100000000"
env --default-signal=INT "$1" sweep scenarios/examples/token_pingpong.json $long -q -o "$BAD_TMP/out.csv" --param machine.cores=1,2 -j 1 &
pid=$!
i=0
while [ $i -lt 600 ] && ! ls "$BAD_TMP" | grep -q '\.tmp\.'; do sleep 0.05; i=$((i + 1)); done
kill -s HUP $pid
wait $pid
code=$?
! ls "$BAD_TMP" | grep -q '\.tmp\.' || { echo "temporary files left" >&2; exit 99; }
[ -z "journal" ] || [ -f "$BAD_TMP/out.csv.journal" ] || { echo "the journal is gone" >&2; exit 99; }
echo "(no message: killed by SIGHUP, exit $code; no temporary file left)" >&2
exit $code
