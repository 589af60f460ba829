#!/bin/sh
# futex_class.sh [-o OPS] [-n MINOPS] COMMAND...: run COMMAND under `perf
# record -a` of the scheduler's switch and waking events and the futex and
# blocking system calls, and print, for the threads that made at least MINOPS
# (default 1000) of the calls OPS (default "newfstatat|statx", File.mtime's
# stat; "openat" for File.write), how their voluntary switches split between
# condition-variable and mutex sleeps, how many futex waits returned at once,
# what each futex wake cost its waker, and how many condvar wakes were wasted
# (scripts/futex_class.awk), with the 1-minute load average before and after.
# Needs root (or perf_event_paranoid -1) and perf.  Tracing every system call
# slows the run (by about half for the 2-thread mtime loop on the AMD guest
# of docs/validate.md): compare its counts with an untraced run's.
#   scripts/futex_class.sh ./gvlsim exec scenarios/mtime_loop.json --set runtime.gvl_policy=hot_steal ...
#   scripts/futex_class.sh -o openat ./gvlsim exec scenarios/queue_pingpong.json ...
set -e
ops='newfstatat|statx' minops=1000
while getopts o:n: o; do
    case $o in
    o) ops=$OPTARG ;;
    n) minops=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
here=$(cd "$(dirname "$0")" && pwd)
data=$(mktemp /tmp/futex_class.XXXXXX)
trap 'rm -f "$data" "$data.old"' EXIT
ev=sched:sched_switch,sched:sched_waking,syscalls:sys_enter_futex,syscalls:sys_exit_futex
for c in $(echo "$ops" | tr '|' ' '); do
    ev=$ev,syscalls:sys_enter_$c,syscalls:sys_exit_$c
done
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
perf record -q -m 64M -o "$data" -e "$ev" -a -- "$@"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
perf script -i "$data" -F comm,tid,cpu,time,event,trace 2>/dev/null |
    awk -v OP="$ops" -v MINOPS="$minops" -f "$here/futex_class.awk"
