#!/bin/sh
# wake_class.sh [-e WAKEE_RE] [-w WAKER_RE] COMMAND...: run COMMAND under
# `perf record -a` of the scheduler's switch and wake-up events and print
# where each wake of its threads was placed (scripts/wake_class.awk), with
# the 1-minute load average (other tasks on the other CPU make it busy).
# Needs root (or perf_event_paranoid -1) and perf.
#   scripts/wake_class.sh -e '^(ga|gb|tmr)$' -w '^(ga|gb)$' ./timer_pull 2 1 1 20 2 f
#   scripts/wake_class.sh -e '^gvlsim' -w '^gvlsim' ./gvlsim exec ...
set -e
wakee='.' waker='.'
while getopts e:w: o; do
    case $o in
    e) wakee=$OPTARG ;;
    w) waker=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
here=$(cd "$(dirname "$0")" && pwd)
data=$(mktemp /tmp/wake_class.XXXXXX)
trap 'rm -f "$data" "$data.old"' EXIT
perf record -q -o "$data" -e sched:sched_switch,sched:sched_waking,sched:sched_wakeup -a -- "$@"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
perf script -i "$data" 2>/dev/null | awk -v WAKEE="$wakee" -v WAKER="$waker" -f "$here/wake_class.awk"
