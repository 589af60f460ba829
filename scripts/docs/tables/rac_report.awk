# rac_report: README and docs/ractors.md, bug #22224: the report and PR 18176
# beside the model (runs ractors/*, m1pro_macos, 10 cores, 100 ms each).
#
# Sources, each named in the table:
#   the report: bug #22224's description (yaroslavmarkin), Apple M1 Pro, macOS,
#     ruby 4.0.6, 3 s per cell; N = 1 runs the loop in the main Ractor
#     alone, N > 1 in N worker Ractors; "interpreter" is a run without --yjit.
#   the PR: PR 18176's description (yaroslav), kino's ractor_escape_bench
#     (`-> { a }`), N worker Ractors with the main Ractor waiting, ops/s.
function render(   lb1, lb8, w8) {
    lb1 = s("ractors/lock_barrier/1", "ops_per_s"); lb8 = s("ractors/lock_barrier/8", "ops_per_s")
    w8 = s("ractors/lock_barrier/8", "wall_s") / s("ractors/lock_barrier/8", "barriers")
    print "| proc mode: Proc calls per second | bug #22224's report | PR 18176's description | gvlsim |"
    print "|---|---:|---:|---:|"
    printf "| YJIT on (`lock_barrier`), the main Ractor alone (single-Ractor mode: no lock, no barrier) | 6.0M | | %s |\n", human(s("ractors/main_only/lock_barrier", "ops_per_s"))
    printf "| YJIT on (`lock_barrier`), 1 worker Ractor | | ~5.5M | %s |\n", human(lb1)
    printf "| YJIT off (`none`), 1 worker Ractor | 4.5M (the interpreter, main Ractor alone) | ~6M | %s |\n", human(s("ractors/none/1", "ops_per_s"))
    printf "| YJIT on, 4 worker Ractors (the one point used to calibrate the wake cost) | 0.14M | | %s |\n", human(s("ractors/lock_barrier/4", "ops_per_s"))
    printf "| **YJIT on, 8 worker Ractors** | **0.04M** | **~37K** | **%s** |\n", human(lb8)
    printf "| **collapse, 1 → 8** (target: ≥ 50x) | **150x** (6.0M / 0.04M) | **~150x** (5.5M / 37K) | **%.0fx** |\n", lb1 / lb8
    printf "| time per barrier at 4 / 8 workers (derived: 1 / rate) | 7.1 µs / 25 µs | — / ~27 µs | %.1f µs / %.1f µs |\n",
        1e6 * s("ractors/lock_barrier/4", "wall_s") / s("ractors/lock_barrier/4", "barriers"), 1e6 * w8
    printf "| the fix (`lockless`), 1 → 8 workers (sources, YJIT off: 1.5–1.7x) | | | %s → %s (%.1fx) |\n", human(s("ractors/lockless/1", "ops_per_s")),
        human(s("ractors/lockless/8", "ops_per_s")), s("ractors/lockless/8", "ops_per_s") / s("ractors/lockless/1", "ops_per_s")
    printf "| YJIT off (`none`), 1 → 8 workers | 4.5M → 7.8M (1.7x, the interpreter) | ~6M → ~9M (1.5x) | %s → %s (%.1fx) |\n", human(s("ractors/none/1", "ops_per_s")),
        human(s("ractors/none/8", "ops_per_s")), s("ractors/none/8", "ops_per_s") / s("ractors/none/1", "ops_per_s")
    printf "| no escape, YJIT, 1 → 8 (report: calc, iterations/s; PR: its no-escape variant) | 129.4M → 969.1M (7.5x) | ~20M → ~120M (6x) | %s → %s (%.1fx, calc) |\n",
        human(1000 * s("ractors/calc/1", "ops_per_s")), human(1000 * s("ractors/calc/8", "ops_per_s")), s("ractors/calc/8", "ops_per_s") / s("ractors/calc/1", "ops_per_s")
}
