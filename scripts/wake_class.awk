# wake_class.awk - where did this 2-CPU guest place each wake-up?  Reads
# `perf script` of sched:sched_switch, sched:sched_waking and
# sched:sched_wakeup recorded with -a (scripts/wake_class.sh) and counts,
# per wakee thread name, the wakes by the wakee's last CPU (sched_waking's
# target_cpu, before select_task_rq) against the waker's CPU, and by whether
# the other CPU ran its idle task at the waking (the last sched_switch
# there):
#   pull(other idle)  last CPU the other one, idle: placed on the waker's
#   pull(other busy)  last CPU the other one, busy: placed on the waker's
#   keep(idle)        last CPU the waker's, the other idle: kept there
#   keep(busy)        last CPU the waker's, the other busy: kept there
# as "placed / wakes".  Only wakers whose thread name matches WAKER and
# wakees matching WAKEE (awk -v; regular expressions) are counted.
# Each kind is counted apart by the other CPU's number (other=CPU0: the
# waker ran on CPU 1): on this repository's guest the events of a vCPU
# leaving idle were missing from some traces (CPU 1 logged 10,068 switches
# to its idle task and none from it), so that a CPU looks idle until its
# task's next event; the END line "switches from idle" says, per CPU, how
# many such exits were logged: trust the idle kinds only for a CPU that
# logs them.
# It also replays mainline's wake_wide() (kernel/sched/fair.c: record_wakee
# bumps the waker's wakee_flips when it wakes another task than the last
# one and halves them once a second; wake_wide(p) is true when the smaller
# of the waker's and p's flips is at least sd_llc_size, 2 here, and the
# larger at least that many times it) over every waking in the trace, and
# prints per thread how many of its pull(other idle) wakes it calls wide
# (mainline asks wake_affine only for the others).
function field(s, k,   i, n, a)
{
    n = split(s, a, " ")
    for (i = 1; i <= n; i++)
        if (index(a[i], k "=") == 1) return substr(a[i], length(k) + 2)
    return ""
}
{
    cpu = $0
    sub(/^[^[]*\[/, "", cpu)
    sub(/\].*$/, "", cpu)
    cpu += 0
}
/ sched:sched_switch: / {
    np = $0
    sub(/.*next_pid=/, "", np)
    sub(/ .*/, "", np)
    np += 0
    pp = $0
    sub(/.*prev_pid=/, "", pp)
    sub(/ .*/, "", pp)
    if (pp == 0) from_idle[cpu]++
    if (np == 0) to_idle[cpu]++
    cur[cpu] = np
    next
}
/ sched:sched_waking: / {
    w = $2 + 0
    p = field($0, "pid") + 0
    ts = $0
    sub(/^[^]]*\] */, "", ts)
    sub(/:.*/, "", ts)
    ts += 0
    if (w) {
        if (ts > flip_ts[w] + 1) { flips[w] = int(flips[w] / 2); flip_ts[w] = ts }
        if (last_wakee[w] != p) { last_wakee[w] = p; flips[w]++ }
    }
    hi = flips[w] > flips[p] ? flips[w] : flips[p]
    lo = flips[w] > flips[p] ? flips[p] : flips[w]
    c = field($0, "comm")
    if (c !~ WAKEE || $1 !~ WAKER) next
    pend[p] = 1
    pwide[p] = !(lo < 2 || hi < lo * 2)
    pc[p] = c
    pw[p] = cpu
    pl[p] = field($0, "target_cpu") + 0
    pidle[p] = cur[1 - cpu] == 0
    next
}
/ sched:sched_wakeup: / {
    p = field($0, "pid") + 0
    if (!(p in pend)) next
    delete pend[p]
    c = pc[p]
    on_waker = field($0, "target_cpu") + 0 == pw[p]
    k = (pl[p] != pw[p] ? "pull" : "keep") (pidle[p] ? "i" : "b") (1 - pw[p])
    n[c, k]++
    if (on_waker) m[c, k]++
    if (k ~ /^pulli/ && pwide[p]) wide[c, k]++
    seen[c] = 1
}
function kinds(c, o) {
    return sprintf("pull(other idle) %d/%d (wide %d)  pull(other busy) %d/%d  keep(idle) %d/%d  keep(busy) %d/%d",
        m[c, "pulli" o], n[c, "pulli" o], wide[c, "pulli" o], m[c, "pullb" o], n[c, "pullb" o],
        m[c, "keepi" o], n[c, "keepi" o], m[c, "keepb" o], n[c, "keepb" o])
}
END {
    for (c in seen) {
        line = sprintf("%-10s other=CPU0: %s | other=CPU1: %s", c, kinds(c, 0), kinds(c, 1))
        print line | "sort"
    }
    close("sort")
    printf "switches from idle / to idle: CPU0 %d/%d, CPU1 %d/%d\n", from_idle[0], to_idle[0], from_idle[1], to_idle[1]
}
