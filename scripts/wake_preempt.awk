# wake_preempt.awk - of a run's wakes onto the waker's own CPU, how many
# preempted the waker, and of its threads' involuntary switches, who
# preempted them and for how long.  Reads `perf script` of
# sched:sched_switch and sched:sched_wakeup recorded with -a (as
# scripts/wake_class.sh and scripts/wake_split.awk do); threads named WAKEE
# (awk -v, a regular expression, default ^gvlsim$) are the run's:
#   awk -v WAKEE='^gvlsim$' -f scripts/wake_preempt.awk PERF_SCRIPT.txt
# Printed (docs/validate.md, "The 8-thread loop's long turns"):
#   the wakes a run's thread recorded of another one onto its own CPU
#   (a local wake; a wake sent to another CPU is recorded there), by
#   whether the other CPU was running a task, and how many preempted
#   their waker: the wakee switched in for the waker, switched out
#   runnable, within 10 us of the wake; also split by the wakee's previous
#   wait on a run queue (its last wake to its switch-in) and where it was;
#   the involuntary switches of the run's threads (switched out runnable
#   for another of them) by how long before the preempting thread was
#   woken (under 10 us: a wakeup preemption; over 1 ms: the tick), and
#   how long the preempted thread then stayed off its CPU.
function field(name) {
    if (!match($0, name "=[^ ]+")) return ""
    return substr($0, RSTART + length(name) + 1, RLENGTH - length(name) - 1)
}
function wbin(us) {
    return us < 2 ? "under 2us" : us < 10 ? "2-10us" : us < 50 ? "10-50us" : us < 500 ? "50-500us" : "over 500us"
}
function obin(us) {
    return us < 5 ? "under 5us" : us < 20 ? "5-20us" : us < 50 ? "20-50us" : us < 200 ? "50-200us" : "over 200us"
}
BEGIN { if (WAKEE == "") WAKEE = "^gvlsim$" }
{
    for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) break
    if (i > NF) next
    cpu = substr($i, 2, length($i) - 2) + 0
    t = ($(i + 1) + 0) * 1e6   # us
    ev = $(i + 2)
    comm = $1
}
ev == "sched:sched_wakeup:" {
    if (field("comm") !~ WAKEE) next
    wp = field("pid") + 0; tc = field("target_cpu") + 0
    woken[wp] = t
    if (comm !~ WAKEE || tc != cpu) next   # not a run's thread waking one onto its own CPU
    busy = 0
    for (c in cur) if (c + 0 != cpu && cur[c] != 0) busy = 1
    k = busy ? "other CPU busy" : "other CPU idle"
    h = wp in pwait ? wbin(pwait[wp]) " on " (pcpu[wp] == cpu ? "this CPU" : "another CPU") : "none seen"
    nk[k]++; nh[h]++
    pend[cpu] = wp; pwaker[cpu] = $2 + 0; pt[cpu] = t; pk[cpu] = k; ph[cpu] = h
    next
}
ev == "sched:sched_switch:" {
    pp = field("prev_pid") + 0; ps = field("prev_state"); np = field("next_pid") + 0
    pc = field("prev_comm"); nc = field("next_comm")
    cur[cpu] = np
    if ((cpu in pend) && np == pend[cpu]) {
        if (pp == pwaker[cpu] && ps == "R" && t - pt[cpu] < 10) { pk_n[pk[cpu]]++; ph_n[ph[cpu]]++ }
        delete pend[cpu]
    }
    if (pc ~ WAKEE && ps == "R" && nc ~ WAKEE) {
        d = np in woken ? t - woken[np] : -1
        why[pp] = d >= 0 && d < 10 ? "woken under 10us before" : d >= 0 && d < 1000 ? "woken 10us-1ms before" : "runnable over 1ms"
        off[pp] = t; ninv++; nwhy[why[pp]]++
    }
    if (nc ~ WAKEE && np in off) { noff[why[np] " | off " obin(t - off[np])]++; delete off[np] }
    if (nc ~ WAKEE && np in woken) { pwait[np] = t - woken[np]; pcpu[np] = cpu; delete woken[np] }
}
END {
    nw = split("under 2us,2-10us,10-50us,50-500us,over 500us", W, ",")
    no = split("under 5us,5-20us,20-50us,50-200us,over 200us", O, ",")
    nr = split("woken under 10us before,woken 10us-1ms before,runnable over 1ms", R, ",")
    print "wakes onto the waker's own CPU, and how many preempted it within 10 us:"
    for (q = 1; q <= 2; q++) {
        k = q == 1 ? "other CPU idle" : "other CPU busy"
        if (nk[k]) printf "  %-36s %6d, preempting %6d (%.0f%%)\n", k, nk[k], pk_n[k], 100 * pk_n[k] / nk[k]
    }
    print "  by the wakee's previous run-queue wait:"
    for (q = 1; q <= 2 * nw + 1; q++) {
        h = q > 2 * nw ? "none seen" : W[int((q + 1) / 2)] " on " (q % 2 ? "this CPU" : "another CPU")
        if (nh[h]) printf "    %-34s %6d, preempting %6d (%.0f%%)\n", h, nh[h], ph_n[h], 100 * ph_n[h] / nh[h]
    }
    printf "involuntary switches of the run's threads by another of them: %d\n", ninv
    for (q = 1; q <= nr; q++)
        if (nwhy[R[q]]) {
            printf "  the preempting thread %s: %d; the preempted one off its CPU:", R[q], nwhy[R[q]]
            for (o = 1; o <= no; o++) if (noff[R[q] " | off " O[o]]) printf " %s %d", O[o], noff[R[q] " | off " O[o]]
            printf "\n"
        }
}
