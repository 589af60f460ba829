# pp_machines: README and docs/policies.md, the queue ping-pong under eager
# on report_m4 and linux_desktop, each beside the measurement it was
# derived from (runs pol/pingpong*/eager|delayed/CORES).
#
# "beyond the work": (wall - W) / GVL hand-offs, where W is the same
# profile's run under `delayed` on 1 core, which makes almost no hand-offs
# (the work alone, as the model does it).
function render() {
    print "| queue_pingpong, eager | measured: 1 CPU / all CPUs | gvlsim: 1 core | gvlsim: all cores | ratio (measured) | per hand-off beyond the work: 1 core / all cores | GVL hand-offs (all cores) | main-thread switches (all cores; measured) |"
    print "|---|---|---:|---:|---:|---:|---:|---:|"
    row("`report_m4`", "pol/pingpong", 2, "3.619 s / 36.223 s (the report, jpl-coconut, Apple M4)", 36.223 / 3.619, "1,400,110")
    row("`linux_desktop`", "pol/pingpong_desktop", 20, "7.874 s / 8.919 s (ko1, i7-13700H)", 8.919 / 7.874, "1,399,816")
}
function row(name, r, c, measured, mratio, mswitches,   w1, wc, work) {
    w1 = s(r "/eager/1", "wall_s"); wc = s(r "/eager/" c, "wall_s"); work = s(r "/delayed/1", "wall_s")
    printf "| %s | %s | %.3f s | %.3f s (%d cores) | %.2fx (%.2fx) | %.2f µs / %.2f µs | %s | %s (%s) |\n", name, measured, w1, wc, c,
        wc / w1, mratio, 1e6 * (w1 - work) / s(r "/eager/1", "gvl_handoffs"), 1e6 * (wc - work) / s(r "/eager/" c, "gvl_handoffs"),
        comma(s(r "/eager/" c, "gvl_handoffs")), comma(s(r "/eager/" c, "main_vol_switches")), mswitches
}
