# import_traces: README and docs/import.md, every real trace of
# tests/data/gvl-tracing against its replay (runs trace/* of
# docs/data/import-runs.txt, docs/data/import.csv): the total wall time and
# the total wants_gvl time, each within 20% of the trace's or not.
function im(id, col) { return value("import", "trace/" id, col) }
function pct(sim, tr) { return tr > 0 ? sprintf("%+.0f%%", 100 * (sim / tr - 1)) : "" }
function secs(x) { return x >= 1 ? fx(x, 3) " s" : x >= 0.001 ? fx(x * 1e3, 1) " ms" : fx(x * 1e6, 0) " µs" }
# within: the value and a mark when the deviation exceeds 20% (or, for a
# total under 1 ms, 0.2 ms: a wants_gvl of a few µs has no percentage)
function within(sim, tr,   d) {
    d = sim - tr; if (d < 0) d = -d
    if (tr >= 0.001 && d <= 0.2 * tr) return secs(sim) " (" pct(sim, tr) ")"
    if (tr < 0.001 && d < 0.0002) return secs(sim)
    return "**" secs(sim) " (" pct(sim, tr) ")**"
}
function render(   ids, n, i, id, w) {
    n = split("example1 example2 example3 example4 example5 gc thread_name_with_extension ping-pong-3_2 ping-pong-3_3 ping-pong-pr8331-3_3", ids, " ")
    w["example1"] = "a thread sleeping 50 ms in a loop; 3 threads computing fib(37), joined"
    w["example2"] = "fib(37) in a second thread and in main"
    w["example3"] = "fib(37) in a second Ractor and in main"
    w["example4"] = "2 named threads wait on a Queue, then compute fib(37)"
    w["example5"] = "as example1, traced with the block form"
    w["gc"] = "3 threads allocate 100,000 objects each"
    w["thread_name_with_extension"] = "a concurrent-ruby pool of 5 threads computes 40 fib(30)"
    w["ping-pong-3_2"] = "bug #19717: 3 workers share 1 resource (Mutex + ConditionVariable)"
    w["ping-pong-3_3"] = "the same, on a 3.3 development build"
    w["ping-pong-pr8331-3_3"] = "the same with PR 8331"
    print "| trace | workload | Ruby, GVL | threads | waits: io / sync / join / yield | wall: trace | replay | wants_gvl: trace | replay |"
    print "|---|---|---|---:|---|---:|---:|---:|---:|"
    for (i = 1; i <= n; i++) {
        id = ids[i]
        printf "| %s | %s | %s, `%s` | %d | %d / %d / %d / %d | %s | %s | %s | %s |\n", id, w[id], im(id, "trace_ruby"),
            im(id, "policy"), im(id, "trace_threads"), im(id, "trace_io"), im(id, "trace_sync"), im(id, "trace_join"),
            im(id, "trace_yield"), secs(im(id, "trace_wall_s")), within(im(id, "wall_s"), im(id, "trace_wall_s")),
            secs(im(id, "trace_wants_gvl_s")), within(im(id, "wants_gvl_s"), im(id, "trace_wants_gvl_s"))
    }
}
