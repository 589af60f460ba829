# lang_load: README, scenarios/puma_like.json driven at increasing arrival
# rates, with and without its background thread (eager, 100 ms quantum;
# runs lang/puma_load/*, lang/puma_load_alone/*, docs/data/lang.csv).
function ms(x) { return fx(1000 * x, x < 0.01 ? 2 : x < 0.1 ? 1 : 0) " ms" }
function render(   r, i, a, b) {
    print "| arrivals/s | served/s | p50 | p99 | served/s, no background thread | p99, no background thread |"
    print "|---:|---:|---:|---:|---:|---:|"
    split("10 25 40 45 50 55", r, " ")
    for (i = 1; i <= 6; i++) {
        a = "lang/puma_load/" r[i]; b = "lang/puma_load_alone/" r[i]
        printf "| %s | %s | %s | %s | %s | %s |\n", r[i], fx(value("lang", a, "request_per_s"), 1),
            ms(value("lang", a, "request_p50_s")), ms(value("lang", a, "request_p99_s")),
            fx(value("lang", b, "request_per_s"), 1), ms(value("lang", b, "request_p99_s"))
    }
}
