# convoy.awk - how a loop of threads that release the GVL for a system call
# (the File.mtime loop) takes it back, from a timeline that `gvlsim run
# --trace` or `gvlsim exec --trace` wrote (Chrome trace-event JSON, one
# event a line; docs/validate.md, "The wake in the levels"):
#
#   awk -f scripts/convoy.awk TRACE.json      (zcat TRACE.json.gz | awk -f ...)
#
# The threads are the trace's threads but "main" and the timer thread.  A
# call is a `blocking` state (the system call, and the wake its thread owed
# before it); its wait is the `wants_gvl` state right after it (none when
# the thread runs at once: a wait of 0 has no event).  A wait of 10 us or
# more is the convoy (the thread slept and was woken on its idle CPU), one
# of 5-10 us "mid", of 0.5-5 us "short" (handed the GVL on its way into the
# sleep), shorter "free" (the GVL was free).  The calls out of the convoy
# come in runs (an escape and the calls after it until the next convoy
# wait): their number and length.
#
# With two threads, the race that keeps the convoy: when thread X releases
# the GVL to Y asleep (Y's wait before it runs >= 5 us), a = X's blocking
# after the release (its wake of Y, then its system call) and b = the time
# from the release to the end of Y's run (Y's wake latency, then its Ruby
# work).  X sleeps again (the convoy goes on) when a < b; "escape" is the
# share with b < a.  "wake" is the release -> Y running.  And the
# collisions: a wait for the GVL begun while the other thread runs, by d,
# the time from the wait's start to the end of that run, and the share of
# them that slept (waited 5 us or more).  Quantiles are taken to 10 ns.

function q_add(name, v,    k) {
    k = int(v * 100 + 0.5)
    if (k > 10000000) k = 10000000
    cnt[name, k]++
    if (!((name) in qn) || k < qmin[name]) qmin[name] = k
    if (!((name) in qn) || k > qmax[name]) qmax[name] = k
    qn[name]++
}
function q_at(name, p,    want, seen, k) {
    if (!((name) in qn)) return 0
    want = int(p * qn[name])
    seen = 0
    for (k = qmin[name]; k <= qmax[name]; k++) {
        seen += cnt[name, k]
        if (seen > want) return k / 100
    }
    return qmax[name] / 100
}
function field(line, key,    s) {
    if (!match(line, "\"" key "\":")) return ""
    s = substr(line, RSTART + RLENGTH)
    if (substr(s, 1, 1) == "\"") {
        s = substr(s, 2)
        return substr(s, 1, index(s, "\"") - 1)
    }
    match(s, /^[-0-9.eE+]+/)
    return substr(s, 1, RLENGTH)
}

