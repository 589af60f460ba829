# sched_wakes.awk - what Linux's fair class did with one process's wake-ups,
# from the records of scripts/bpf/sched_wakes.bpf.o (bpf_record; the kinds
# and their fields are in scripts/bpf/gv_bpf.h):
#
#   awk -f scripts/bpf/sched_wakes.awk [-v tgid=N] RECORDS.txt
#
# tgid: the process to report (default: the one with the most wake-ups).
# Every thread is taken to be nice 0 (weight 1024).  CPUs are numbered as
# pairs (the "other" CPU of cpu c is c xor 1): written for the 2-vCPU
# guests this repository measures.  A CPU counts as idle from a switch of
# one of the process's threads to the idle task until the next switch
# recorded there (another process's tasks are not recorded).
#
# 1. Wakes onto the running waker's own CPU, and whether the wakee preempted
#    it (the CPU's next switch takes the waker off while still runnable,
#    within 200 us).  With two tasks on the queue (the waker and the wakee)
#    EEVDF's choice follows from the recorded state alone
#    (check_preempt_wakeup_fair -> __pick_eevdf, Linux 6.18): the wakee
#    preempts when the waker is no longer eligible (its vruntime right of
#    V), or when the waker's RUN_TO_PARITY protection is over (vprot <=
#    vruntime; a shorter wakee slice overrides it, PREEMPT_SHORT) and the
#    wakee is eligible with the earlier deadline.  The report gives how
#    often that rule agrees with what the kernel did, and both split by the
#    lag each wakee had slept with (its vlag at sched_waking).
# 2. Where wakes went: the wakee's previous CPU (the waker's or the other)
#    and whether the other CPU was idle, against the CPU it was woken onto;
#    with the other CPU idle and the waker alone on its CPU, by that CPU's
#    PELT utilization with the wakee placed there (a packing kernel's
#    test, docs/bpf.md).
# 3. Wakees queued behind their waker that did not preempt: did they run
#    on that CPU or on the other, and after how long.
# 4. Migrations of queued tasks (load balancing) split by task_hot (ran
#    less than 500 us before, rq clock_task - se.exec_start), and the CPU
#    going idle with a task waiting on the other one.
# 5. The lag the process's threads slept with.
# 6. Sections 1 and 5 thread by thread: each pair's wakes onto the waker's
#    own CPU (with two tasks queued or more) and how many preempted, of them
#    the wakes of a delayed sleeper; each wakee's such wakes by the waker's
#    vruntime lead over it, placed (within 20 us of 0, how the lead moved
#    between two such wakes in a row, and how often the waker was eligible:
#    a two-thread chain's drift toward the wake that does not preempt); each
#    thread's sleeps by their lag.  The model's summary prints the same
#    counts thread by thread (docs/bpf.md).

function lag_class(v, delayed) {
    if (delayed) return "delayed"
    return v > 0 ? "lag>0" : v < 0 ? "lag<0" : "lag=0"
}
function median(a, n,    i, j, t) {
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n ? a[int((n + 1) / 2)] : 0
}
function pct(a, b) { return b ? sprintf("%.0f%%", 100 * a / b) : "-" }

{ n++; line[n] = $0 }
$1 == 2 { wakeups[$4]++ }

