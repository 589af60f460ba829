# interrupted while its outputs are pending: their temporary files go
long="--set ractors.0.threads.0.program.0.times=100000000 --set ractors.0.threads.1.program.0.times=100000000"
env --default-signal=INT "$1" run scenarios/examples/token_pingpong.json $long -q -o "$BAD_TMP/out.csv" --trace "$BAD_TMP/t.json.gz" &
pid=$!
i=0
while [ $i -lt 600 ] && ! ls "$BAD_TMP" | grep -q '\.tmp\.'; do sleep 0.05; i=$((i + 1)); done
kill -s INT $pid
wait $pid
code=$?
! ls "$BAD_TMP" | grep -q '\.tmp\.' || { echo "temporary files left" >&2; exit 99; }
[ -z "" ] || [ -f "$BAD_TMP/out.csv.journal" ] || { echo "the journal is gone" >&2; exit 99; }
echo "(no message: killed by SIGINT, exit $code; no temporary file left)" >&2
exit $code
