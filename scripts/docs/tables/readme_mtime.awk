# readme_mtime: README, mtime_loop (8 threads and 1 thread) and io_plus_cpu
# under eager on report_m4 (runs pol/mtime8/eager, mtime1, pol/io_50us/eager).
function render(   k, c, i, cs) {
    split("1 2 8", cs, " ")
    print "| `report_m4`, eager | 1 core | 2 cores | 8 cores | voluntary switches per call, 2 cores |"
    print "|---|---:|---:|---:|---:|"
    printf "| mtime_loop, 8 threads, 1M calls |"
    for (i = 1; i <= 3; i++) {
        k = "pol/mtime8/eager/" cs[i]
        printf " %.3f s%s |", s(k, "wall_s"), i == 1 ? "" : sprintf(" (%.2fx)", s(k, "wall_s") / s("pol/mtime8/eager/1", "wall_s"))
    }
    printf " %.2f |\n", sv("pol/mtime8/eager/2", "vol_switches/syscalls")
    printf "| mtime_loop, 1 thread, 1M calls |"
    for (i = 1; i <= 3; i++) printf " %.3f s |", s("mtime1/" cs[i], "wall_s")
    printf " %.2f |\n", sv("mtime1/2", "vol_switches/syscalls")
    printf "| io_plus_cpu: I/O calls per second (50 µs waits) beside a CPU-bound thread | %.1f | %.1f | | |\n",
        s("pol/io_50us/eager/1", "ops_per_s"), s("pol/io_50us/eager/2", "ops_per_s")
}
