#!/bin/sh
# syscall_gaps.sh COMMAND...: run COMMAND under `perf record` of every system
# call's entry and exit (raw_syscalls) and print, for each pair of
# consecutive calls of a thread (the number of the call it left, then of the
# one it entered), how long the thread ran between them in user space, and
# how long each call took: count, p10 / median / p90 in ns.  For a loop of
# one Ruby method this splits the method's own work by where it falls
# between its system calls (docs/validate.md, "What Ruby's own methods
# cost").  Each event of the tracepoints costs its thread about 150 ns on
# the development host, so every gap and every call reads too long by
# about that much (the untraced loop's CPU per iteration says how much).
# Needs root (or perf_event_paranoid -1) and perf.
#   taskset -c 0 scripts/syscall_gaps.sh ruby -e '300_000.times { File.write("/dev/null", "0") }'
set -e
[ $# -ge 1 ] || { echo "usage: syscall_gaps.sh COMMAND..." >&2; exit 2; }
data=$(mktemp /tmp/syscall_gaps.XXXXXX)
trap 'rm -f "$data" "$data.old"' EXIT
perf record -q -o "$data" -e raw_syscalls:sys_enter,raw_syscalls:sys_exit -- "$@"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
perf script --ns -i "$data" -F tid,time,event,trace 2>/dev/null | awk '
    # tid time: event: NR n ...
    {
        tid = $1; t = $2; sub(/:$/, "", t); t = t * 1e9
        for (i = 3; i <= NF; i++) if ($i == "NR") { nr = $(i + 1); break }
        if ($3 ~ /sys_enter/) {
            if (tid in xnr) printf "gap %s>%s %.0f\n", xnr[tid], nr, t - xt[tid]
            enr[tid] = nr; et[tid] = t
        } else if ((tid in enr) && enr[tid] == nr) {
            printf "in %s %.0f\n", nr, t - et[tid]
            xnr[tid] = nr; xt[tid] = t
        }
    }' | sort -k1,1 -k2,2 -k3,3n | awk '
    function flush() {
        if (n >= 100) printf "%-4s %-10s %8d  %7.0f / %7.0f / %7.0f ns\n", kind, key, n, v[int(n / 10) + 1], v[int(n / 2) + 1], v[int(9 * n / 10) + 1]
        n = 0
    }
    BEGIN { print "(calls by number: 0 read, 1 write, 3 close, 16 ioctl, 257 openat; gaps of fewer than 100 left out)"
            print "kind from>to     count      p10 / median / p90" }
    $1 != kind || $2 != key { flush(); kind = $1; key = $2 }
    { v[++n] = $3 }
    END { flush() }'
