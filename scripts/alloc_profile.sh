#!/bin/sh
# alloc_profile.sh - where two allocating Ractors spend their extra CPU on two
# CPUs (docs/validate.md, proc_heavy): Ruby 3.1's shared allocation counters
# or the rest.
#
#   scripts/alloc_profile.sh [MODE] [ROUNDS] [SECONDS]
#
# Runs scripts/alloc_ab.rb MODE 2 SECONDS (MODE: proc, obj, none, nogc,
# objnogc) under `perf record -e cpu-clock` (a sample every 100 us of CPU:
# hardware counters are not needed), on one CPU (taskset -c 0) and on two
# (-c 0,1), interleaved, ROUNDS times, and prints per run the CPU time per op
# in buckets, from the samples (samples x 100 us / ops; line "ns/op"), and
# the same buckets as shares of the samples taken while the other CPU ran this
# process too ("both%": the other CPU has a sample within 100 us) or did not
# ("alone%"):
#   add      libruby's lock-prefixed instructions other than cmpxchg (and
#            the one after each, where a sample of a stalled atomic lands):
#            in 3.1 gc.c objspace_malloc_increase's adds to malloc_increase
#            and oldmalloc_increase for each malloc'd body
#   cas      its lock cmpxchg (and the next): atomic_sub_nounderflow's loops
#            on the same two counters for each body freed (the sweep)
#   ruby     the rest of libruby (interpreter, GC, newobj)
#   malloc   libc's malloc, calloc, free and their internals
#   libc     the rest of libc (pthread locks among it)
#   kernel   the kernel (futex, reschedule IPIs, page faults)
# busy is the CPUs the process kept busy (CPU time / wall time): on two CPUs
# a run whose busy is near 1 had its two Ractors mostly not running at once
# (other processes on the host), and says little about the two-CPU cost.
# Needs perf, objdump and Debian's ruby (libruby without debug symbols: the
# atomics are found by their instructions, not by name; samples land on the
# instruction after a stalled one, which is counted with it).
set -eu
MODE=${1:-proc}
ROUNDS=${2:-3}
SECS=${3:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
LIB=$(ldd "$(command -v ruby)" | awk '/libruby/ { print $3 }')
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
# Addresses of each lock-prefixed instruction of libruby and of the next one,
# with its kind: cas (cmpxchg: atomic_sub_nounderflow's loop, the frees) or
# add (the other locked instructions: the mallocs' adds).
objdump -d --no-show-raw-insn "$LIB" | awk '
  /^ *[0-9a-f]+:/ { a = $1; sub(":", "", a); if (kind != "") { print a, kind; kind = "" }
                    if ($2 == "lock") { kind = ($3 ~ /cmpxchg/) ? "cas" : "add"; print a, kind } }' |
  sort -u > "$TMP/locks"
echo "# host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs, Linux $(uname -r); $(ruby -v)"
echo "# $(date -u +%FT%TZ) lock instructions in libruby: $(grep -c . "$TMP/locks") with the next ones"
printf '%-5s %-4s %8s %5s %9s %-5s %7s %7s %7s %7s %7s %7s %7s %7s %6s\n' mode cpus ops/s busy cpu_ns/op class samples add cas ruby malloc libc kernel other load1
r=0
while [ "$r" -lt "$ROUNDS" ]; do
  for cpus in 0 0,1; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    perf record -q --sample-cpu -e cpu-clock -c 100000 -o "$TMP/p.data" -- \
      taskset -c "$cpus" ruby "$HERE/alloc_ab.rb" "$MODE" 2 "$SECS" > "$TMP/out" 2>/dev/null
    perf script -i "$TMP/p.data" --show-mmap-events -F cpu,time,ip,sym,dso 2> /dev/null > "$TMP/script"
    awk -v locks="$TMP/locks" -v out="$TMP/out" -v cpus="$cpus" -v load="$load" -v mode="$MODE" '
      function hex(h,   i, x) { sub(/^0x/, "", h); x = 0
        for (i = 1; i <= length(h); i++) x = x * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
        return x }
      function bucket(ip, dso, sym,   a) {
        if (dso ~ /libruby/) {
          a = sprintf("%x", hex(ip) - rstart + rpgoff)
          return (a in lk) ? lk[a] : "ruby"
        }
        if (dso ~ /libc\.so/) return (sym ~ /malloc|calloc|free|realloc|tcache|consolidate|arena|unlink|sysmalloc/) ? "malloc" : "libc"
        if (dso ~ /kernel/) return "kernel"
        return "other"
      }
      BEGIN { while ((getline l < locks) > 0) { split(l, w, " "); lk[w[1]] = w[2] }
              getline o < out; nf = split(o, f, " ")
              for (i = 1; i <= nf; i++) { split(f[i], kv, "="); v[kv[1]] = kv[2] }
              nb = split("add cas ruby malloc libc kernel other", names, " ") }
      /PERF_RECORD_MMAP2/ && /libruby/ && /r-xp/ {
        match($0, /\[0x[0-9a-f]+\(/); rstart = hex(substr($0, RSTART + 1, RLENGTH - 2))
        match($0, /@ 0x[0-9a-f]+/); rpgoff = hex(substr($0, RSTART + 2, RLENGTH - 2)); next }
      /PERF_RECORD/ { next }
      { c = $1; gsub(/[\[\]]/, "", c); t = $2; sub(":", "", t)
        dso = $NF; sym = $4
        n++; cpu[n] = c + 0; tm[n] = t + 0; bk[n] = bucket($3, dso, sym) }
      END {
        # A sample is "both" when the other CPU has a sample of this process
        # within one sampling period (100 us) of it: both ran at that moment.
        last[0] = last[1] = -1
        for (i = 1; i <= n; i++) { prev[i] = last[1 - cpu[i]]; last[cpu[i]] = tm[i] }
        last[0] = last[1] = -1
        for (i = n; i >= 1; i--) { nxt[i] = last[1 - cpu[i]]; last[cpu[i]] = tm[i] }
        for (i = 1; i <= n; i++) {
          both = (prev[i] >= 0 && tm[i] - prev[i] <= 1e-4) || (nxt[i] >= 0 && nxt[i] - tm[i] <= 1e-4)
          cl = both ? "both" : "alone"
          cnt[cl]++; b[cl, bk[i]]++; tot[bk[i]]++ }
        k = 1e5 / v["ops"]
        head = sprintf("%-5s %-4s %8.0f %5.2f %9.1f", mode, (cpus == "0" ? 1 : 2), v["ops_per_s"],
                       v["ops_per_s"] * v["cpu_ns_per_op"] / 1e9, v["cpu_ns_per_op"])
        printf "%s %-5s %7d", head, "ns/op", n
        for (j = 1; j <= nb; j++) printf " %7.1f", tot[names[j]] * k
        printf " %6s\n", load
        split("alone both", cls, " ")
        for (q = 1; q <= 2; q++) {
          cl = cls[q]; if (!cnt[cl]) continue
          printf "%-5s %-4s %8s %5s %9s %-5s %7d", mode, (cpus == "0" ? 1 : 2), "", "", "", cl "%", cnt[cl]
          for (j = 1; j <= nb; j++) printf " %7.1f", 100 * b[cl, names[j]] / cnt[cl]
          printf "\n" } }' "$TMP/script"
  done
  r=$((r + 1))
done
