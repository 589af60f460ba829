# long_turns.awk - the GVL's turns in a gvlsim trace of one Ractor's loop
# (`gvlsim run --trace` or `gvlsim exec --trace`, uncompressed: one event
# a line), how each long turn ended, and how evenly the workers advanced:
#   awk -f scripts/long_turns.awk TRACE.json
#   awk -v prefix=worker -v long=100 -f scripts/long_turns.awk TRACE.json
# A turn is a run of `running` slices of one thread with no other thread's
# `running` slice between them; its calls are its `blocking` slices (one a
# File.mtime call in mtime_loop).  Only threads whose name starts with
# `prefix` count.  A long turn has at least `long` calls: a holder that
# took the GVL back after each of its calls while the others waited.
# Printed (docs/validate.md, "The 8-thread loop's long turns"):
#   turns, long turns and their share of the calls; a long turn's calls and
#   length (median);
#   how each long turn ended: the holder's state when the next turn's
#   thread started running (blocking: in its call, the GVL released;
#   wants_gvl: back for the GVL; ...), and whether that thread ran on the
#   holder's CPU or the other one, with the holder's time in that state so
#   far (median, for blocking);
#   whether the next long turn went to the same thread again;
#   the workers' calls when the first of them ended (their coefficient of
#   variation) and how long the last two ran alone (the run's tail).
# The CPU of a slice: an executor trace's "args":{"cpu":N}; a simulated
# trace's core track whose busy slice runs the thread at the slice's start.
function num(s, key,    i, r) {
    i = index(s, "\"" key "\":")
    if (!i) return ""
    r = substr(s, i + length(key) + 3)
    sub(/[,}].*/, "", r)
    return r + 0
}
function str(s, key,    i, r) {
    i = index(s, "\"" key "\":\"")
    if (!i) return ""
    r = substr(s, i + length(key) + 4)
    sub(/".*/, "", r)
    return r
}
# a[1..n] sorted in place (insertion: a few hundred values at most here)
function isort(a, n,    i, j, t) {
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j] < a[j - 1]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
}
function median(a, n) {
    isort(a, n)
    return n ? (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2) : 0
}
# the slice of track `key` at time t (its index; 0: none): a thread's
# (key: its tid) or the busy slices of the cores that ran a task (key:
# "core " and the task's name, sname the core's number)
function slice_at(key, t,    lo, hi, mid) {
    lo = 1; hi = ns[key]
    while (lo <= hi) {
        mid = int((lo + hi) / 2)
        if (sts[key, mid] > t + 1e-9) hi = mid - 1
        else if (sts[key, mid] + sdur[key, mid] <= t + 1e-9) lo = mid + 1
        else return mid
    }
    return 0
}
function cpu_of(tid, k,    c, j) {
    c = scpu[tid, k]
    if (c != "") return c
    j = slice_at("core " tname[tid], sts[tid, k])
    return j ? sname["core " tname[tid], j] : ""
}
BEGIN { if (prefix == "") prefix = "worker"; if (long == "") long = 100 }
/"ph":"M"/ && /"name":"thread_name"/ { n = $0; sub(/.*"args":\{/, "", n); tname[num($0, "tid")] = str(n, "name"); next }
/"ph":"X"/ && /"cat":"thread"/ {
    tid = num($0, "tid"); k = ++ns[tid]
    sts[tid, k] = num($0, "ts"); sdur[tid, k] = num($0, "dur"); sname[tid, k] = str($0, "name")
    scpu[tid, k] = index($0, "\"cpu\":") ? num($0, "cpu") : ""
    next
}
/"ph":"X"/ && /"cat":"core"/ && /"state":"busy"/ {
    key = "core " str($0, "task"); k = ++ns[key]
    sts[key, k] = num($0, "ts"); sdur[key, k] = num($0, "dur")
    sname[key, k] = tname[num($0, "tid")]; sub(/^core /, "", sname[key, k])
}
END {
    # the workers, and a k-way merge of their slices in time order
    nw = 0
    for (tid in tname) if (index(tname[tid], prefix) == 1 && ns[tid]) { w[++nw] = tid; at[tid] = 1 }
    if (!nw) { print "long_turns.awk: no thread named " prefix "... with slices in " FILENAME > "/dev/stderr"; exit 2 }
    first_end = -1; last2 = -1; alive = nw
    for (i = 1; i <= nw; i++) {
        tid = w[i]; e = sts[tid, ns[tid]] + sdur[tid, ns[tid]]; wend[i] = e
    }
    # the workers' ends, sorted: the first end and the start of the last two's tail
    for (i = 1; i <= nw; i++) se[i] = wend[i]
    isort(se, nw)
    first_end = se[1]; tail_from = nw >= 3 ? se[nw - 2] : 0; run_end = se[nw]
    nt = 0
    while (1) {
        best = ""
        for (i = 1; i <= nw; i++) {
            tid = w[i]
            if (at[tid] <= ns[tid] && (best == "" || sts[tid, at[tid]] < sts[best, at[best]])) best = tid
        }
        if (best == "") break
        k = at[best]++
        if (sname[best, k] == "running") {
            if (!nt || tt[nt] != best) { nt++; tt[nt] = best; tk[nt] = k; tcalls[nt] = 0; tstart[nt] = sts[best, k] }
            tend[nt] = sts[best, k] + sdur[best, k]
        } else if (sname[best, k] == "blocking") {
            if (nt && tt[nt] == best) tcalls[nt]++
            if (sts[best, k] < first_end) early[best]++
        }
    }
    nl = 0; allc = 0; longc = 0
    for (j = 1; j <= nt; j++) {
        allc += tcalls[j]
        if (tcalls[j] >= long) { nl++; lj[nl] = j; longc += tcalls[j]; lc[nl] = tcalls[j]; ld[nl] = tend[j] - tstart[j] }
    }
    printf "%s: %d workers, %d turns, %d long (>= %d calls) with %.1f%% of the calls; a long turn: %g calls, %.0f us (medians)\n",
        FILENAME, nw, nt, nl, long, allc ? 100 * longc / allc : 0, median(lc, nl), median(ld, nl)
    # how each long turn ended
    nb = 0; same = 0; pairs = 0
    for (i = 1; i <= nl; i++) {
        j = lj[i]
        if (j == nt) continue
        a = tt[j]; b = tt[j + 1]; t = tstart[j + 1]
        ka = slice_at(a, t); st = ka ? sname[a, ka] : "(none)"
        kb = tk[j + 1]
        ca = ka ? cpu_of(a, ka) : ""; cb = cpu_of(b, kb)
        where = ca == "" || cb == "" ? "CPU unknown" : (ca == cb ? "on its CPU" : "on the other CPU")
        end_kind[st " | " where]++
        if (st == "blocking") blk[++nb] = t - sts[a, ka]
        if (i < nl) { pairs++; if (tt[lj[i + 1]] == a) same++ }
    }
    print "  a long turn's end: the holder's state when the next thread started running, and where that one ran:"
    ne = 0
    for (k in end_kind) ek[++ne] = k
    isort(ek, ne)
    for (i = 1; i <= ne; i++) printf "    %-40s %6d\n", ek[i], end_kind[ek[i]]
    if (nb) printf "  the holder in its blocking slice for %.1f us (median) when the next thread started\n", median(blk, nb)
    if (pairs) printf "  the next long turn to the same thread: %d of %d (%.0f%%)\n", same, pairs, 100 * same / pairs
    # how evenly the workers advanced
    s = 0; s2 = 0
    for (i = 1; i <= nw; i++) { x = early[w[i]] + 0; s += x; s2 += x * x }
    m = s / nw; v = s2 / nw - m * m; cv = m > 0 && v > 0 ? sqrt(v) / m : 0
    printf "  the workers' calls when the first ended (%.1f ms): mean %.0f, coefficient of variation %.3f; the last two alone for %.3f ms\n",
        first_end / 1000, m, cv, (run_end - tail_from) / 1000
}
