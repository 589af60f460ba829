#!/bin/sh
# stretches.sh COMMAND...: run COMMAND (a ping-pong of two threads on one
# CPU, e.g. `gvlsim exec scenarios/queue_pingpong.json --set
# machine.cores=1 ...`) under `perf record` of the scheduler's switches and
# wake-ups and of openat, and print its threads' switches, the worker's
# stretches and each wake's preemption by how long the wakee had run
# (scripts/stretches.awk; docs/validate.md, "The one-CPU eager ping-pong's
# stretches"), with the 1-minute load average.  Needs root (or
# perf_event_paranoid -1) and perf.  The tracing adds about a microsecond to
# each traced system call: compare counts, not times.
set -e
[ $# -gt 0 ] || { echo "usage: scripts/stretches.sh COMMAND..." >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
data=$(mktemp /tmp/stretches.XXXXXX)
trap 'rm -f "$data" "$data.old"' EXIT
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
perf record -q -o "$data" -e sched:sched_switch,sched:sched_wakeup,syscalls:sys_enter_openat -- "$@"
perf script -i "$data" 2>/dev/null | awk -f "$here/stretches.awk"
