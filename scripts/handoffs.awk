# handoffs.awk - the GVL hand-offs of a gvlsim trace (`gvlsim run --trace`
# or `gvlsim exec --trace`, uncompressed: one event a line), by what the
# thread that held the GVL before was doing when the next one took it:
#   awk -f scripts/handoffs.awk TRACE.json
# A hand-off is a `running` slice of another thread than the one whose
# `running` slice came before it (one Ractor: the scenario's threads share
# one GVL).  The previous holder's state at the new slice's start says how
# the GVL passed:
#   blocking   it released the GVL around a blocking call (File.mtime's
#              stat) and another thread took it meanwhile
#   wants_gvl  it wanted the GVL back (a yield, or its blocking call ended
#              first and another thread won the GVL)
#   parked     it released the GVL to park (a Queue pop, a join)
#   (other)    any other state, or none (the thread had ended)
# For each kind: how many, and the new holder's wait for the GVL before it
# (its `wants_gvl` slice that ends where its `running` slice starts):
# median and 90th percentile in us.  "quick": the hand-offs of kind
# blocking whose new holder came back from a blocking call of its own and
# waited less than 20 us (two threads on two CPUs passing the GVL between
# their blocking calls, not a sleeper woken for it).  Also the number of `running` slices
# and hand-offs per `blocking` slice (per File.mtime call in mtime_loop).
function us(x) { return x + 0 }
# the p-quantile of kind k's waits, from their histogram in 0.01 us bins
function quant(k, p,    want, seen, b) {
    want = p * nw[k]
    for (b = 0; b <= maxbin[k]; b++) {
        seen += hist[k, b]
        if (seen >= want && seen > 0) return b / 100
    }
    return 0
}
# the state of thread `tid` at time `t` (its slice with ts <= t < ts + dur)
function state_at(tid, t,    lo, hi, mid) {
    lo = 1; hi = ns[tid]
    while (lo <= hi) {
        mid = int((lo + hi) / 2)
        if (sts[tid, mid] > t) hi = mid - 1
        else if (sts[tid, mid] + sdur[tid, mid] <= t) lo = mid + 1
        else return sname[tid, mid]
    }
    return "(other)"
}
/"ph":"X","cat":"thread"/ {
    match($0, /"name":"[a-z_]+"/); name = substr($0, RSTART + 8, RLENGTH - 9)
    match($0, /"tid":[0-9]+/); tid = substr($0, RSTART + 6, RLENGTH - 6) + 0
    match($0, /"ts":[0-9.]+/); ts = us(substr($0, RSTART + 5, RLENGTH - 5))
    match($0, /"dur":[0-9.]+/); dur = us(substr($0, RSTART + 6, RLENGTH - 6))
    n = ++ns[tid]
    sts[tid, n] = ts; sdur[tid, n] = dur; sname[tid, n] = name
    if (name == "running") { nrun++; rts[nrun] = ts; rtid[nrun] = tid; rix[nrun] = n }
    if (name == "blocking") nblock++
    if (name == "wants_gvl") wend[tid, ts + dur] = dur
}
END {
    # running slices in time order (they never overlap under one GVL)
    for (i = 2; i <= nrun; i++) for (j = i; j > 1 && rts[j] < rts[j - 1]; j--) {
        t = rts[j]; rts[j] = rts[j - 1]; rts[j - 1] = t
        t = rtid[j]; rtid[j] = rtid[j - 1]; rtid[j - 1] = t
        t = rix[j]; rix[j] = rix[j - 1]; rix[j - 1] = t
    }
    for (i = 2; i <= nrun; i++) {
        if (rtid[i] == rtid[i - 1]) continue
        k = state_at(rtid[i - 1], rts[i])
        cnt[k]++; total++
        # quick: the new holder came back from its own blocking call and
        # waited under 20 us, the old one in its blocking call meanwhile
        tb = rtid[i]; m = rix[i]
        if (k == "blocking" && m > 2 && sname[tb, m - 1] == "wants_gvl" && sdur[tb, m - 1] < 20 &&
            sname[tb, m - 2] == "blocking") quick++
        key = rtid[i] SUBSEP rts[i]
        if (key in wend) {
            b = int(wend[key] * 100 + 0.5)
            hist[k, b]++; nw[k]++
            if (b > maxbin[k]) maxbin[k] = b
        }
    }
    printf "running slices %d, blocking slices %d, hand-offs %d (%.4f per blocking slice)\n", nrun, nblock, total,
        nblock ? total / nblock : 0
    split("blocking wants_gvl parked (other)", kinds, " ")
    for (q = 1; q <= 4; q++) {
        k = kinds[q]
        if (!cnt[k]) continue
        printf "  previous holder %-9s %6d  new holder's wait: median %.2f us, p90 %.2f us\n", k, cnt[k],
            quant(k, 0.5), quant(k, 0.9)
    }
    printf "  quick (previous holder blocking, new one back from its own blocking call within 20 us): %d\n", quick
}
