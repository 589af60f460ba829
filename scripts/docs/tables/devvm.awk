# devvm: README, this host's profile (dev_vm) simulated beside the real
# executor's runs on this host (runs devvm/*; docs/data/exec*/raw.csv,
# medians of the interleaved runs).
function render(   e, p) {
    e = "exec/raw"; p = e
    print "| this host | simulated (`dev_vm`) | measured (`gvlsim exec`, median) |"
    print "|---|---|---|"
    printf "| queue_pingpong, 200k messages, 2 cores | %.2f s, %s main-thread switches | %.2f s, %s |\n", s("devvm/pingpong/2", "wall_s"),
        human(s("devvm/pingpong/2", "main_vol_switches")), med(p, "pingpong/2", "wall_s"), human(med(p, "pingpong/2", "main_vol_switches"))
    printf "| queue_pingpong, 200k messages, 1 core | %.2f s | %.2f s |\n", s("devvm/pingpong/1", "wall_s"), med(p, "pingpong/1", "wall_s")
    printf "| mtime_loop, 2 threads, 200k calls, 2 cores: eager / hot_steal / delayed | %.2f / %.2f / %.2f s | %.2f / %.2f / %.2f s |\n",
        s("devvm/mtime2/eager/2", "wall_s"), s("devvm/mtime2/hot_steal/2", "wall_s"), s("devvm/mtime2/delayed/2", "wall_s"),
        med(e, "mtime/2/eager/2", "wall_s"), med(e, "mtime/2/hot_steal/2", "wall_s"), med(e, "mtime/2/delayed/2", "wall_s")
    printf "| mtime_loop, 2 threads, 200k calls, 1 core, eager | %.2f s, %.2f switches per call | %.2f s, %.2f per call |\n",
        s("devvm/mtime2/eager/1", "wall_s"), sv("devvm/mtime2/eager/1", "vol_switches/syscalls"),
        med(e, "mtime/2/eager/1", "wall_s"), med(e, "mtime/2/eager/1", "vol_switches") / med(e, "mtime/2/eager/1", "syscalls")
}
