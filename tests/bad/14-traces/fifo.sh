# a trace that is a FIFO nothing writes to: refused at once, not waited for
mkfifo "$BAD_TMP/t.json"
exec "$1" import gvl-tracing "$BAD_TMP/t.json" -o /dev/null
