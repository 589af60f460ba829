# pol_io: docs/policies.md, io_plus_cpu's I/O calls per second under every
# policy (runs pol/io_5us_cpu, pol/io_50us, pol/io_20ms).
function render(   i, c, p, pol) {
    split("eager hot_steal delayed threshold barging", pol, " ")
    print "| policy | cores | 5 µs on the CPU | 50 µs I/O wait | 20 ms I/O wait | GVL hand-offs (50 µs) | wasted wakes (5 µs) |"
    print "|---|---:|---:|---:|---:|---:|---:|"
    for (i = 1; i <= 5; i++) {
        p = pol[i]
        for (c = 1; c <= 2; c++)
            printf "| %s | %d | %.1f | %.1f | %.1f | %d | %d |\n", p, c, s("pol/io_5us_cpu/" p "/" c, "ops_per_s"),
                s("pol/io_50us/" p "/" c, "ops_per_s"), s("pol/io_20ms/" p "/" c, "ops_per_s"),
                s("pol/io_50us/" p "/" c, "gvl_handoffs"), s("pol/io_5us_cpu/" p "/" c, "wasted_wakes")
    }
}
