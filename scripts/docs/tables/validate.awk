# validate [HOST]: README, the fidelity targets, one section per measured
# host (every directory docs/data/validate/hosts/HOST; ARGS names one to
# render that one only): the simulator with the profile `gvlsim calibrate`
# wrote on that host (HOST/host.json) against real Ruby 3.1.2 and the
# executor measured there (HOST/NAME.csv, the tables of `gvlsim validate
# --measured` that scripts/docs/validate.sh writes).  Each section: the host
# and the conditions of its measurement (HOST/host.txt, written by
# scripts/validate_results.sh), the issue's 43 figures with their own
# count, then the targets on Rubies built from source (a fifth field
# `ruby=VERSION` in docs/data/validate/targets.txt) measured on that host,
# with their own count and when and on what each was measured.  Targets:
# the 2-core / 1-core ratio within 25% of the measured median, voluntary
# switches per op within 30%; an error beyond its target is bold.  Hosts
# in the order of their measurement (the first time_ line of host.txt).

# ---- the hosts (lib.awk: vhosts) --------------------------------------------
# info(hd, key): the line key= of the host's host.txt, "" if it has none
function info(hd, key,   i, h) {
    h = hd "/host"
    for (i = 1; i <= NLINE[h]; i++) if (index(LINE[h, i], key "=") == 1) return substr(LINE[h, i], length(key) + 2)
    return ""
}

# ---- the host line -----------------------------------------------------------
function host_line(host,   hd, h, i, l, v, lo, hi, n, cpus, busy, qi, idle) {
    hd = "validate/hosts/" host
    h = hd "/host"
    cpus = param(h, "cpus") + 0
    for (i = 1; i <= NLINE[h]; i++) {
        l = LINE[h, i]
        if (l !~ /^load_/) continue
        sub(/^[^=]*=/, "", l)
        split(l, v, ",")  # idle %, load before, load after
        if (!n++) { lo = hi = v[2] + 0; idle = v[1] + 0 }
        if (v[1] + 0 < idle) idle = v[1] + 0
        if (v[2] + 0 < lo) lo = v[2] + 0
        if (v[3] + 0 < lo) lo = v[3] + 0
        if (v[2] + 0 > hi) hi = v[2] + 0
        if (v[3] + 0 > hi) hi = v[3] + 0
    }
    if (!n) die("docs/data/" h ": no load_ lines")
    if (param(h, "quick") == 1)
        printf "**A QUICK=1 check run (a quick calibration, 1 run): it checks the script, not the machine; do not read its numbers.** "
    # loaded: some target's runs began on CPUs less than quiet_idle idle
    # (validate_results.sh measures the idle share just before each target).
    # Not the load average, which holds the runs' own load: a 2-core run
    # alone keeps it near 2 on a 2-CPU host.
    qi = param(h, "quiet_idle"); if (qi == "") qi = 90
    busy = idle < qi + 0
    if (busy)
        printf "**Measured while other jobs loaded the host (CPUs %d%% idle before a target's runs, below the %d%% of a quiet host): the measured columns are the other jobs' as much as the scenarios'; on a busy host a \"2 cores\" run is mostly a one-core run.** ", idle, qi
    printf "Host: %s CPUs (%s), kernel %s; %s; gvlsim %s; measured %s; %s runs of each real backend per configuration, interleaved; the CPUs at least %d%% idle when each target's runs began, 1-minute load average %.2f–%.2f. ",
        cpus, param(h, "cpu"), param(h, "kernel"), param(h, "ruby"), param(h, "commit"), param(h, "date"), param(h, "runs"), idle, lo, hi
    printf "The simulator runs with the profile `gvlsim calibrate` wrote on that host (`docs/data/%s/host.json`).", hd
    line_probe(h)
    printf "\n"
}

