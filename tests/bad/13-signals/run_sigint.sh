# SIGINT during a run with a trace
exec sh tests/bad/13-signals/data/interrupt.sh "$1" INT run --trace "$BAD_TMP/t.json.gz"
