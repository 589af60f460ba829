# stretches.awk - reads `perf script` output of sched:sched_switch,
# sched:sched_wakeup and syscalls:sys_enter_openat (scripts/stretches.sh)
# of a ping-pong of two threads that both open files (queue_pingpong: the
# worker opens once a message, the main thread once in five), and prints:
#   - each thread's switches out by state (S: it slept, R: preempted);
#   - the worker's stretches: its opens between two of its switches out,
#     the runs of 100 or more and the messages they carried (the worker
#     runs alone while the main thread is runnable in its blocking region;
#     docs/validate.md, "The one-CPU eager ping-pong's stretches");
#   - each wake of one of the two by the other: whether the waker was
#     preempted at once (switched out in state R before its next traced
#     system call) or not (it made that call, or slept, first), by how long
#     the wakee ran before it slept (5 us bins).
# The worker is the thread with the most opens, the main thread the next.
function ts(s) { sub(/:$/, "", s); return s + 0 }
function field(name,    i) {
    for (i = 1; i <= NF; i++) if (index($i, name "=") == 1) return substr($i, length(name) + 2)
    return ""
}
# perf script's default line: COMM TID [CPU] TIME: EVENT: ...; the comm may
# hold spaces, so the TID is the field before "[CPU]"
function parse(    i) {
    for (i = 2; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) { tid = $(i - 1); t = ts($(i + 1)); ev = $(i + 2); return 1 }
    return 0
}
# the worker's opens since its last switch out end: a stretch if 100 or more
function end_run() {
    if (run >= 100) { stretches++; carried += run }
    total += run; run = 0
}
{
    if (!parse()) next
    n++; T[n] = t; E[n] = ev; TID[n] = tid
    if (ev ~ /sys_enter_openat/) { opens[tid]++ }
    else if (ev ~ /sched_switch/) { P[n] = field("prev_pid"); S[n] = field("prev_state"); N[n] = field("next_pid") }
    else if (ev ~ /sched_wakeup/) { W[n] = field("pid") }
}
END {
    for (x in opens) if (opens[x] > c1) { c2 = c1; m = w; c1 = opens[x]; w = x } else if (opens[x] > c2) { c2 = opens[x]; m = x }
    if (c2 == 0) { print "stretches: fewer than two threads opened files" > "/dev/stderr"; exit 1 }
    name[w] = "worker"; name[m] = "main"
    printf "worker: thread %s, %d opens; main: thread %s, %d opens\n", w, c1, m, c2
    run = 0; pend = ""
    for (i = 1; i <= n; i++) {
        if (E[i] ~ /sched_switch/) {
            p = P[i]
            if (p in name) sw[name[p] " " S[i]]++
            if (p in name && last_in[p] != "") ran[p] = (T[i] - last_in[p]) * 1e6
            last_in[N[i]] = T[i]
            if (p == w) end_run()
            if (pend != "" && p == waker) { out[pend " " (S[i] == "R" ? "preempted" : "slept")]++; pend = "" }
            continue
        }
        if (E[i] ~ /sys_enter_openat/ && TID[i] == w) run++
        if (E[i] ~ /sched_wakeup/ && (TID[i] in name) && (W[i] in name) && W[i] != TID[i]) {
            waker = TID[i]
            b = int(ran[W[i]] / 5) * 5; if (b > 40) b = 40
            pend = name[waker] "->" name[W[i]] " " b
            buckets[b] = 1
            continue
        }
        if (pend != "" && TID[i] == waker && E[i] ~ /^syscalls:/) { out[pend " next"]++; pend = "" }
    }
    end_run()
    printf "switches out: main %d slept, %d preempted; worker %d slept, %d preempted\n",
        sw["main S"], sw["main R"], sw["worker S"], sw["worker R"]
    printf "worker stretches of 100 or more opens: %d, carrying %d of %d messages (%.0f%%)\n",
        stretches, carried, total, total ? 100 * carried / total : 0
    print "wakes, by how long the wakee ran before it slept: preempted at once / not (the waker's next traced call or its sleep first)"
    for (d = 0; d < 2; d++) {
        pair = d ? "main->worker" : "worker->main"
        line = pair ":"; sp = sn = 0
        for (b = 0; b <= 40; b += 5) {
            if (!(b in buckets)) continue
            a = out[pair " " b " preempted"] + 0; c = out[pair " " b " next"] + out[pair " " b " slept"]
            sp += a; sn += c
            if (a + c) line = line sprintf("  %s us %d/%d", b == 40 ? ">= 40" : b "-" b + 5, a, c)
        }
        printf "%s  (all: %d/%d, %.1f%% preempted at once)\n", line, sp, sn, sp + sn ? 100 * sp / (sp + sn) : 0
    }
}
