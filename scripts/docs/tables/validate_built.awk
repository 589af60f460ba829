# validate_built: README, the fidelity figures measured on Rubies built from
# source (scripts/build_ruby.sh): the targets of docs/data/validate/targets.txt
# whose fifth field is `ruby=VERSION`, each against that Ruby and against the
# executor of the same interleaved runs (docs/data/validate/NAME.csv), with
# their own count, apart from the issue's 43 figures (tables/validate.awk);
# then when and on what each was measured (docs/data/validate/host.txt:
# ruby_NAME, host_NAME, time_NAME, load_NAME).  Targets as in validate.awk: the 2-core /
# 1-core ratio within 25%, voluntary switches per op within 30%.

# label(name): the scenario a target's name stands for
function label(name,   p) {
    p = name; sub(/_.*/, "", p)
    if (p == "pingpong") return "queue_pingpong"
    if (p ~ /^mtime[0-9]+$/) return "mtime_loop, " substr(p, 6) " threads"
    return p
}
# ruby_policy(name): the policy the Ruby of the target's runs has (the rows'
# policy column), "" if none
function ruby_policy(name,   ds, i, k, n) {
    ds = "validate/" name ".rows"
    if (!(ds in HAVE)) return ""
    for (i = 1; i <= NKEY[ds]; i++) {
        k = KEY[ds, i]
        for (n = 1; n <= CNT[ds, k]; n++)
            if (field(ds, k, "backend", n) == "ruby") return field(ds, k, "policy", n)
    }
    return ""
}
function hline(name, backend, what,   ds) {
    ds = "validate/" name
    printf "| %s | %s | %s | %s | %s |\n", label(name), what,
        vcell(ds, "cores_ratio", backend, 2, "", 0.25, "x"),
        vcell(ds, "vol_switches_per_op", backend, 1, "", 0.30, ""),
        vcell(ds, "vol_switches_per_op", backend, 2, "", 0.30, "")
}
# info(key): the line key= of host.txt, "" if it has none
function info(key,   i, h) {
    h = "validate/host"
    for (i = 1; i <= NLINE[h]; i++) if (index(LINE[h, i], key "=") == 1) return substr(LINE[h, i], length(key) + 2)
    return ""
}
# when(t): "START,END" (ISO 8601, UTC) as "DATE HH:MM:SS-HH:MM:SS UTC"
function when(t,   a) {
    if (split(t, a, ",") != 2) return "(time not recorded)"
    return substr(a[1], 1, 10) " " substr(a[1], 12, 8) "–" substr(a[2], 12, 8) " UTC"
}
function render(   i, l, f, n, name, ver, ds, r, pol, rh, rt, eh, et, t, ld, w, notes, h, cpus, busy, nbusy, rg, b) {
    print "| target (sizes: above) | measured on | 2 cores / 1 core: simulated / measured (error) | voluntary switches per op, 1 core | the same, 2 cores |"
    print "|---|---|---:|---:|---:|"
    if (!("validate/targets" in HAVE)) die("no dataset docs/data/validate/targets")
    for (i = 1; i <= NLINE["validate/targets"]; i++) {
        l = LINE["validate/targets", i]
        if (l ~ /^#/ || split(l, f, "|") < 5 || f[5] !~ /ruby=/) continue
        name = f[1]; gsub(/ /, "", name)
        ver = f[5]; gsub(/ /, "", ver); sub(/^ruby=/, "", ver)
        ds = "validate/" name
        n++
        if (!(ds in HAVE)) {
            printf "| %s | ruby %s (built from source) | not measured | - | - |\n", label(name), ver
            continue
        }
        r = vrow(ds, "cores_ratio", "ruby", 2, "")
        if (r == "") die("docs/data/" ds ": no cores_ratio row of ruby")
        pol = ruby_policy(name)
        NT = NHIT = 0
        hline(name, "ruby", vcol(ds, r, "engine") " (built from source)" (pol != "" ? ", " pol : ""))
        rt += NT; rh += NHIT
        NT = NHIT = 0
        hline(name, "pthread", "executor" (pol != "" ? ", " pol : "") ", the same runs")
        et += NT; eh += NHIT
        t = info("time_" name); ld = info("load_" name)
        split(ld, w, ",")
        h = info("host_" name)
        cpus = h ~ / CPUs/ ? h : ""; sub(/ CPUs.*/, "", cpus); sub(/.*, /, "", cpus)
        # loaded: the host was not idle when the runs began (validate_results.sh
        # measures the CPUs' idle share just before: below quiet_idle, a 2-core
        # run does not get its second CPU), or the load passed the CPUs during
        # them.  Not the 1-minute load before: it still holds the previous
        # target's own runs a minute after they end.
        qi = info("quiet_idle"); if (qi == "") qi = 90
        busy = ld != "" && cpus + 0 > 0 && (w[1] + 0 < qi + 0 || w[3] + 0 > cpus + 0)
        notes = notes sprintf("- %s%s: %s; %s; measured %s%s.\n", busy ? "**loaded host** " : "", name,
            info("ruby_" name) != "" ? "`" info("ruby_" name) "`" : "ruby " ver, h != "" ? h : "host not recorded", when(t),
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
    if (!n) die("docs/data/validate/targets.txt: no target with ruby=VERSION")
    printf "\nBeyond the issue's 43 figures: %d of %d within their target against the Rubies built from source; the executor in the same runs: %d of %d (ratio 25%%, switches per op 30%%).\n", rh, rt, eh, et
    if (notes != "") printf "\n%s", notes
    if (nbusy)
        printf "\nA target marked **loaded host** was measured while other jobs loaded the host (its CPUs less than `quiet_idle` idle just before the runs, or a 1-minute load average above its CPUs after them): its \"2 cores\" runs were mostly one-core runs (a woken thread finds no idle CPU and stays on its waker's), so its ratio and 2-core switches say little; measure it again on a quiet host.\n"
}
