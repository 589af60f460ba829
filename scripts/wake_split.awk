# wake_split.awk - of a 2-CPU run's wakes with the other CPU idle, how
# many went onto the (busy) waker's CPU, split by what may decide it: the
# wakee's last CPU (the waker's: "kept"; the idle one: "pulled"), how long
# the idle CPU had been idle, and how long the wakee had slept.  Reads
# `perf script` of sched:sched_switch and sched:sched_wakeup recorded with
# -a (scripts/wake_class.sh records them; or `perf record -a -e
# sched:sched_switch -e sched:sched_wakeup CMD`, then `perf script -F
# comm,tid,cpu,time,event,trace`); threads named WAKEE (awk -v, a regular
# expression, default gvlsim) are the run's:
#   awk -v WAKEE='^gvlsim$' -f scripts/wake_split.awk PERF_SCRIPT.txt
# A wake recorded by the idle task on its CPU (a remote wake, queued by
# IPI) is one sent to the idle CPU, its waker on the other.
function bin(us) {
    return us < 5 ? 1 : us < 10 ? 2 : us < 20 ? 3 : us < 50 ? 4 : us < 200 ? 5 : us < 1000 ? 6 : 7
}
function field(name,    i) {
    if (!match($0, name "=[^ ]+")) return ""
    return substr($0, RSTART + length(name) + 1, RLENGTH - length(name) - 1)
}
BEGIN {
    if (WAKEE == "") WAKEE = "^gvlsim$"
    split("0-5us 5-10us 10-20us 20-50us 50-200us 200us-1ms >1ms", label, " ")
}
{
    for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) break
    if (i > NF) next
    cpu = substr($i, 2, length($i) - 2) + 0
    t = $(i + 1) + 0
    ev = $(i + 2)
    comm = $1
}
ev == "sched:sched_switch:" {
    np = field("next_pid") + 0; pp = field("prev_pid") + 0
    if (np == 0 && cur[cpu] != 0) idle_since[cpu] = t
    cur[cpu] = np
    last[pp] = cpu; last[np] = cpu; out[pp] = t
    next
}
ev == "sched:sched_wakeup:" {
    if (field("comm") !~ WAKEE || cpu > 1) next
    wp = field("pid") + 0; tc = field("target_cpu") + 0
    remote = comm ~ /^swapper/
    w = remote ? 1 - cpu : cpu
    o = 1 - w
    if (!remote && cur[o] != 0) next           # the other CPU busy
    if (!(o in idle_since) || !(wp in last)) next
    kind = last[wp] == w ? "kept" : "pulled"
    onto = !remote && tc == w
    bi = bin((t - idle_since[o]) * 1e6)
    n[kind, "idle", bi]++; if (onto) k[kind, "idle", bi]++
    if (wp in out) {
        bs = bin((t - out[wp]) * 1e6)
        n[kind, "sleep", bs]++; if (onto) k[kind, "sleep", bs]++
    }
    tot[kind]++; if (onto) ontot[kind]++
}
END {
    for (q = 1; q <= 2; q++) {
        kind = q == 1 ? "kept" : "pulled"
        printf "wakee last on the %s CPU: %d of %d onto the waker's CPU\n", q == 1 ? "waker's" : "idle", ontot[kind], tot[kind]
        for (r = 1; r <= 2; r++) {
            what = r == 1 ? "idle" : "sleep"
            printf "  by the %s:", r == 1 ? "idle CPU's idle time" : "wakee's sleep"
            for (b = 1; b <= 7; b++)
                if (n[kind, what, b]) printf " %s %d/%d", label[b], k[kind, what, b], n[kind, what, b]
            printf "\n"
        }
    }
}