# line_probe(h): the cross-CPU cache probe of each target's runs (line_NAME=
# of host.txt, scripts/validate_results.sh), when the host has them
function line_probe(h,   i, l, v, n, lo, hi, pr) {
    for (i = 1; i <= NLINE[h]; i++) {
        l = LINE[h, i]
        if (l !~ /^line_/) continue
        v = l; sub(/^[^=]*=/, "", v); v += 0
        if (!n++) lo = hi = v
        if (v < lo) lo = v
        if (v > hi) hi = v
        if (l ~ /^line_proc2=/) pr = v
    }
    if (!n) return
    printf " Before each target's runs, a locked add on a cache line the other CPU wrote cost %.0f–%.0f ns (`scripts/line_load_then_add.c`)", lo, hi
    if (pr != "") printf ", %.0f ns before proc_heavy's", pr
    printf ": the vCPUs share a cache when it is low."
}

# ---- the issue's 43 figures --------------------------------------------------
function line(hd, name, label, backend, engine, policy,   ds) {
    ds = hd "/" name
    if (!(ds in HAVE)) {
        printf "| %s | %s | not measured on this host | - | - |\n", label, engine
        return
    }
    if (vrow(ds, "cores_ratio", backend, 2, policy) == "")
        die("docs/data/" ds ": no cores_ratio row of " backend (policy != "" ? ", " policy : "") " on 2 cores")
    VLABEL = label " (" engine ")"
    printf "| %s | %s | %s | %s | %s |\n", label, engine,
        vcell(ds, "cores_ratio", backend, 2, policy, 0.25, "x"),
        vcell(ds, "vol_switches_per_op", backend, 1, policy, 0.30, ""),
        vcell(ds, "vol_switches_per_op", backend, 2, policy, 0.30, "")
}
# engine_of(hd): what ran as the Ruby of the issue's targets ("ruby 3.1.2")
function engine_of(hd,   n, i, t, ds, r) {
    n = split("pingpong mtime2 mtime8 proc2 tarai2", t, " ")
    for (i = 1; i <= n; i++) {
        ds = hd "/" t[i]
        if (!(ds in HAVE)) continue
        r = vrow(ds, "cores_ratio", "ruby", 2, "")
        if (r == "") die("docs/data/" ds ": no cores_ratio row of ruby")
        return vcol(ds, r, "engine")
    }
    return "ruby"
}
function fidelity(host,   hd, rb, pol, i, n) {
    hd = "validate/hosts/" host
    rb = engine_of(hd)
    NT = NHIT = NMIX = NEDGE = 0; EDGES = ""
    print "| target (sizes: below) | measured on | 2 cores / 1 core: simulated / measured (error) | voluntary switches per op, 1 core | the same, 2 cores |"
    print "|---|---|---:|---:|---:|"
    line(hd, "pingpong", "queue_pingpong", "ruby", rb, "")
    line(hd, "mtime2", "mtime_loop, 2 threads", "ruby", rb, "")
    line(hd, "mtime8", "mtime_loop, 8 threads", "ruby", rb, "")
    line(hd, "proc2", "proc_heavy, 2 Ractors (time per op)", "ruby", rb, "")
    line(hd, "tarai2", "tarai_ractors, 2 Ractors", "ruby", rb, "")
    n = split("eager hot_steal delayed threshold", pol, " ")
    for (i = 1; i <= n; i++) line(hd, "pingpong_policies", "queue_pingpong", "pthread", "executor, " pol[i], pol[i])
    line(hd, "pingpong", "queue_pingpong", "pthread", "executor, barging", "")
    for (i = 1; i <= n; i++) line(hd, "mtime2_policies", "mtime_loop, 2 threads", "pthread", "executor, " pol[i], pol[i])
    line(hd, "mtime2", "mtime_loop, 2 threads", "pthread", "executor, barging", "")
    printf "\n%d of %d figures within their target (ratio 25%%, switches per op 30%%).%s\n", NHIT, NT, mixed()
    printf "%s", vedges()
}
# mixed(): the note on the figures whose seeds disagree (NMIX), "" if none
function mixed() {
    if (!NMIX) return ""
    return sprintf(" The simulated values are medians over %d seeds; on %d figure%s (†) some seeds are within the target and some beyond it.",
        SEEDS, NMIX, NMIX == 1 ? "" : "s")
}

