#!/bin/sh
# validate_table.sh BINARY - the README's fidelity tables
# (scripts/docs/tables/validate.awk, validate_host.awk, validate_wall.awk)
# rendered from a known data set: exact lines, the bold misses, the count
# of targets met, the loaded-host warning.  That README.md holds what they
# render from the committed docs/data/validate is `make docs-test`'s check.
set -u
bin=$1
. tests/e2e/lib.inc

d=$tmp/docs/data/validate
mkdir -p "$d"
hdr=metric,backend,engine,simulated,measured_min,measured_median,measured_max,runs,rel_error
# rows NAME [POLICY...]: a table as `gvlsim validate -o` writes it; measured
# medians from the simulated value and a per-row error: ratio +10%, switches
# per op -40% at 1 core and +20% at 2 cores, wall +50%
rows() {
    name=$1; shift
    first=wall_s
    [ "$name" = proc2 ] && first=ops_per_s
    if [ $# -eq 0 ]; then
        echo "point,machine.cores,$hdr"
        set -- ""
    else
        echo "point,runtime.gvl_policy,machine.cores,$hdr"
    fi
    p=0
    for pol in "$@"; do
        for cores in 1 2; do
            key=$p,$cores
            [ -n "$pol" ] && key=$p,$pol,$cores
            for b in pthread ruby; do
                e=pthread; [ $b = ruby ] && e="ruby 3.1.2"
                echo "$key,$first,$b,$e,3,1,2,3,3,0.5"
            done
            if [ $cores = 2 ]; then
                for b in pthread ruby; do
                    e=pthread; [ $b = ruby ] && e="ruby 3.1.2"
                    echo "$key,cores_ratio,$b,$e,1.1,0.9,1,1.2,3,0.1"
                done
            fi
            [ "$name" = tarai2 ] && { p=$((p + 1)); continue; }
            for b in pthread ruby; do
                e=pthread; [ $b = ruby ] && e="ruby 3.1.2"
                if [ $cores = 1 ]; then echo "$key,vol_switches_per_op,$b,$e,0.006,0.005,0.01,0.02,3,-0.4"
                else echo "$key,vol_switches_per_op,$b,$e,0.024,0.01,0.02,0.03,3,0.2"; fi
            done
            p=$((p + 1))
        done
    done
}
for n in pingpong mtime2 mtime8 proc2 tarai2; do rows $n >"$d/$n.csv"; done
rows pingpong_policies eager hot_steal delayed threshold >"$d/pingpong_policies.csv"
rows mtime2_policies eager hot_steal delayed threshold >"$d/mtime2_policies.csv"
cat >"$d/host.txt" <<'EOF2'
cpu=Test CPU
cpus=2
kernel=6.1
ruby=ruby 3.1.2p20 (2022-04-12 revision 4491bb740a) [x86_64-linux-gnu]
date=2026-01-02
commit=abc1234
runs=5
quick=0
quiet_idle=90
load_pingpong=95,0.10,0.30
load_mtime2=95,0.20,0.25
EOF2
render() {
    # shellcheck disable=SC2046
    awk -v ARGS= -f scripts/docs/lib.awk -f "scripts/docs/tables/$1.awk" $(ls "$d"/*.csv "$d"/*.txt) >"$tmp/out" 2>"$tmp/err"
    code=$?
}
# expect_table_lines N WHAT: stdout has N table lines (a header, its rule
# not counted, and N - 1 rows)
expect_table_lines() {
    checks=$((checks + 1))
    n=$(grep -c '^| ' "$tmp/out")
    [ "$n" -eq "$1" ] || fail "$2: $n table lines, expected a header and $(($1 - 1)) rows"
}
render validate
expect_code 0 "render validate"
expect_line out '| target (sizes: below) | measured on | 2 cores / 1 core: simulated / measured (error) | voluntary switches per op, 1 core | the same, 2 cores |' "validate header"
expect_line out '| queue_pingpong | ruby 3.1.2 | 1.10x / 1.00x (+10%) | 0.006 / 0.01 (**-40%**) | 0.024 / 0.02 (+20%) |' "validate: a Ruby row, a miss in bold"
expect_line out '| tarai_ractors, 2 Ractors | ruby 3.1.2 | 1.10x / 1.00x (+10%) | - | - |' "validate: no per-op rows"
expect_line out '| queue_pingpong | executor, hot_steal | 1.10x / 1.00x (+10%) | 0.006 / 0.01 (**-40%**) | 0.024 / 0.02 (+20%) |' "validate: a policy row"
expect_line out '| mtime_loop, 2 threads | executor, barging | 1.10x / 1.00x (+10%) | 0.006 / 0.01 (**-40%**) | 0.024 / 0.02 (+20%) |' "validate: barging from the 3.1 target"
expect_line out '29 of 43 figures within their target (ratio 25%, switches per op 30%).' "validate: the count"
expect_table_lines 16 "validate"
render validate_wall
expect_code 0 "render validate_wall"
expect_line out '| queue_pingpong, wall s | 3.000 / 2.000 / 2.000 | 3.000 / 2.000 / 2.000 |' "validate_wall row"
expect_line out '| proc_heavy, 2 Ractors, ops/s | 3.00 / 2.00 / 2.00 | 3.00 / 2.00 / 2.00 |' "validate_wall ops/s"
render validate_host
expect_code 0 "render validate_host"
expect_line out 'Host: 2 CPUs (Test CPU), kernel 6.1; ruby 3.1.2p20 (2022-04-12 revision 4491bb740a) [x86_64-linux-gnu]; gvlsim abc1234; measured 2026-01-02; 5 runs of each real backend per configuration, interleaved; 1-minute load average 0.10–0.30. The simulator runs with the profile `gvlsim calibrate` wrote on that host (`docs/data/validate/host.json`).' "validate_host"
# a loaded host is said so, first
sed -i 's/^load_mtime2=.*/load_mtime2=0,7.5,9.25/' "$d/host.txt"
render validate_host
expect_match out '^\*\*Measured while other jobs loaded the host \(1-minute load average up to 9.2 on 2 CPUs\)' "validate_host: loaded"
# the figures on Rubies built from source: the targets with a fifth field,
# against that Ruby and the executor of the same runs, their own count; the
# issue's count is unchanged
cat >"$d/targets.txt" <<'EOF2'
# a comment | scenario | backends | args | ruby=9.9.9
pingpong | scenarios/queue_pingpong.json | sim,pthread,ruby | --set runtime={"ruby":"3.1"}
pingpong_v3_3_11 | scenarios/queue_pingpong.json | sim,pthread,ruby | --set runtime={"ruby":"3.3"} | ruby=3.3.11
mtime2_master | scenarios/mtime_loop.json | sim,pthread,ruby | --set runtime={"ruby":"4.1"} | ruby=4.1.0
EOF2
rows pingpong_v3_3_11 | sed 's/ruby 3[.]1[.]2/ruby 3.3.11/' >"$d/pingpong_v3_3_11.csv"
printf 'point,rep,machine.cores,backend,engine,policy\n0,0,1,pthread,pthread,eager\n0,0,1,ruby,ruby 3.3.11,eager\n' >"$d/pingpong_v3_3_11.rows.csv"
cat >>"$d/host.txt" <<'EOF2'
ruby_pingpong_v3_3_11=ruby 3.3.11 (2026-03-26 revision 1f2d15125a) [x86_64-linux]
load_pingpong_v3_3_11=99,0.50,1.25
host_pingpong_v3_3_11=Test CPU, 2 CPUs, kernel 6.1
time_pingpong_v3_3_11=2026-12-02T06:40:01Z,2026-12-02T06:44:59Z
EOF2
render validate_built
expect_code 0 "render validate_built"
expect_line out '| queue_pingpong | ruby 3.3.11 (built from source), eager | 1.10x / 1.00x (+10%) | 0.006 / 0.01 (**-40%**) | 0.024 / 0.02 (+20%) |' "validate_built: the Ruby row"
expect_line out '| queue_pingpong | executor, eager, the same runs | 1.10x / 1.00x (+10%) | 0.006 / 0.01 (**-40%**) | 0.024 / 0.02 (+20%) |' "validate_built: the executor row"
expect_line out '| mtime_loop, 2 threads | ruby 4.1.0 (built from source) | not measured | - | - |' "validate_built: a target not measured"
expect_line out "Beyond the issue's 43 figures: 2 of 3 within their target against the Rubies built from source; the executor in the same runs: 2 of 3 (ratio 25%, switches per op 30%)." "validate_built: its own count"
expect_line out '- pingpong_v3_3_11: `ruby 3.3.11 (2026-03-26 revision 1f2d15125a) [x86_64-linux]`; Test CPU, 2 CPUs, kernel 6.1; measured 2026-12-02 06:40:01–06:44:59 UTC, 1-minute load average 0.50 before, 1.25 after.' "validate_built: what and when"
expect_table_lines 4 "validate_built"
checks=$((checks + 1))
grep -q 'loaded host' "$tmp/out" && fail "validate_built: a quiet host marked loaded"
sed -i 's/^load_pingpong_v3_3_11=.*/load_pingpong_v3_3_11=0,7.00,8.90/' "$d/host.txt"
render validate_built
expect_line out '- **loaded host** pingpong_v3_3_11: `ruby 3.3.11 (2026-03-26 revision 1f2d15125a) [x86_64-linux]`; Test CPU, 2 CPUs, kernel 6.1; measured 2026-12-02 06:40:01–06:44:59 UTC, 1-minute load average 7.00 before, 8.90 after.' "validate_built: a loaded host"
expect_match out '^A target marked [*][*]loaded host[*][*] was measured while other jobs loaded the host' "validate_built: what a loaded host means"
checks=$((checks + 1))
grep -q 'Two regimes' "$tmp/out" && fail "validate_built: one regime reported as two"
# 2-core runs in two regimes (max over min above 3) are said so
sed -i 's/^\(1,2,wall_s,ruby,ruby 3.3.11,3,1,2,\)3,/\120,/' "$d/pingpong_v3_3_11.csv"
render validate_built
expect_line out '  **Two regimes:** its 2-core runs took Ruby 1.00-20.00 s: some used both CPUs and some stayed on one; the medians above are those of the majority.' "validate_built: two regimes"
# a 1-minute load above half the CPUs with the CPUs idle before the runs is
# the previous target's own runs still in the average: not loaded
sed -i 's/^load_pingpong_v3_3_11=.*/load_pingpong_v3_3_11=100,1.12,1.78/' "$d/host.txt"
render validate_built
expect_match out '^- pingpong_v3_3_11: .*load average 1.12 before, 1.78 after[.]$' "validate_built: a lagging load average is not a loaded host"
# the CPUs less idle than quiet_idle (host.txt's, 90 here) before the runs is enough
sed -i 's/^load_pingpong_v3_3_11=.*/load_pingpong_v3_3_11=85,0.40,0.90/' "$d/host.txt"
render validate_built
expect_match out '^- [*][*]loaded host[*][*] pingpong_v3_3_11: .*load average 0.40 before, 0.90 after[.]$' "validate_built: not idle before the runs"
render validate
expect_line out '29 of 43 figures within their target (ratio 25%, switches per op 30%).' "validate: the count without the built Rubies' figures"
# a missing table stops the rendering
rm "$d/mtime8.csv"
render validate
checks=$((checks + 1))
[ "$code" -ne 0 ] || fail "validate without mtime8.csv: exit 0"
finish "$script"
