# readme_policies: README, the seed scenarios under every GVL policy on
# report_m4 (runs pol/*).
function render(   p, np, j) {
    np = policies(p)
    printf "| `report_m4` |"; for (j = 1; j <= np; j++) printf " %s |", p[j]; print ""
    printf "|---|"; for (j = 1; j <= np; j++) printf "---|"; print ""
    line("mtime_loop, 8 threads: 1 / 2 / 8 cores", p, np, "m8walls")
    line("ratio 2 cores / 1 core (target: ≥ 4x eager, ≤ 1.3x fixes)", p, np, "m8ratio")
    line("voluntary switches per call, 2 cores", p, np, "m8vol")
    line("wasted wakes per call, 2 cores", p, np, "m8wasted")
    line("queue_pingpong: 1 / 2 cores", p, np, "ppwalls")
    line("main-thread switches, 2 cores", p, np, "ppmain")
    line("io_plus_cpu, I/O calls per second (2 cores): 5 µs CPU call / 50 µs I/O wait / 20 ms I/O wait", p, np, "io")
}
function line(title, p, np, what,   j, k) {
    printf "| %s |", title
    for (j = 1; j <= np; j++) {
        k = p[j]
        if (what == "m8walls") printf " %.2f / %.2f / %.2f s |", s("pol/mtime8/" k "/1", "wall_s"), s("pol/mtime8/" k "/2", "wall_s"), s("pol/mtime8/" k "/8", "wall_s")
        else if (what == "m8ratio") printf (j == 1 ? " **%.2fx** |" : " %.2fx |"), s("pol/mtime8/" k "/2", "wall_s") / s("pol/mtime8/" k "/1", "wall_s")
        else if (what == "m8vol") printf " %.2f |", sv("pol/mtime8/" k "/2", "vol_switches/syscalls")
        else if (what == "m8wasted") printf " %.3f |", sv("pol/mtime8/" k "/2", "wasted_wakes/syscalls")
        else if (what == "ppwalls") printf " %.2f / %.2f s |", s("pol/pingpong/" k "/1", "wall_s"), s("pol/pingpong/" k "/2", "wall_s")
        else if (what == "ppmain") printf " %s |", comma(s("pol/pingpong/" k "/2", "main_vol_switches"))
        else if (what == "io") printf " %s / %s / %s |", rate(s("pol/io_5us_cpu/" k "/2", "ops_per_s")), rate(s("pol/io_50us/" k "/2", "ops_per_s")), rate(s("pol/io_20ms/" k "/2", "ops_per_s"))
    }
    print ""
}
function rate(x) { return x < 100 ? fx(x, 1) : comma(x) }
