# import_detail ID: docs/import.md, one trace against its replay (run
# trace/ID of docs/data/import-runs.txt): time per state summed over the
# threads, the trace's GVL hand-offs and the replay's.
function im(col) { return value("import", "trace/" arg(1), col) }
function ms(x) { return fx(x * 1e3, 3) }
function render(   wt, wr) {
    print "| " arg(1) " (Ruby " im("trace_ruby") ", `" im("policy") "`) | trace | replay |"
    print "|---|---:|---:|"
    printf "| wall | %s ms | %s ms |\n", ms(im("trace_wall_s")), ms(im("wall_s"))
    printf "| running | %s ms | %s ms |\n", ms(im("trace_running_s")), ms(im("running_s"))
    printf "| gc | %s ms | %s ms |\n", ms(im("trace_gc_s")), ms(im("gc_s"))
    printf "| wants_gvl | %s ms | %s ms |\n", ms(im("trace_wants_gvl_s")), ms(im("wants_gvl_s"))
    printf "| waiting (replay: blocking + parked) | %s ms | %s ms |\n", ms(im("trace_waiting_s")), ms(im("blocking_s") + im("parked_s"))
    printf "| sleeping | %s ms | %s ms |\n", ms(im("trace_sleeping_s")), ms(im("sleeping_s"))
    printf "| waits: io / sync / join / yield / thread exits / open at the end | %d / %d / %d / %d / %d / %d | |\n",
        im("trace_io"), im("trace_sync"), im("trace_join"), im("trace_yield"), im("trace_exit"), im("trace_end")
    printf "| GVL hand-offs (trace: median from a release to the next thread running) | %s (%s µs) | %s |\n",
        comma(im("trace_handoffs")), fx(im("trace_handoff_s") * 1e6, 1), comma(im("gvl_handoffs"))
    printf "| uncontended acquisitions (trace: median wants_gvl with the GVL free) | %s (%s µs) | |\n",
        comma(im("trace_acquires")), fx(im("trace_acquire_s") * 1e6, 1)
}
