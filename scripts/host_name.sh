#!/bin/sh
# host_name.sh [CPUINFO [NPROC [DATE]]] - the name of this host's directory
# of fidelity measurements (docs/data/validate/hosts/NAME, written by
# scripts/validate_results.sh when HOST= does not name it): the CPU model,
# the CPU count and the date, e.g. xeon-2vcpu-2026-12-02.
#   the model:  CPUINFO's (default /proc/cpuinfo) first "model name", in
#               lower case, without "(R)", "(TM)", the clock ("@ 3.20GHz")
#               and the words that say no more than that it is a CPU (the
#               vendors Intel and AMD, "CPU", "Processor"); words joined by
#               "-" ("AMD EPYC 7763 64-Core Processor": epyc-7763-64-core);
#               `uname -m` when there is no model name (some ARM kernels);
#   the count:  NPROC (default `nproc`) and "vcpu" when CPUINFO's flags
#               have "hypervisor" (a virtual machine), else "cpu";
#   the date:   DATE (default today, UTC), YYYY-MM-DD.
set -u
info=${1:-/proc/cpuinfo}
n=${2:-$(nproc)}
day=${3:-$(date -u +%Y-%m-%d)}
m=$(grep -m1 '^model name' "$info" 2>/dev/null | sed 's/^[^:]*: *//')
[ -n "$m" ] || m=$(uname -m)
m=$(printf '%s\n' "$m" | tr 'A-Z' 'a-z' | sed -e 's/([a-z]*)//g' -e 's/@.*//' | tr -c 'a-z0-9\n' ' ' |
    awk '{ o = ""; for (i = 1; i <= NF; i++) if ($i !~ /^(intel|amd|genuineintel|authenticamd|cpu|processor)$/) o = o (o != "" ? "-" : "") $i; print o }')
[ -n "$m" ] || m=cpu
v=cpu
grep -qw hypervisor "$info" 2>/dev/null && v=vcpu
echo "$m-$n$v-$day"
