# a FIFO that nothing writes to: refused at once (a pipe with a writer is read)
mkfifo "$BAD_TMP/s.json"
exec "$1" check "$BAD_TMP/s.json"