END {
    if (tgid == "") { best = -1; for (g in wakeups) if (wakeups[g] > best) { best = wakeups[g]; tgid = g } }
    if (tgid == "" || !wakeups[tgid]) { print "sched_wakes.awk: no wake-up of process " (tgid == "" ? "any" : tgid) " recorded" > "/dev/stderr"; exit 1 }
    # the process's threads: wakees, and switches recorded for it
    for (i = 1; i <= n; i++) {
        split(line[i], f, " ")
        if ((f[1] == 1 || f[1] == 2) && f[4] == tgid) tid[f[5]] = 1
    }
    for (i = 1; i <= n; i++) {
        split(line[i], f, " ")
        k = f[1]
        if (k == 3) {  # ts cpu tgid prev next prev_state preempt
            cpu = f[3]; running[cpu] = f[6]
            # a local wake's wakee first runs: remember where and when
            if ((f[6] in woke_ts) && !(f[6] in ran_ts)) { ran_ts[f[6]] = f[2]; ran_cpu[f[6]] = cpu }
            # the waker a local wake left waiting for its verdict
            if ((cpu in pend_waker) && f[5] == pend_waker[cpu])
                judge(cpu, f[7] == 0 && f[2] - pend_ts[cpu] < 200000)
            continue
        }
        if (k == 1 && f[4] == tgid) {  # waking: the lag it slept with
            wk_lag[f[5]] = lag_class(f[10], f[12]); wk_cpu[f[5]] = f[3]; wk_prev[f[5]] = f[7]; wk_waker[f[5]] = f[6]
            # the waker's CPU's utilization with the wakee there: its own, plus
            # the wakee's (the larger of util_avg and util_est) if that comes
            # from the other CPU (a sleeper's share stays on its last CPU)
            wk_util[f[5]] = f[16] + (f[7] != f[3] ? (f[14] > f[15] ? f[14] : f[15]) : 0); wk_nr[f[5]] = f[17]
            sleeps[wk_lag[f[5]]]++; nsleeps++
            tsleeps[f[5]]++; tsleep_lag[f[5], wk_lag[f[5]]]++
            continue
        }
        if (k == 2 && f[4] == tgid) {
            wakee = f[5]; curr = f[6]; cpu = f[3]; target = f[7]
            # 2. placement, for wakes made by a running thread of the process
            if ((wakee in wk_waker) && (wk_waker[wakee] in tid) && wk_waker[wakee] != wakee) {
                wc = wk_cpu[wakee]; other = wc - wc % 2 + 1 - wc % 2
                idle = (other in running) && running[other] == 0
                key = (wk_prev[wakee] == wc ? "last ran on the waker's CPU" : "last ran on the other CPU") \
                      SUBSEP (idle ? "other CPU idle" : "other CPU busy")
                place_n[key]++
                if (target == wc) place_kept[key]++
                if (idle && wk_nr[wakee] == 1) {
                    ub = int(wk_util[wakee] / 100) * 100
                    ukey = (wk_prev[wakee] == wc ? "waker's" : "other") SUBSEP ub
                    util_n[ukey]++; if (target == wc) util_kept[ukey]++; if (ub > umax) umax = ub
                }
                delete wk_waker[wakee]
            }
            # 1. a wake onto the running waker's own CPU
            if (target != cpu || !(curr in tid) || curr == wakee || !f[17]) continue
            zero = f[15]; load = f[14] + 1024; avg = f[13] + (f[10] - zero) * 1024
            c_elig = avg >= (f[10] - zero) * load
            w_elig = avg >= (f[8] - zero) * load
            # 6. the waker's vruntime lead over the wakee (placed), as the
            # model's summary counts it: near 0, its steps between two such
            # wakes of the wakee in a row; and the waker eligible
            lead = f[10] - f[8]; near = lead > -20000 && lead < 20000
            lead_n[wakee]++; lead_elig[wakee] += c_elig
            if (near) {
                lead_near[wakee]++
                if (lead_was_near[wakee]) { lead_steps[wakee]++; lead_moved[wakee] += lead - lead_last[wakee] }
                lead_last[wakee] = lead
            }
            lead_was_near[wakee] = near
            short = f[19] < f[20]
            prot = !short && f[12] - f[10] > 0
            earlier = f[9] < f[11]
            if (!c_elig) why = "the waker not eligible"
            else if (prot) why = "the waker protected (RUN_TO_PARITY)"
            else if (w_elig && earlier) why = "the wakee eligible, earlier deadline"
            else why = "the wakee later or not eligible"
            if (cpu in pend_waker) superseded++  # the waker woke another before its switch
            pend_waker[cpu] = curr; pend_ts[cpu] = f[2]; pend_wakee[cpu] = wakee
            woke_ts[wakee] = f[2]; delete ran_ts[wakee]
            pend_two[cpu] = (f[16] == 2)
            pend_pred[cpu] = (!c_elig && w_elig) || (c_elig && !prot && w_elig && earlier)
            pend_why[cpu] = why
            pend_lag[cpu] = (wakee in wk_lag) ? wk_lag[wakee] : "not seen"
            continue
        }
        if (k == 4 && f[3] == tgid && f[7] != 0) {  # a queued task moved by a balance (on_rq: MIGRATING)
            mig[(f[10] - f[9] < 500000) ? "cache-hot (ran under 500 us before)" : "cache-cold"]++; nmig++
            continue
        }
        if (k == 5 && f[4] == tgid) {
            nidle++
            if (f[9] >= 2) {
                idle_wait++
                if (f[8] != 1) gate["the root domain not overloaded"]++
                else if (f[6] < f[7]) gate["avg_idle under max_newidle_lb_cost"]++
                else gate["the balance ran"]++
            }
        }
    }

    printf "process %s: %d wake-ups recorded\n", tgid, wakeups[tgid]
    print ""
    print "1. wakes onto the running waker's own CPU"
    printf "  with two tasks on the queue: %d, preempting %d (%s); EEVDF's rule from the recorded state agrees with %d (%s)\n", \
        two_n, two_pre, pct(two_pre, two_n), two_agree, pct(two_agree, two_n)
    for (w in why_n) printf "    %-44s %6d, preempting %6d (%s)\n", w, why_n[w], why_pre[w], pct(why_pre[w], why_n[w])
    printf "  with more tasks queued: %d, preempting %d (%s) (not judged: the rule needs every queued deadline)\n", \
        more_n, more_pre, pct(more_pre, more_n)
    if (superseded) printf "  left out: %d, the waker woke another thread on its CPU before switching\n", superseded
    print "  by the lag the wakee slept with:"
    for (l in lag_n) printf "    %-44s %6d, preempting %6d (%s)\n", l, lag_n[l], lag_pre[l], pct(lag_pre[l], lag_n[l])
    print ""
    print "2. where a running thread's wakes went (the wakee's previous CPU; the other CPU idle or busy)"
    for (key in place_n) {
        split(key, kk, SUBSEP)
        printf "  %-28s %-15s %6d, to the waker's CPU %6d (%s)\n", kk[1] ",", kk[2], place_n[key], place_kept[key], pct(place_kept[key], place_n[key])
    }
    print "  the other CPU idle and the waker alone on its CPU: kept on the waker's CPU, by that CPU's"
    print "  utilization with the wakee there (of 1024: its own, plus the wakee's if it last ran on the other)"
    for (pv = 1; pv <= 2; pv++) {
        p = pv == 1 ? "waker's" : "other"
        s = ""
        for (b = 0; b <= umax; b += 100) if (util_n[p, b]) s = s sprintf(" %d:%d/%d", b, util_kept[p, b], util_n[p, b])
        printf "    last ran on the %-8s CPU%s\n", p, s
    }
    print ""
    print "3. wakees queued behind their waker that did not preempt it"
    for (w in qn) {
        delete tmp; for (j = 1; j <= qn[w]; j++) tmp[j] = qw[w, j]
        printf "  ran %-20s %6d, after a median %.1f us\n", w, qn[w], median(tmp, qn[w]) / 1000
    }
    print ""
    printf "4. queued tasks moved by load balancing: %d\n", nmig
    for (mm in mig) printf "  %-44s %6d\n", mm, mig[mm]
    printf "  a CPU left idle by the process: %d times, %d of them with a task waiting on the other CPU; there the newidle balance:\n", nidle, idle_wait
    for (g in gate) printf "    %-42s %6d\n", g, gate[g]
    print ""
    printf "5. sleeps (from the next wake-up): %d\n", nsleeps
    for (l in sleeps) printf "  %-44s %6d (%s)\n", l, sleeps[l], pct(sleeps[l], nsleeps)
    print ""
    print "6. by thread: wakes onto the running waker's own CPU (wakee <- waker), and sleeps"
    for (pr in pair_n)
        printf "  %-20s %6d, preempting %6d (%s); of a delayed sleeper %6d, preempting %6d (%s)\n", pr, pair_n[pr], \
            pair_pre[pr], pct(pair_pre[pr], pair_n[pr]), pair_del[pr], pair_delpre[pr], pct(pair_delpre[pr], pair_del[pr])
    for (t in lead_n)
        printf "  %-20s %6d woken: the waker's lead within 20 us at %d (moving %s us a wake), the waker eligible at %d\n", t, \
            lead_n[t], lead_near[t], lead_steps[t] ? sprintf("%+.3f", lead_moved[t] / lead_steps[t] / 1000) : "-", lead_elig[t]
    for (t in tsleeps)
        printf "  %-20s %6d sleeps: delayed %s, lag>0 %s, lag=0 %s, lag<0 %s\n", t, tsleeps[t], \
            pct(tsleep_lag[t, "delayed"], tsleeps[t]), pct(tsleep_lag[t, "lag>0"], tsleeps[t]), \
            pct(tsleep_lag[t, "lag=0"], tsleeps[t]), pct(tsleep_lag[t, "lag<0"], tsleeps[t])
}

# a local wake's verdict: the waker's next switch on that CPU
function judge(cpu, pre,    l, w, where, pr) {
    if (pend_two[cpu]) {
        two_n++; two_pre += pre; two_agree += (pre == pend_pred[cpu])
        why_n[pend_why[cpu]]++; why_pre[pend_why[cpu]] += pre
    } else {
        more_n++; more_pre += pre
    }
    l = pend_lag[cpu]; lag_n[l]++; lag_pre[l] += pre
    w = pend_wakee[cpu]
    pr = w " <- " pend_waker[cpu]; pair_n[pr]++; pair_pre[pr] += pre
    if (l == "delayed") { pair_del[pr]++; pair_delpre[pr] += pre }
    if (!pre && (w in ran_ts)) {  # (one that runs after the record's end is not counted)
        where = ran_cpu[w] == cpu ? "on the waker's CPU" : "on the other CPU"
        qn[where]++; qw[where, qn[where]] = ran_ts[w] - woke_ts[w]
    }
    delete woke_ts[w]; delete ran_ts[w]
    delete pend_waker[cpu]
}
