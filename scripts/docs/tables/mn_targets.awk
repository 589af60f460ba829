# mn_targets: docs/mn.md, how each target of bug #20489 hits, and why
# (runs mn/fix/*, mn/cap/*, mn/k/*).
function render(   sh, tl, no) {
    sh = "mn/fix/shared"; tl = "mn/fix/thread_local"; no = "mn/fix/none"
    print "| target | result | mechanism checked (tests) |"
    print "|---|---|---|"
    printf "| 8 Ractors, shared ≈ 10x none / thread_local; 24.87 s / 195.55 s measured | %.2f s / %.1f s, %.2fx | CPU = %.2f × wall, threads `running`, transfers = wall / T (test_tarai) |\n",
        s(sh, "wall_s"), s(sh, "cpu_s"), s(sh, "wall_s") / s(no, "wall_s"), s(sh, "cpu_s") / s(sh, "wall_s")
    printf "| thread_local within 5%% of none | %+.1f%% | per-instruction TLS cost, no transfer |\n", 100 * (s(tl, "wall_s") / s(no, "wall_s") - 1)
    printf "| one Ractor ≈ 2.5 s under every counter | %.3f s shared, %.3f s none | k = 1: no transfer (test_tarai, test_counter) |\n",
        s("mn/k/1/line", "wall_s"), s("mn/k/1/none", "wall_s")
    printf "| k = 2, 4: predictions of the line model | %.2fx, %.2fx | rate B / (k·T) (test_tarai, test_counter exact times) |\n",
        s("mn/k/2/line", "wall_s") / s("mn/k/2/none", "wall_s"), s("mn/k/4/line", "wall_s") / s("mn/k/4/none", "wall_s")
    printf "| max_cpu 8 + minus_one ≈ 2x exact | %.2fx (thread_local), %.2fx (none); measured 1.91x across two builds | 7 SNTs, the 8th Ractor in `wants_snt` for half the run, %d vs %d native threads (test_tarai, test_mn) |\n",
        s("mn/cap/thread_local/minus_one", "wall_s") / s("mn/cap/thread_local/exact", "wall_s"),
        s("mn/cap/none/minus_one", "wall_s") / s("mn/cap/none/exact", "wall_s"),
        s("mn/cap/none/minus_one", "native_threads"), s("mn/cap/none/exact", "native_threads")
    printf "| tarai at full size well under a second | %s engine events for 8 × 1.06G instructions (host time: `make bench`) | fluid rated bursts |\n", comma(s(sh, "engine_events"))
}