/"name":"thread_name"/ {
    nm = $0
    sub(/.*"args":\{"name":"/, "", nm)
    sub(/".*/, "", nm)
    tname[field($0, "tid")] = nm
    next
}
/"ph":"X"/ && /"cat":"thread"/ {
    t = field($0, "tid")
    if (tname[t] == "main" || tname[t] ~ /timer/) next
    if (!(t in n)) { n[t] = 0; tids[++nt] = t }
    k = ++n[t]
    st[t, k] = field($0, "name")
    ts[t, k] = field($0, "ts") + 0
    du[t, k] = field($0, "dur") + 0
    if (k > 1 && ts[t, k] < ts[t, k - 1]) { bad = "thread " tname[t] "'s states not in time order"; exit 1 }
}

END {
    if (bad != "") { print "convoy.awk: " bad > "/dev/stderr"; exit 1 }
    if (nt == 0) { print "convoy.awk: no thread states in the trace (run with --trace)" > "/dev/stderr"; exit 1 }
    calls = 0
    for (i = 1; i <= nt; i++) {
        t = tids[i]
        run = 0
        for (k = 1; k <= n[t]; k++) {
            if (st[t, k] != "blocking") continue
            w = (k < n[t] && st[t, k + 1] == "wants_gvl") ? du[t, k + 1] : 0
            c = w >= 10 ? "convoy" : w >= 5 ? "mid" : w > 0.5 ? "short" : "free"
            cls[c]++
            calls++
            if (c == "convoy") {
                if (run) { q_add("out", run); runs++; out += run }
                run = 0
            } else run++
        }
        if (run) { q_add("out", run); runs++; out += run }
    }
    if (calls == 0) { print "convoy.awk: no calls (no blocking state)" > "/dev/stderr"; exit 1 }
    printf "calls %d: convoy %d, mid %d, short %d, free %d\n", calls, cls["convoy"], cls["mid"], cls["short"], cls["free"]
    printf "out of the convoy: %.3f of the calls, in %d runs (%.4f a call): mean %.1f calls, median %d, p90 %d, longest %d\n",
        out / calls, runs, runs / calls, runs ? out / runs : 0, q_at("out", 0.5), q_at("out", 0.9), runs ? qmax["out"] / 100 : 0
    if (nt != 2) { printf "race: %d threads (two needed)\n", nt; exit 0 }
    for (i = 1; i <= 2; i++) {
        x = tids[i]; y = tids[3 - i]
        j = 1
        for (k = 1; k < n[x]; k++) {
            if (st[x, k] != "running" || st[x, k + 1] != "blocking") continue
            rel = ts[x, k] + du[x, k]
            while (j <= n[y] && !(st[y, j] == "running" && ts[y, j] >= rel - 0.0005)) j++
            if (j > n[y]) break
            if (ts[y, j] - rel > 40 || j == 1 || st[y, j - 1] != "wants_gvl" || du[y, j - 1] < 5) continue
            a = du[x, k + 1]
            b = ts[y, j] + du[y, j] - rel
            q_add("a", a); q_add("b", b); q_add("wake", ts[y, j] - rel); q_add("m", b - a + 1000)
            hand++
            if (b < a) esc++
        }
    }
    # the collisions: a wait for the GVL that begins while the other thread
    # runs; d = the end of that run - the wait's start, slept = the wait
    # lasted 5 us or more (docs/validate.md, "The wake's drift is not its
    # spread": how soon a release must come for the waiter not to sleep)
    for (i = 1; i <= 2; i++) {
        x = tids[i]; y = tids[3 - i]
        j = 1
        for (k = 1; k <= n[x]; k++) {
            if (st[x, k] != "wants_gvl") continue
            t0 = ts[x, k]
            while (j <= n[y] && ts[y, j] + du[y, j] <= t0) j++
            if (j > n[y]) break
            if (st[y, j] != "running" || ts[y, j] > t0) continue
            d = ts[y, j] + du[y, j] - t0
            bin = int(d / 0.25); if (bin > 4) bin = 4
            coll[bin]++; ncoll++
            if (du[x, k] >= 5) { cslept[bin]++; nslept++ }
        }
    }
    printf "collisions %d (a wait begun while the other runs), slept %d (5 us or more)\n", ncoll, nslept
    for (bin = 0; bin <= 4; bin++)
        if (coll[bin]) printf "  d %s: %d, slept %.2f\n", bin < 4 ? sprintf("%.2f-%.2f us", bin * 0.25, bin * 0.25 + 0.25) : "1 us or more",
            coll[bin], cslept[bin] / coll[bin]
    if (!hand) { print "race: no hand-off to a sleeper"; exit 0 }
    printf "race: %d hand-offs to a sleeper; escape %.4f\n", hand, esc / hand
    printf "  a (release -> the releaser wants the GVL)  p10 %.2f  p50 %.2f  p90 %.2f us\n", q_at("a", .1), q_at("a", .5), q_at("a", .9)
    printf "  b (release -> the successor's release)     p10 %.2f  p50 %.2f  p90 %.2f us\n", q_at("b", .1), q_at("b", .5), q_at("b", .9)
    printf "  b - a                                      p10 %.2f  p50 %.2f  p90 %.2f us\n", q_at("m", .1) - 1000, q_at("m", .5) - 1000, q_at("m", .9) - 1000
    printf "  wake (release -> the successor runs)       p10 %.2f  p50 %.2f  p90 %.2f us\n", q_at("wake", .1), q_at("wake", .5), q_at("wake", .9)
}
