#!/bin/sh
# build.sh OUTDIR - build scripts/bpf's probes and their loader into OUTDIR
# (make bpf: build/bpf; docs/bpf.md).  Needs clang, bpftool, libbpf (libbpf-dev) and a
# kernel with BTF (/sys/kernel/btf/vmlinux, from which OUTDIR/vmlinux.h is
# generated).  Exit 1 with what is missing.  GV_RB_BYTES=N sets the probes'
# buffer (default 64 MiB; a power of two of whole pages).
set -eu
out=${1:?usage: build.sh OUTDIR}
src=$(dirname "$0")
missing=""
command -v clang >/dev/null 2>&1 || missing="$missing clang"
command -v bpftool >/dev/null 2>&1 || missing="$missing bpftool"
pkg-config --exists libbpf 2>/dev/null || missing="$missing libbpf-dev"
[ -r /sys/kernel/btf/vmlinux ] || missing="$missing /sys/kernel/btf/vmlinux(a-kernel-with-BTF)"
if [ -n "$missing" ]; then
    echo "scripts/bpf/build.sh: missing:$missing (Debian: apt-get install clang bpftool libbpf-dev)" >&2
    exit 1
fi
case $(uname -m) in
    x86_64) arch=x86 ;;
    aarch64) arch=arm64 ;;
    *) echo "scripts/bpf/build.sh: $(uname -m): no __TARGET_ARCH known here" >&2; exit 1 ;;
esac
mkdir -p "$out"
bpftool btf dump file /sys/kernel/btf/vmlinux format c >"$out/vmlinux.h.tmp"
mv "$out/vmlinux.h.tmp" "$out/vmlinux.h"
for p in sched_wakes futex_calls; do
    clang -g -O2 -target bpf -D__TARGET_ARCH_$arch ${GV_RB_BYTES:+-DGV_RB_BYTES=$GV_RB_BYTES} -Wall -Werror -I"$out" -I"$src" \
        -c "$src/$p.bpf.c" -o "$out/$p.bpf.o"
done
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -I"$src" -o "$out/bpf_record" "$src/bpf_record.c" \
    $(pkg-config --cflags --libs libbpf)
