#!/bin/sh
# chain_wakes.sh TRACE.json [MAIN WORKER] - the one-CPU queue ping-pong's
# wakes of its main thread, from a gvlsim trace (`gvlsim run --trace` or
# `gvlsim exec --trace`, uncompressed: one event a line): which of them
# let the main thread run before the worker's next blocking call ended,
# and where the worker's stretches began.
#
# MAIN and WORKER name the two threads (default: main, worker, as in
# scenarios/queue_pingpong.json).  A push is a `wants_gvl` slice of the
# main thread that begins within 0.2 us of the start of a `blocking` slice
# of the worker (the push readies the main thread, and the worker's next
# call releases the GVL to it).  The main thread was preempted for if its
# `wants_gvl` slice ends before that `blocking` slice does: it ran while the
# worker was in its call.  Else the worker's call ran on: the main thread's
# wake did not preempt the worker, or it did and the wake of the sched lock's
# unlock after it did not (the worker's call is then longer by the main
# thread's run to the lock and the worker's run to the unlock: the
# histogram of those calls' lengths shows the two groups; docs/validate.md,
# "The one-CPU eager ping-pong's wakes, read from the threads' own traces").
# Each push is counted by its place in the main thread's loop: the pushes
# since the main thread's last `blocking` slice (its File.write), 1 for
# the first.  After a push that did not preempt, the main thread's next
# `parked` or `blocking` slice says whether it went on to its File.write
# first; a `blocking` slice of 500 us or more is a stretch (the worker
# running alone while the main thread waits, preempted in its call).
#
# Prints the counts; exit 1 if the trace has no such pushes.
set -eu
[ $# -ge 1 ] || { echo "usage: chain_wakes.sh TRACE.json [MAIN WORKER]" >&2; exit 2; }
trace=$1
main=${2:-main}
worker=${3:-worker}
[ -r "$trace" ] || { echo "chain_wakes.sh: cannot read $trace" >&2; exit 2; }
# one line a slice: TID TS DUR NAME, in time order
awk -v mname="$main" -v wname="$worker" '
function num(key,    s) {
    if (!match($0, "\"" key "\":-?[0-9.]+")) return ""
    s = substr($0, RSTART, RLENGTH); sub(/^"[a-z]+":/, "", s); return s
}
function str(key,    s) {
    if (!match($0, "\"" key "\":\"[^\"]*\"")) return ""
    s = substr($0, RSTART, RLENGTH); sub(/^"[a-z]+":"/, "", s); sub(/"$/, "", s); return s
}
/"ph":"M"/ && /"name":"thread_name"/ {
    if (match($0, /"args":\{"name":"[^"]*"/)) {
        n = substr($0, RSTART + 16, RLENGTH - 17)
        if (n == mname) print "M", num("tid")
        if (n == wname) print "W", num("tid")
    }
    next
}
/"ph":"X"/ { print "S", num("tid"), num("ts"), num("dur"), str("name") }
' "$trace" | sort -k1,1 -k3,3n | awk '
$1 == "M" { mt = $2; next }
$1 == "W" { wt = $2; next }
{ n++; tid[n] = $2; ts[n] = $3 + 0; dur[n] = $4 + 0; nm[n] = $5 }
END {
    if (mt == "" || wt == "") { print "chain_wakes.sh: no thread named as given in the trace" > "/dev/stderr"; exit 1 }
    # the worker blocking slices by their start, in 0.1 us keys (and the
    # neighbouring keys, for the push found 0.1-0.2 us off)
    for (i = 1; i <= n; i++)
        if (tid[i] == wt && nm[i] == "blocking") {
            k = sprintf("%.0f", ts[i] * 10)
            if (!(k in wb)) { wb[k] = i }
        }
    place = 0; after_block = 1
    for (i = 1; i <= n; i++) {
        if (tid[i] != mt) continue
        if (nm[i] == "blocking") {
            if (dur[i] >= 500) { stretches++; stretch_us += dur[i] }
            if (!in_block) place = 0
            in_block = 1
            if (pend) { pend = 0; to_fw[pp]++; if (dur[i] >= 500) to_st[pp]++ }
            continue
        }
        if (nm[i] == "parked" && pend) { pend = 0; to_park[pp]++ }
        if (nm[i] != "wants_gvl") continue
        in_block = 0
        j = 0
        for (d = 0; d <= 2 && !j; d++) {
            if ((kp = sprintf("%.0f", ts[i] * 10 + d)) in wb) j = wb[kp]
            else if ((km = sprintf("%.0f", ts[i] * 10 - d)) in wb) j = wb[km]
        }
        if (!j) continue
        place++; if (place > maxp) maxp = place
        pushes++; at[place]++
        if (ts[i] + dur[i] < ts[j] + dur[j]) { preempted++; continue }
        ran_on++; ro[place]++
        b = int(dur[j]); hist[b]++; if (b > maxb) maxb = b
        pend = 1; pp = place
    }
    if (!pushes) { print "chain_wakes.sh: no push of the main thread found (two threads of queue_pingpong on one CPU?)" > "/dev/stderr"; exit 1 }
    printf "stretches (the main thread in a blocking slice of 500 us or more): %d, %.2f ms\n", stretches, stretch_us / 1000
    printf "pushes %d: the main thread ran within the worker'"'"'s next call %d (%.1f%%), the call ran on %d (%.1f%%)\n", \
        pushes, preempted, 100 * preempted / pushes, ran_on, 100 * ran_on / pushes
    printf "  the calls that ran on, by length (us):"
    for (b = 0; b <= maxb; b++) if (hist[b]) printf " %d-%d: %d", b, b + 1, hist[b]
    printf "\n"
    printf "by the push'"'"'s place in the main thread'"'"'s loop:\n"
    printf "  %5s %8s %14s %10s %10s %10s\n", "place", "pushes", "ran on", "then park", "then call", "stretches"
    for (p = 1; p <= maxp; p++)
        printf "  %5d %8d %8d %4.1f%% %10d %10d %10d\n", p, at[p], ro[p], at[p] ? 100 * ro[p] / at[p] : 0, to_park[p], to_fw[p], to_st[p]
}'
