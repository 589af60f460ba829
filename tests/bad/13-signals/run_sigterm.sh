# SIGTERM during a run with a trace
exec sh tests/bad/13-signals/data/interrupt.sh "$1" TERM run --trace "$BAD_TMP/t.json"