# ---- the targets on Rubies built from source ---------------------------------
# label(name): the scenario a target's name stands for
function label(name,   p) {
    p = name; sub(/_.*/, "", p)
    if (p == "pingpong") return "queue_pingpong"
    if (p ~ /^mtime[0-9]+$/) return "mtime_loop, " substr(p, 6) " threads"
    return p
}
# ruby_policy(ds): the policy the Ruby of the target's runs has (the rows'
# policy column), "" if none
function ruby_policy(ds,   i, k, n) {
    ds = ds ".rows"
    if (!(ds in HAVE)) return ""
    for (i = 1; i <= NKEY[ds]; i++) {
        k = KEY[ds, i]
        for (n = 1; n <= CNT[ds, k]; n++)
            if (field(ds, k, "backend", n) == "ruby") return field(ds, k, "policy", n)
    }
    return ""
}
function hline(ds, name, backend, what) {
    VLABEL = label(name) " (" what ")"
    printf "| %s | %s | %s | %s | %s |\n", label(name), what,
        vcell(ds, "cores_ratio", backend, 2, "", 0.25, "x"),
        vcell(ds, "vol_switches_per_op", backend, 1, "", 0.30, ""),
        vcell(ds, "vol_switches_per_op", backend, 2, "", 0.30, "")
}
# when(t): "START,END" (ISO 8601, UTC) as "DATE HH:MM:SS-HH:MM:SS UTC"
function when(t,   a) {
    if (split(t, a, ",") != 2) return "(time not recorded)"
    return substr(a[1], 1, 10) " " substr(a[1], 12, 8) "–" substr(a[2], 12, 8) " UTC"
}
# ranges(hd): whether the host's targets on Debian's Ruby and the executor
# have ranges over the IQRs (scripts/docs/validate.sh gives them to the
# host measured last)
function ranges(hd,   i, l, f, name) {
    for (i = 1; i <= NLINE["validate/targets"]; i++) {
        l = LINE["validate/targets", i]
        if (l ~ /^#/ || split(l, f, "|") < 4 || f[5] ~ /ruby=/) continue
        name = f[1]; gsub(/ /, "", name)
        if ((hd "/" name, "range_min") in COL) return 1
    }
    return 0
}
function built(host,   hd, i, l, f, n, m, name, ver, ds, r, pol, rh, rt, eh, et, t, ld, w, notes, h, cpus, busy, nbusy, rg, b, qi, missing) {
    hd = "validate/hosts/" host
    if (!("validate/targets" in HAVE)) die("no dataset docs/data/validate/targets")
    for (i = 1; i <= NLINE["validate/targets"]; i++) {
        l = LINE["validate/targets", i]
        if (l ~ /^#/ || split(l, f, "|") < 5 || f[5] !~ /ruby=/) continue
        name = f[1]; gsub(/ /, "", name)
        ver = f[5]; gsub(/ /, "", ver); sub(/^ruby=/, "", ver)
        ds = hd "/" name
        n++
        if (!(ds in HAVE)) {
            missing = missing (missing != "" ? ", " : "") name " (ruby " ver ")"
            continue
        }
        if (!m++) {
            NMIX = NEDGE = 0; EDGES = ""
            print ""
            print "On Rubies built from source (the policy each has), each against the executor of the same interleaved runs:"
            print ""
            print "| target (sizes: below) | measured on | 2 cores / 1 core: simulated / measured (error) | voluntary switches per op, 1 core | the same, 2 cores |"
            print "|---|---|---:|---:|---:|"
        }
        r = vrow(ds, "cores_ratio", "ruby", 2, "")
        if (r == "") die("docs/data/" ds ": no cores_ratio row of ruby")
        pol = ruby_policy(ds)
        NT = NHIT = 0
        hline(ds, name, "ruby", vcol(ds, r, "engine") " (built from source)" (pol != "" ? ", " pol : ""))
        rt += NT; rh += NHIT
        NT = NHIT = 0
        hline(ds, name, "pthread", "executor" (pol != "" ? ", " pol : "") ", the same runs")
        et += NT; eh += NHIT
        t = info(hd, "time_" name); ld = info(hd, "load_" name)
        split(ld, w, ",")
        h = info(hd, "host_" name)
        cpus = h ~ / CPUs/ ? h : ""; sub(/ CPUs.*/, "", cpus); sub(/.*, /, "", cpus)
        # loaded: the host was not idle when the runs began (validate_results.sh
        # measures the CPUs' idle share just before: below quiet_idle, a 2-core
        # run does not get its second CPU).  Not the 1-minute load average: it
        # holds the previous target's runs a minute after they end, and the
        # runs' own load (near 2 for a 2-core run).
        qi = info(hd, "quiet_idle"); if (qi == "") qi = 90
        busy = ld != "" && w[1] + 0 < qi + 0
        notes = notes sprintf("- %s%s: %s; %s; measured %s%s.\n", busy ? "**loaded host** " : "", name,
            info(hd, "ruby_" name) != "" ? "`" info(hd, "ruby_" name) "`" : "ruby " ver, h != "" ? h : "host not recorded", when(t),
            ld != "" ? sprintf(", 1-minute load average %s before, %s after", w[2], w[3]) : "")
        nbusy += busy
        # the 2-core runs of a backend fell into two regimes (a 2-core run that kept one
        # CPU is several times faster than one that used two): the median is one of them
        split("", rg)
        for (b = 1; b <= 2; b++) {
            r = vrow(ds, "wall_s", b == 1 ? "ruby" : "pthread", 2, "")
            if (r != "" && vcol(ds, r, "measured_min") + 0 > 0 &&
                vcol(ds, r, "measured_max") / vcol(ds, r, "measured_min") > 3)
                rg[b] = sprintf("%s %.2f-%.2f s", b == 1 ? "Ruby" : "the executor", vcol(ds, r, "measured_min"), vcol(ds, r, "measured_max"))
        }
        if ((1 in rg) || (2 in rg)) {
            notes = notes sprintf("  **Two regimes:** its 2-core runs took %s%s%s: some used both CPUs and some stayed on one; the medians above are %s.\n",
                (1 in rg) ? rg[1] : "", (1 in rg) && (2 in rg) ? ", " : "", (2 in rg) ? rg[2] : "", "those of the majority")
        }
    }
    if (m) {
        printf "\nOn the Rubies built from source, beyond the issue's 43 figures: %d of %d within their target; the executor in the same runs: %d of %d (ratio 25%%, switches per op 30%%).%s\n", rh, rt, eh, et, mixed()
        printf "%s", vedges()
        if (ranges(hd))
            printf "\nThese figures have no ranges over the IQRs (‡): the docs compute them for the issue's targets only (docs/validate.md, \"Only the host measured last, only the issue's targets\").\n"
        if (notes != "") printf "\n%s", notes
        if (nbusy)
            printf "\nA target marked **loaded host** was measured while other jobs loaded the host (its CPUs less than `quiet_idle` idle just before the runs): its \"2 cores\" runs were mostly one-core runs (a woken thread finds no idle CPU and stays on its waker's), so its ratio and 2-core switches say little; measure it again on a quiet host.\n"
    }
    if (missing != "")
        printf "\nNot measured on this host yet, on Rubies built from source: %s.\n", missing
}

function render(   h, n, i) {
    n = vhosts(h, ARGS)
    if (!n) die(ARGS != "" ? "no host docs/data/validate/hosts/" ARGS : "no host directory under docs/data/validate/hosts")
    for (i = 1; i <= n; i++) {
        if (i > 1) print ""
        printf "#### `%s`: %s, %s CPUs\n\n", h[i], param("validate/hosts/" h[i] "/host", "cpu"), param("validate/hosts/" h[i] "/host", "cpus")
        host_line(h[i])
        print ""
        fidelity(h[i])
        built(h[i])
    }
}
