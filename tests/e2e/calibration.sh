#!/bin/sh
# calibration.sh BINARY - the seed scenarios still reproduce the bug reports
# with the report_m4 profile, for the right reason (scaled to 1/10 of the
# messages / calls, which scales the times linearly).
set -u
bin=$1
. tests/e2e/lib.inc

# col CSVFILE NAME: the value of column NAME in the data row
col() {
    awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i } NR == 2 { print $c }' "$1"
}
# within VALUE LOW HIGH WHAT
within() {
    checks=$((checks + 1))
    awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }' || fail "$4: $1 not in [$2, $3]"
}

pp="scenarios/queue_pingpong.json --set ractors.0.threads.0.program.0.times=20000 --set ractors.0.threads.1.program.0.times=100000 -q"
run run $pp --set machine.cores=1 -o "$tmp/pp1.csv"
expect_code 0 "ping-pong, 1 core"
run run $pp --set machine.cores=2 -o "$tmp/pp2.csv"
expect_code 0 "ping-pong, 2 cores"
# the report: 3.619 s and 36.223 s for 1M messages
within "$(col "$tmp/pp1.csv" wall_s)" 0.344 0.380 "ping-pong 1 core wall (report 0.362 per 100k)"
within "$(col "$tmp/pp2.csv" wall_s)" 3.44 3.80 "ping-pong 2 cores wall (report 3.622 per 100k)"
# the report: 1,400,110 voluntary switches of the main thread per 1M messages
within "$(col "$tmp/pp2.csv" main_vol_switches)" 139000 141000 "main thread switches"
# the right reason: 2.8 hand-offs per message, on 2 cores spent waiting for a waking successor
within "$(col "$tmp/pp2.csv" gvl_handoffs)" 279000 281000 "hand-offs"
w=$(col "$tmp/pp2.csv" wants_gvl_s); r=$(col "$tmp/pp2.csv" running_s)
within "$(awk -v w="$w" -v r="$r" 'BEGIN { print w / r }')" 20 100 "2 cores: wants_gvl / running"

mt="scenarios/mtime_loop.json --set ractors.0.threads.1.program.0.times_total=100000 -q"
run run $mt --set machine.cores=1 -o "$tmp/m1.csv"
run run $mt --set machine.cores=2 -o "$tmp/m2.csv"
run run $mt --set machine.cores=8 -o "$tmp/m8.csv"
w1=$(col "$tmp/m1.csv" wall_s)
within "$(awk -v a="$(col "$tmp/m2.csv" wall_s)" -v b="$w1" 'BEGIN { print a / b }')" 4 10 "mtime 8 threads: 2 cores / 1 core"
within "$(awk -v a="$(col "$tmp/m8.csv" wall_s)" -v b="$w1" 'BEGIN { print a / b }')" 4 10 "mtime 8 threads: 8 cores / 1 core"
# about one voluntary switch per syscall
within "$(awk -v a="$(col "$tmp/m2.csv" vol_switches)" 'BEGIN { print a / 100000 }')" 0.95 1.15 "mtime: switches per syscall"

finish calibration.sh
