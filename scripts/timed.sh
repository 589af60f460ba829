#!/bin/sh
# timed.sh NAME CMD... - run CMD (one suite of `make test`) and, when
# GVLSIM_TEST_TIMES names a file (make test-suite sets it), append a line
# "NAME WALL_S CPU_S" to it: the wall time, and the user+system CPU time of
# CMD and everything it ran.  make test prints the lines at its end, so
# that the next person who finds the suite slow sees where the time went;
# the CPU time is the figure to compare on a shared host, where the wall
# time moves with the load.  CMD's status is the script's.  No test looks
# at these times.
set -u
[ $# -ge 2 ] || { echo "usage: scripts/timed.sh NAME CMD..." >&2; exit 2; }
name=$1
shift
[ -n "${GVLSIM_TEST_TIMES:-}" ] || exec "$@"
# seconds since boot, to 0.01 s (Linux); else the epoch's whole seconds
now() { cut -d' ' -f1 /proc/uptime 2>/dev/null || date +%s; }
t0=$(now)
"$@"
rc=$?
t1=$(now)
# `times` (a builtin: run in this shell, not in a pipe's subshell, whose
# children are none): this shell's user and system time, then its
# children's ("1m2.500000s 0m1.200000s")
tm=$GVLSIM_TEST_TIMES.$$
times >"$tm"
awk -v name="$name" -v t0="$t0" -v t1="$t1" '
    function s(x) { split(x, p, "m"); return p[1] * 60 + p[2] }
    NR == 2 { printf "%s %.1f %.1f\n", name, t1 - t0, s($1) + s($2) }' "$tm" >>"$GVLSIM_TEST_TIMES"
rm -f "$tm"
exit $rc
