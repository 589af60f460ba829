# lang_puma: README, scenarios/puma_like.json's request latency under every
# GVL policy and two quanta, beside the same server without its background
# thread (runs lang/puma/*, docs/data/lang.csv).
function ms(x) { return fx(1000 * x, x < 0.01 ? 2 : x < 0.1 ? 1 : 0) " ms" }
function row(label, k,   st, n, i, tot) {
    n = split("running_s wants_gvl_s blocking_s parked_s sleeping_s barrier_init_s barrier_join_s vmlock_wait_s wants_snt_s gc_s", st, " ")
    for (i = 1; i <= n; i++) tot += value("lang", k, st[i])
    printf "| %s | %s | %s | %s | %s | %s | %.0f%% | %.2f |\n", label, fx(value("lang", k, "request_per_s"), 1),
        ms(value("lang", k, "request_p50_s")), ms(value("lang", k, "request_p90_s")), ms(value("lang", k, "request_p99_s")),
        ms(value("lang", k, "request_max_s")), 100 * value("lang", k, "wants_gvl_s") / tot,
        value("lang", k, "gvl_handoffs") / value("lang", k, "request_count")
}
function render(   q, p, j, i) {
    print "| configuration | requests/s | p50 | p90 | p99 | max | `wants_gvl` share | GVL hand-offs per request |"
    print "|---|---:|---:|---:|---:|---:|---:|---:|"
    row("no background thread", "lang/puma/alone/100ms")
    split("100ms 10ms", q, " ")
    split("eager hot_steal delayed barging", p, " ")
    for (j = 1; j <= 2; j++)
        for (i = 1; i <= 4; i++) row("`" p[i] "`, quantum " (j == 1 ? "100 ms" : "10 ms"), "lang/puma/" p[i] "/" q[j])
}
