# interrupt.sh BINARY SIGNAL COMMAND [ARGS...]: run a long COMMAND of
# gvlsim (with -o $BAD_TMP/out.csv), send SIGNAL once its temporary output
# exists; its status is the case's.  Fails (99) if a temporary file is left,
# or if a sweep's journal is gone.  Run by the cases of this class.
bin=$1 sig=$2 cmd=$3
shift 3
long="--set ractors.0.threads.0.program.0.times=100000000 --set ractors.0.threads.1.program.0.times=100000000"
# A background job of a shell starts with SIGINT ignored, one under nohup
# with SIGHUP ignored (and gvlsim leaves them so): env restores the defaults.
# shellcheck disable=SC2086
env --default-signal=INT,TERM,HUP "$bin" "$cmd" scenarios/examples/token_pingpong.json $long -q -o "$BAD_TMP/out.csv" "$@" &
pid=$!
i=0
while [ $i -lt 600 ] && ! ls "$BAD_TMP" | grep -q '\.tmp\.'; do sleep 0.05; i=$((i + 1)); done
kill -s "$sig" $pid
wait $pid
code=$?
! ls "$BAD_TMP" | grep -q '\.tmp\.' || { echo "temporary files left" >&2; exit 99; }
[ "$cmd" != sweep ] || [ -f "$BAD_TMP/out.csv.journal" ] || { echo "the journal is gone" >&2; exit 99; }
echo "(no message: killed by SIG$sig, exit $code; no temporary file left)" >&2
exit $code
