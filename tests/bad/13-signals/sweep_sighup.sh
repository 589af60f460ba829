# SIGHUP during a sweep: its journal stays
exec sh tests/bad/13-signals/data/interrupt.sh "$1" HUP sweep --param machine.cores=1,2 -j 1
