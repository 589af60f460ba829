# lang_pool: docs/lang.md, bug #19717's resource pool
# (scenarios/examples/resource_pool.json, runs lang_pool/*,
# docs/data/lang_pool.csv) beside the traces of the same reproducer that the
# gvl-tracing gem publishes (examples/ping-pong-3_2, -3_3, -pr8331-3_3):
# per trace the worker that got the resource, the two that raised their
# PoolTimeoutError at 1.00 s, and the trace's span.
function render(   p, i, k) {
    print "| run | acquisitions | timed out | wall | GVL hand-offs | futex wakes |"
    print "|---|---:|---:|---:|---:|---:|"
    print "| real Ruby 3.2 (gvl-tracing's trace) | 1000 | 2 | 1.129 s | | |"
    print "| real Ruby 3.3 (gvl-tracing's trace) | 1000 | 2 | 1.288 s | | |"
    print "| real Ruby 3.3 with PR 8331 (gvl-tracing's trace) | 3000 | 0 | 4.018 s | | |"
    split("barging eager hot_steal delayed", p, " ")
    for (i = 1; i <= 4; i++) {
        k = "lang_pool/" p[i]
        printf "| gvlsim, `%s` | %d | %d | %.3f s | %s | %s |\n", p[i], value("lang_pool", k, "acquire_count"),
            value("lang_pool", k, "timeouts"), value("lang_pool", k, "wall_s"), comma(value("lang_pool", k, "gvl_handoffs")),
            comma(value("lang_pool", k, "wakeups"))
    }
}
