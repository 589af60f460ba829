# futex_class.awk - where do a GVL run's voluntary switches come from?
# Reads `perf script -F comm,tid,cpu,time,event,trace` of sched:sched_switch,
# sched:sched_waking, syscalls:sys_{enter,exit}_futex and the enter/exit
# events of the run's blocking system call (scripts/futex_class.sh) and
# counts, per thread that made at least MINOPS of those calls (OP, a regular
# expression on the call's name, e.g. "newfstatat|statx"):
#   op               the blocking calls (one per GVL-releasing region)
#   cond wait        FUTEX_WAIT_BITSET (glibc's pthread_cond_wait): slept
#                    (a sched_switch of the thread inside the call) or
#                    returned at once (EAGAIN: signalled before it slept)
#   mutex wait       FUTEX_WAIT (glibc's lll_lock_wait: a contended
#                    pthread_mutex_lock), slept or at once
#   wake, woke one   FUTEX_WAKE(_BITSET) that woke a sleeper, and its mean
#                    duration (the waker's CPU: the IPI to an idle CPU)
#   wake, nobody     FUTEX_WAKE that found nobody asleep (a waiter not yet
#                    out of pthread_cond_wait, an unlock of a word left at 2)
#   cond re-wait     a cond wait that follows another before the thread's
#                    next op: the one before returned (woken, or signalled
#                    before it slept) and the GVL was not the thread's - a
#                    wasted wake-up.  A lower bound: a pthread_cond_wait that
#                    finds its signal already posted returns without any
#                    futex call (the executor's own wasted_wakes counts
#                    those too)
# and the mean time asleep of each kind of wait.  The per-op figures are over
# those threads' ops.  Every wait classified is the thread's own syscall, so
# a trace that loses a CPU's idle-exit events (this repository's AMD guest
# does) is still counted right.
function num(s)
{
    gsub(/[^0-9.]/, "", s)
    return s + 0
}
{
    # comm may hold spaces: the fields are found from the "[cpu]" one
    for (i = 1; i <= NF; i++)
        if ($i ~ /^\[[0-9]+\]$/) break
    if (i > NF) next
    tid = $(i - 1) + 0
    t = num($(i + 1)) * 1e6
    ev = $(i + 2)
    sub(/:$/, "", ev)
    sub(/^[a-z_]+:/, "", ev)
    rest = ""
    for (j = i + 3; j <= NF; j++) rest = rest " " $j
}
ev == "sched_switch" {
    p = rest
    sub(/.*prev_pid=/, "", p)
    sub(/ .*/, "", p)
    if ((p + 0) in infx) slept[p + 0] = 1
    next
}
ev == "sys_enter_futex" {
    o = rest
    sub(/.*op: /, "", o)
    sub(/,.*/, "", o)
    # op & 0x7f: 0 WAIT, 1 WAKE, 9 WAIT_BITSET, 10 WAKE_BITSET
    o = hex(o) % 128
    infx[tid] = t
    fxop[tid] = o
    slept[tid] = 0
    next
}
ev == "sys_exit_futex" && (tid in infx) {
    d = t - infx[tid]
    o = fxop[tid]
    r = rest
    gsub(/ /, "", r)
    ret = hex(r)
    delete infx[tid]
    if (o == 9 || o == 0) {
        k = (o == 9 ? "cond" : "mutex") (slept[tid] ? "_slept" : "_once")
        n[tid, k]++
        s[tid, k] += d
        if (o == 9) {
            if (cwait[tid]) n[tid, "wasted"]++
            cwait[tid] = 1
        }
    } else if (o == 1 || o == 10) {
        k = (ret >= 1 && ret < 1e6) ? "wake_one" : "wake_none"
        n[tid, k]++
        s[tid, k] += d
    }
    next
}
ev ~ /^sys_exit_/ {
    c = ev
    sub(/^sys_exit_/, "", c)
    if (c ~ "^(" OP ")$") {
        ops[tid]++
        cwait[tid] = 0
    }
}
# hex("0x1f") = 31; a negative return (0xfff...f5) is a huge number
function hex(h,   v, i, ch)
{
    sub(/^0x/, "", h)
    v = 0
    for (i = 1; i <= length(h); i++) {
        ch = index("0123456789abcdef", tolower(substr(h, i, 1))) - 1
        if (ch < 0) return v
        v = v * 16 + ch
    }
    return v
}
function line(name, k,   x, m, per)
{
    x = 0
    m = 0
    for (th in ops)
        if (ops[th] >= MINOPS) {
            x += n[th, k]
            m += s[th, k]
        }
    per = x / (allops > 0 ? allops : 1)
    if (k == "wasted") printf "  %-20s %9d  %.4f per op\n", name, x, per
    else printf "  %-20s %9d  %.4f per op  mean %.2f us\n", name, x, per, (x > 0 ? m / x : 0)
}
END {
    allops = 0
    nth = 0
    for (th in ops)
        if (ops[th] >= MINOPS) {
            allops += ops[th]
            nth++
        }
    printf "%d threads with >= %d ops of %s: %d ops\n", nth, MINOPS, OP, allops
    line("cond wait, slept", "cond_slept")
    line("cond wait, at once", "cond_once")
    line("mutex wait, slept", "mutex_slept")
    line("mutex wait, at once", "mutex_once")
    line("wake, woke one", "wake_one")
    line("wake, nobody", "wake_none")
    line("cond re-wait", "wasted")
}
