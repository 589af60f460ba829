# readme_pingpong: README, bug #21685's queue ping-pong, the report beside
# the model (runs pol/pingpong/eager/1|2).  The report's figures are
# jpl-coconut's, from the bug's description (Apple M4, Linux, taskset).
function render(   a, b) {
    a = "pol/pingpong/eager/1"; b = "pol/pingpong/eager/2"
    print "| queue_pingpong, eager, `report_m4` | the report: wall | gvlsim: wall | the report: `voluntary_ctxt_switches` | gvlsim: `main_vol_switches` | gvlsim: `vol_switches` (all threads) |"
    print "|---|---:|---:|---:|---:|---:|"
    printf "| 1 core | 3.619 s | %.3f s | 1,140,773 | %s | %s |\n", s(a, "wall_s"), comma(s(a, "main_vol_switches")), comma(s(a, "vol_switches"))
    printf "| 2 cores | 36.223 s | %.3f s | 1,400,110 | %s | %s |\n", s(b, "wall_s"), comma(s(b, "main_vol_switches")), comma(s(b, "vol_switches"))
    printf "| 2 cores / 1 core | %.2fx | %.2fx | | | |\n", 36.223 / 3.619, s(b, "wall_s") / s(a, "wall_s")
}
