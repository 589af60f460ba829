#!/bin/sh
# backends_table.sh BINARY - the README's three-backend tables
# (scripts/docs/tables/backends.awk, backends_host.awk) rendered from a
# known data set: exact output.  That README.md holds what they render
# from the committed docs/data/backends is `make docs-test`'s check.
set -u
bin=$1
. tests/e2e/lib.inc

d=$tmp/docs/data/backends
mkdir -p "$d"
cat >"$d/host.txt" <<'EOF2'
cpu=Test CPU
cpus=2
kernel=6.1
ruby=ruby 3.1.2p20 (2022-04-12 revision 4491bb740a) [x86_64-linux-gnu]
ruby_version=3.1.2
date=2026-01-02
commit=abc1234
runs=3
quick=0
pingpong_msgs=1000
mtime_calls=2000
proc_time=2s
tarai_insns=300000000
quiet_idle=90
quiet_wait=120
EOF2
cat >"$d/raw.csv" <<'EOF2'
key,rep,idle_pct,load1,scenario,backend,engine,wall_s,vol_switches,ops,ops_per_s
pingpong/1/sim,1,-,-,queue_pingpong,sim,native,2.000000000,1400,1000,500.000
pingpong/2/sim,1,-,-,queue_pingpong,sim,native,20.000000000,1500,1000,50.000
pingpong/1/pthread,1,95,0.1,queue_pingpong,pthread,pthread,1.000000000,100,1000,1000.000
pingpong/1/ruby,1,95,0.1,queue_pingpong,ruby,ruby 3.1.2,3.000000000,10,1000,333.333
pingpong/2/pthread,1,80,0.3,queue_pingpong,pthread,pthread,4.000000000,3000,1000,250.000
pingpong/2/ruby,1,99,0.2,queue_pingpong,ruby,ruby 3.1.2,6.000000000,20,1000,166.667
pingpong/1/pthread,2,95,0.1,queue_pingpong,pthread,pthread,1.200000000,300,1000,833.333
pingpong/1/ruby,2,95,0.1,queue_pingpong,ruby,ruby 3.1.2,2.000000000,30,1000,500.000
pingpong/2/pthread,2,95,0.1,queue_pingpong,pthread,pthread,3.000000000,2000,1000,333.333
pingpong/2/ruby,2,95,0.1,queue_pingpong,ruby,ruby 3.1.2,9.000000000,40,1000,111.111
pingpong/1/pthread,3,95,0.1,queue_pingpong,pthread,pthread,0.900000000,200,1000,1111.111
pingpong/1/ruby,3,95,0.1,queue_pingpong,ruby,ruby 3.1.2,4.000000000,20,1000,250.000
pingpong/2/pthread,3,95,0.1,queue_pingpong,pthread,pthread,5.000000000,1000,1000,200.000
pingpong/2/ruby,3,95,0.1,queue_pingpong,ruby,ruby 3.1.2,3.000000000,30,1000,333.333
proc_on/2/ruby,1,95,0.1,proc_heavy,ruby,ruby 3.1.2 +YJIT,2.000000000,50,2000000,1000000.000
tarai/1/sim,1,-,-,tarai_ractors,sim,native,0.500000000,3,0,0.000
EOF2
render() {
    awk -v ARGS= -f scripts/docs/lib.awk -f "scripts/docs/tables/$1.awk" "$d/raw.csv" "$d/host.txt" >"$tmp/out" 2>"$tmp/err"
    code=$?
}
render backends
expect_code 0 "render backends"
cat >"$tmp/want" <<'EOF2'
| scenario | backend | 1 core | 2 cores | 2 cores / 1 core | vol. switches per op, 1 / 2 cores |
|---|---|---|---|---|---|
| queue_pingpong: wall s | sim | 2.000 | 20.000 | 10.00x | 1.40 / 1.50 |
|  | pthread | 0.900 / 1.000 / 1.200 | 3.000 / 4.000 / 5.000 | 4.00x | 0.20 / 2.00 |
|  | ruby 3.1.2 | 2.000 / 3.000 / 4.000 | 3.000 / 6.000 / 9.000 | 2.00x | 0.02 / 0.03 |
| proc_heavy, 2 Ractors, YJIT on: ops/s | ruby 3.1.2 +YJIT | - | 1.00M | - | - / 0.00 |
| tarai, 2 Ractors: wall s | sim | 0.500 | - | - | - / - |
EOF2
checks=$((checks + 1))
cmp -s "$tmp/out" "$tmp/want" || fail "backends: $(diff "$tmp/want" "$tmp/out")"
render backends_host
expect_code 0 "render backends_host"
expect_line out 'Host: 2 CPUs (Test CPU), kernel 6.1; ruby 3.1.2p20 (2022-04-12 revision 4491bb740a) [x86_64-linux-gnu]; gvlsim abc1234; measured 2026-01-02. Sizes: 1,000 messages, 2,000 File.mtime calls, proc_heavy for 2s, tarai 300,000,000 instructions per Ractor. Settings: those of the installed Ruby (`--set '"'"'runtime={"ruby": "3.1.2"}'"'"'`), machine profile `dev_vm` for the simulator. 3 runs of each real backend, interleaved (the simulator once: it is deterministic). Idle CPU share in the 0.5 s before a real run: min 80%, median 95%, max 99% (the gate waits for 90%, at most 120 s); 1 of 13 runs started below it. 1-minute load average: 0.10–0.30.' "backends_host"
# a data set without the host stops the rendering
rm "$d/host.txt"
render backends_host
checks=$((checks + 1))
[ "$code" -ne 0 ] || fail "backends_host without host.txt: exit 0"
finish "$script"
