# futex_calls.awk - one process's futex(2) calls, from the records of
# scripts/bpf/futex_calls.bpf.o (bpf_record; gv_bpf.h, GV_FUTEX):
#
#   awk -f scripts/bpf/futex_calls.awk [-v tgid=N] RECORDS.txt
#
# tgid: the process to report (default: the one with the most calls).
# Waits (FUTEX_WAIT, FUTEX_WAIT_BITSET) are split into untimed ones (glibc's
# lock and plain condvar waits) and timed ones (pthread_cond_timedwait:
# CRuby 3.1's designated GVL timer, do_gvl_timer), each by its result:
# woken (0), EAGAIN (the word had changed before the sleep: the waker's
# store came on the wait's way in), ETIMEDOUT, EINTR; the timed ones with
# how long they took.  Wakes (FUTEX_WAKE, FUTEX_WAKE_BITSET) by whether they
# woke anyone.  Last, what each timed wait's thread did next: another timed
# wait within 100 us is how a designated timer that returned to find the
# GVL still owned looks (it waits again as the timer: do_gvl_timer's
# TIMER_INTERRUPT, gvlsim's timer_ticks); anything else, an untimed wait
# or none for a while, is how it looks when it took the GVL or lost the
# timer's role.  And the lock waits (FUTEX_WAIT) by the same thread's
# futex call before each, how many slept and returned at once, and the
# median time from that call's return to the wait's entry: after a condvar
# wait that returned at once, pthread_cond_wait's re-lock of a mutex its
# signaller may still hold.

function bucket(d) {
    if (d < 1000) return 0; if (d < 2000) return 1; if (d < 4000) return 2; if (d < 8000) return 3
    if (d < 16000) return 4; if (d < 32000) return 5; if (d < 64000) return 6; if (d < 128000) return 7
    if (d < 256000) return 8; if (d < 1024000) return 9; return 10
}
# a thread's futex call, as what came before a lock wait (below)
function call_kind(op, timed, r) {
    if (timed) return "a timed wait"
    if (op == 9) return r == 0 ? "a condvar wait that slept" : r == -11 ? "a condvar wait returned at once" : "a condvar wait, " result(r)
    if (op == 0) return r == 0 ? "a lock wait that slept" : r == -11 ? "a lock wait returned at once" : "a lock wait, " result(r)
    if (op == 1 || op == 10) return r > 0 ? "a wake that woke a waiter" : "a wake that woke nobody"
    return "op " op
}
function result(r) {
    if (r == 0) return "woken"
    if (r == -11) return "EAGAIN"
    if (r == -110) return "ETIMEDOUT"
    if (r == -4) return "EINTR"
    return "error " r
}

$1 == 10 { calls[$4]++; n++; line[n] = $0 }

END {
    if (tgid == "") { best = -1; for (g in calls) if (calls[g] > best) { best = calls[g]; tgid = g } }
    if (tgid == "" || !calls[tgid]) { print "futex_calls.awk: no futex call of process " (tgid == "" ? "any" : tgid) " recorded" > "/dev/stderr"; exit 1 }
    split("<1 1-2 2-4 4-8 8-16 16-32 32-64 64-128 128-256 256-1024 >=1024", bname, " ")
    for (i = 1; i <= n; i++) {
        split(line[i], f, " ")  # kind ts dur tgid tid cpu op timed ret
        if (f[4] != tgid) continue
        op = f[7] % 128
        # a lock wait (glibc's FUTEX_WAIT), by the same thread's call
        # before it: after a condvar wait that returned at once it is
        # pthread_cond_wait's re-lock of a mutex its signaller still holds
        if (op == 0 && !f[8]) {
            pk = (f[5] in prev_kind) ? prev_kind[f[5]] : "none (its first call)"
            lk = pk SUBSEP (f[9] == 0 ? "slept" : "at once")
            lw[lk]++; lw_kinds[pk] = 1
            # the time between, in 10 ns bins up to 1 ms (a median in one
            # pass, whatever the record's size)
            if (f[5] in prev_end) {
                gb = int((f[2] - prev_end[f[5]]) / 10); if (gb < 0) gb = 0; if (gb > 99999) gb = 99999
                lw_gaps[pk]++; lw_gap[pk, gb]++
            }
        }
        prev_kind[f[5]] = call_kind(op, f[8], f[9]); prev_end[f[5]] = f[2] + f[3]
        if (op == 0 || op == 9) {
            key = (f[8] ? "timed" : "untimed") SUBSEP result(f[9])
            waits[key]++
            # the untimed ones by operation: glibc's lock waits with
            # FUTEX_WAIT, its condition variables with FUTEX_WAIT_BITSET
            if (!f[8]) byop[op == 0 ? "FUTEX_WAIT (a lock)" : "FUTEX_WAIT_BITSET (a condvar)", result(f[9])]++
            if (f[8]) hist[result(f[9]), bucket(f[3])]++
            # the thread's waits in order, for what follows a timed one
            tw++; w_tid[tw] = f[5]; w_ts[tw] = f[2]; w_timed[tw] = f[8]; w_end[tw] = f[2] + f[3]
        } else if (op == 1 || op == 10) {
            wakes[f[9] > 0 ? "woke a waiter" : "woke nobody"]++
        } else {
            other[op]++
        }
    }
    printf "process %s: %d futex calls\n", tgid, calls[tgid]
    print "waits:"
    for (key in waits) { split(key, k, SUBSEP); printf "  %-8s %-10s %8d\n", k[1], k[2], waits[key] }
    print "untimed waits by operation:"
    for (key in byop) { split(key, k, SUBSEP); printf "  %-30s %-10s %8d\n", k[1], k[2], byop[key] }
    print "timed waits by how long they took (us):"
    for (key in hist) { split(key, k, SUBSEP); tr[k[1]] = 1 }
    for (r in tr) {
        s = ""
        for (b = 0; b <= 10; b++) if (hist[r, b]) s = s sprintf(" %s:%d", bname[b + 1], hist[r, b])
        printf "  %-10s%s\n", r, s
    }
    print "wakes:"
    for (w in wakes) printf "  %-14s %8d\n", w, wakes[w]
    for (o in other) printf "  op %-11s %8d\n", o, other[o]
    # what followed each timed wait of a thread: its next wait
    for (i = 1; i <= tw; i++) { nx[i] = 0; if (w_tid[i] in lastw) nx[lastw[w_tid[i]]] = i; lastw[w_tid[i]] = i }
    again = 0; other_next = 0
    for (i = 1; i <= tw; i++) {
        if (!w_timed[i]) continue
        j = nx[i]
        if (j && w_timed[j] && w_ts[j] - w_end[i] < 100000) again++
        else other_next++
    }
    printf "after a timed wait, the same thread waits timed again within 100 us: %d; otherwise: %d\n", again, other_next
    print "lock waits (FUTEX_WAIT) by the thread's call before: slept, returned at once; the median time between (us)"
    for (pk in lw_kinds) {
        med = "-"
        if (lw_gaps[pk]) {
            seen = 0
            for (gb = 0; gb < 100000; gb++) { seen += lw_gap[pk, gb]; if (2 * seen >= lw_gaps[pk]) break }
            med = sprintf("%.2f", gb * 10 / 1000)  # (the bin's lower edge)
        }
        printf "  after %-34s %8d %8d   %s\n", pk, lw[pk, "slept"], lw[pk, "at once"], med
    }
}
