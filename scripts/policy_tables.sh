#!/bin/sh
# policy_tables.sh [RESULTS.csv] - the Markdown tables of docs/policies.md
# from the CSV of scripts/policy_results.sh.
set -eu
in=${1:-out/policy_results.csv}
[ -r "$in" ] || { echo "policy_tables.sh: no $in (run scripts/policy_results.sh)" >&2; exit 2; }

awk -F, '
NR == 1 { next }
{
    k = $1 "|" $4 "|" $7
    wall[k] = $11; run[k] = $13; wants[k] = $14; blk[k] = $15; parked[k] = $16
    vol[k] = $22; mvol[k] = $24; hand[k] = $25; wake[k] = $26; wasted[k] = $27
    ticks[k] = $28; sys[k] = $29; ops[k] = $30; rate[k] = $31
}
function pol(i) { return substr("eager    hot_stealdelayed  threshold barging  ", (i - 1) * 9 + 1, 9) }
function trim(s) { gsub(/ /, "", s); return s }
function mtime(name, t,   i, p, c, k, k1, cs, n, j) {
    printf "\n#### mtime_loop, %d threads (`%s`)\n\n", t, name
    print "| policy | cores | wall (s) | x 1 core | vol. switches / call | wasted wakes / call | GVL hand-offs / call | Ruby running (% of wall) | waiting for the GVL (µs / call) | in the syscall (µs / call) |"
    print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    n = split("1 2 8", cs, " ")
    for (i = 1; i <= 5; i++) {
        p = trim(pol(i))
        k1 = name "|" p "|1"
        for (j = 1; j <= n; j++) {
            c = cs[j]; k = name "|" p "|" c
            if (!(k in wall)) continue
            printf "| %s | %d | %.3f | %.2f | %.3f | %.4f | %.3f | %.0f | %.2f | %.2f |\n", p, c, wall[k],
                wall[k] / wall[k1], vol[k] / sys[k], wasted[k] / sys[k], hand[k] / sys[k],
                100 * run[k] / wall[k], 1e6 * wants[k] / sys[k], 1e6 * blk[k] / sys[k]
        }
    }
}
function pingpong(name, c2,   i, p, k, k1) {
    printf "\n#### `%s`\n\n", name
    print "| policy | cores | wall (s) | x 1 core | vs eager | main-thread vol. switches | all vol. switches | GVL hand-offs | wasted wakes | parked (s) | waiting for the GVL (s) |"
    print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for (i = 1; i <= 5; i++) {
        p = trim(pol(i))
        k1 = name "|" p "|1"
        for (c = 1; c <= c2; c = (c == 1 ? c2 : c2 + 1)) {
            k = name "|" p "|" c
            if (!(k in wall)) continue
            printf "| %s | %d | %.3f | %.2f | %.3f | %d | %d | %d | %d | %.3f | %.3f |\n", p, c, wall[k],
                wall[k] / wall[k1], wall[k] / wall[name "|eager|" c], mvol[k], vol[k], hand[k], wasted[k],
                parked[k], wants[k]
        }
    }
}
END {
    mtime("mtime8", 8)
    mtime("mtime2", 2)
    pingpong("pingpong", 2)
    pingpong("pingpong_desktop", 20)
    pingpong("token", 2)
    print "\n#### `io_plus_cpu`: I/O calls per second\n"
    print "| policy | cores | 5 µs on the CPU | 50 µs I/O wait | 20 ms I/O wait | GVL hand-offs (50 µs) | wasted wakes (5 µs) |"
    print "|---|---:|---:|---:|---:|---:|---:|"
    for (i = 1; i <= 5; i++) {
        p = trim(pol(i))
        for (c = 1; c <= 2; c++)
            printf "| %s | %d | %.1f | %.1f | %.1f | %d | %d |\n", p, c, rate["io_5us_cpu|" p "|" c],
                rate["io_50us|" p "|" c], rate["io_20ms|" p "|" c], hand["io_50us|" p "|" c],
                wasted["io_5us_cpu|" p "|" c]
    }
}' "$in"
