#!/bin/sh
# validate_results.sh [GVLSIM] [OUTDIR] - measure the README's fidelity
# targets on this host: calibrate it, then run every target of
# docs/data/validate/targets.txt with `gvlsim validate` on the real backends.
#
# OUTDIR is this host's directory, by default docs/data/validate/hosts/HOST:
# one directory per measured host, so that measuring one machine never
# replaces another's runs (the README has a table per host).  HOST=NAME
# names it (letters, digits, `.`, `_`, `-`); by default scripts/host_name.sh
# derives it from the CPU model, the CPU count ("vcpu" in a virtual machine)
# and the date (UTC): "Intel(R) Xeon(R) Processor" on a 2-vCPU guest on
# 2026-12-02 gives xeon-2vcpu-2026-12-02, "AMD EPYC" epyc-2vcpu-2026-12-02.
# Measuring the same machine again the same day (or with HOST= an existing
# directory) measures into that directory again.
#
#   1. `gvlsim calibrate -o OUTDIR/host.json`: this host's machine profile
#      (PROFILE=FILE uses an existing one instead);
#   2. per target: `gvlsim validate ... --reps RUNS --rows OUTDIR/NAME.rows.csv`
#      (RUNS default 5; the real runs interleaved within each target); a
#      target on a Ruby built from source first measures that Ruby
#      (`gvlsim calibrate --only ruby --ruby RUBY -o OUTDIR/ruby-VERSION.json`,
#      once per Ruby) and runs with its keys laid over host.json;
#      when a target's runs met another cache regime than the profile's
#      (their probe more than 1.5x from its cache_probe) and no
#      OUTDIR/cache-*.json holds that regime, `gvlsim calibrate --only
#      cache -o OUTDIR/cache-{split,shared}-HHMMSS.json` right after them;
#   3. OUTDIR/host.txt: the host, the Ruby, the tree, the load;
#   4. scripts/docs/validate.sh and scripts/docs/render.sh: the tables
#      (only when OUTDIR is a directory of docs/data/validate/hosts).
# Real timings need a quiet host: before each target the quiet gate
# (scripts/quiet.inc: QUIET_IDLE, default 90% idle; QUIET_WAIT, default 120 s)
# waits, and the load averages before and after each target are recorded.
# MAX_SPREAD=PCT passes --max-spread to the real backends (their busy-loop
# calibration; default 10%).  A target some of whose runs failed (exit 4:
# an unstable calibration, the watchdog) is kept with the runs that
# succeeded, and said so; any other failure stops the script.
# ONLY=NAME measures one target (the others' rows are kept); TARGETS=FILE
# reads another list (tests); QUICK=1: a quick calibration and 1 run (checks
# the script, not the machine).  `make docs-validate` runs this.
# A target whose fifth field is `ruby=VERSION` needs that Ruby built from
# source (scripts/build_ruby.sh REF DIR/VERSION): it runs DIR/VERSION/bin/ruby
# with RUBIES=DIR, and without it (or when that Ruby is not VERSION) it is
# skipped with a message and its committed rows are kept.
# host.txt records, per target, its start and end time (time_NAME) and,
# for a built Ruby, its `ruby -v` (ruby_NAME) and the host (host_NAME); a
# skipped target keeps its lines.
set -u
bin=${1:-./gvlsim}
if [ -n "${2:-}" ]; then
    out=$2
    # a directory inside this tree given by its absolute path is named as
    # from here: what the runs record (calibrate's command line) is committed
    case $out in "$(pwd)"/*) out=${out#"$(pwd)"/} ;; esac
else
    host=${HOST:-$("$(dirname "$0")/host_name.sh")}
    case $host in
    ''|.|..|*[!A-Za-z0-9._-]*) echo "validate_results: HOST=\"$host\": a directory name of letters, digits, '.', '_' and '-'" >&2; exit 1 ;;
    esac
    out=docs/data/validate/hosts/$host
    echo "validate_results: measuring into $out" >&2
fi
runs=${RUNS:-5}
targets=${TARGETS:-docs/data/validate/targets.txt}
quick=
[ "${QUICK:-0}" = 1 ] && { runs=1; quick=--quick; }
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
[ -x "$bin" ] || { echo "validate_results: $bin is not executable (run make)" >&2; exit 1; }
[ -f "$targets" ] || { echo "validate_results: no $targets" >&2; exit 1; }
[ "$(nproc)" -ge 2 ] || { echo "validate_results: needs 2 CPUs (this host lets us use $(nproc))" >&2; exit 1; }
mkdir -p "$out" || exit 1
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || commit="$commit+changes"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/quiet.inc"

if [ -n "${PROFILE:-}" ]; then
    [ "$PROFILE" = "$out/host.json" ] || cp "$PROFILE" "$out/host.json" || exit 1
else
    echo "validate_results: calibrating this host" >&2
    # shellcheck disable=SC2086
    "$bin" calibrate $quick -o "$out/host.json" 2>"$tmp/calib.err" ||
        { cat "$tmp/calib.err" >&2; exit 1; }
    grep 'warning:' "$tmp/calib.err" >&2
fi

# The cross-CPU cache probe (scripts/line_load_then_add.c): what a locked
# add on a line the other CPU wrote costs, just before each target's runs
# (line_NAME= in host.txt).  A guest's two vCPUs may share a cache in one
# window and not in the next (the AMD EPYC guest: 50-60 ns, then 170 ns),
# and what a cross-CPU line or free costs follows it (proc_heavy's
# 2-core runs of Ruby 3.1.2 there: 0.6x per op in one regime, 1.1-1.9x in
# the other, docs/validate.md); the profile holds the regime it was
# calibrated in.  Skipped without a C compiler.
probe=
if ${CC:-cc} -O2 -pthread -I"$(dirname "$0")" -o "$tmp/line_probe" "$(dirname "$0")/line_load_then_add.c" 2>/dev/null; then
    probe=$tmp/line_probe
fi
line_ns() {
    [ -n "$probe" ] && "$probe" 20000 2>/dev/null | awk '/^lock add / { print $4; exit }'
}
# key_ns, col_median, regime_apart, regime_dist
. "$(dirname "$0")/regime.inc"
# capture_regime NAME: the cache keys of the regime NAME's runs met, when
# neither the profile nor a cache profile already here holds it.  The
# README's tables simulate a target with the keys of its runs' regime
# (scripts/docs/validate.sh, by the runs' line_probe_ns), so a run in a
# regime the host has no keys of would be set beside the other regime's
# (session 46's second table: its profile calibrated at a 38 ns probe, the
# 3.1 loops run at 150-157 ns).  `gvlsim calibrate --only cache` (a few
# seconds) right after the runs, while the regime likely holds, kept as
# OUTDIR/cache-{split,shared}-HHMMSS.json (split: slower than the profile's;
# shared: faster) when its own probe is of the runs' regime, else dropped
# with a message (the regime moved meanwhile).
capture_regime() {
    runs_probe=$(col_median "$out/$1.rows.csv" line_probe_ns)
    home=$(key_ns "$out/host.json" cache_probe)
    [ -n "$runs_probe" ] && [ -n "$home" ] && regime_apart "$runs_probe" "$home" || return 0
    for f in "$out"/cache-*.json; do
        [ -f "$f" ] || continue
        p=$(key_ns "$f" cache_probe)
        [ -n "$p" ] && ! regime_apart "$runs_probe" "$p" && return 0
    done
    kind="shared"
    awk -v a="$runs_probe" -v b="$home" 'BEGIN { exit !(a > b) }' && kind="split"
    file=$out/cache-$kind-$(date -u +%H%M%S).json
    echo "validate_results: $1's runs met another cache regime (probe ${runs_probe} ns, the profile's ${home} ns): calibrate --only cache" >&2
    "$bin" calibrate --only cache -q -o "$file" 2>"$tmp/calib.err" ||
        { cat "$tmp/calib.err" >&2; exit 1; }
    p=$(key_ns "$file" cache_probe)
    if [ -n "$p" ] && ! regime_apart "$runs_probe" "$p"; then
        echo "validate_results: wrote $file (probe $p ns)" >&2
    else
        rm -f "$file"
        echo "validate_results: $1: the cache regime moved before its keys were measured (probe ${p:-none} ns against the runs' ${runs_probe} ns); none kept" >&2
    fi
}

grep -v '^#' "$targets" | grep -v '^ *$' >"$tmp/targets"
total=$(wc -l <"$tmp/targets")
n=0
: >"$tmp/loads"
: >"$tmp/kept"
while IFS='|' read -r name scenario backends args needs; do
    name=$(echo $name); scenario=$(echo $scenario); backends=$(echo $backends); needs=$(echo $needs)
    n=$((n + 1))
    [ -z "${ONLY:-}" ] || [ "$ONLY" = "$name" ] || { echo "$name" >>"$tmp/kept"; continue; }
    rubyopt= rubysets=
    case $needs in
    '') ;;
    ruby=*)
        want=${needs#ruby=}
        rb=${RUBIES:+$RUBIES/$want/bin/ruby}
        have=$([ -n "$rb" ] && [ -x "$rb" ] && "$rb" -e 'print RUBY_VERSION' 2>/dev/null)
        if [ "$have" != "$want" ]; then
            if [ -z "${RUBIES:-}" ]; then why="RUBIES is not set"
            elif [ -z "$have" ]; then why="no Ruby runs as $rb"
            else why="$rb is Ruby $have"; fi
            echo "validate_results: $n/$total $name: skipped, it needs Ruby $want built from source ($why: build it with scripts/build_ruby.sh REF DIR/$want and set RUBIES=DIR); its committed rows are kept" >&2
            echo "$name" >>"$tmp/kept"
            continue
        fi
        rubyopt=$rb
        # that Ruby's own insn_time and method_work (its VM and its
        # File.mtime/File.write differ from the profile's Ruby), measured
        # once per Ruby, laid over host.json for its targets' runs, and
        # kept beside them for scripts/docs/validate.sh
        rp=$out/ruby-$want.json
        if ! grep -qx "$want" "$tmp/rubies" 2>/dev/null; then
            wait_quiet
            echo "validate_results: calibrating Ruby $want (--only ruby)" >&2
            # shellcheck disable=SC2086
            "$bin" calibrate --only ruby --ruby "$rb" $quick -o "$rp" 2>"$tmp/calib.err" ||
                { cat "$tmp/calib.err" >&2; exit 1; }
            grep 'warning:' "$tmp/calib.err" >&2
            echo "$want" >>"$tmp/rubies"
        fi
        rubysets=$("$(dirname "$0")/profile_sets.sh" "$rp") || exit 1
        echo "ruby_$name=$("$rb" -v)" >>"$tmp/loads"
        echo "host_$name=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $(nproc) CPUs, kernel $(uname -r)" >>"$tmp/loads" ;;
    *) echo "validate_results: $targets: $name: unknown fifth field \"$needs\" (ruby=VERSION)" >&2; exit 1 ;;
    esac
    wait_quiet
    line=$(line_ns)
    before=$(cut -d' ' -f1 /proc/loadavg)
    echo "validate_results: $n/$total $name (idle ${idle}%, load $before)" >&2
    start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    # shellcheck disable=SC2086
    "$bin" validate "$scenario" --backend "$backends" $args ${rubyopt:+--ruby "$rubyopt"} --set machine="$out/host.json" $rubysets --reps "$runs" \
        ${MAX_SPREAD:+--max-spread "$MAX_SPREAD"} --rows "$tmp/$name.rows.csv" -o /dev/null -q </dev/null >/dev/null 2>"$tmp/err"
    code=$?
    if [ $code -eq 4 ]; then
        echo "validate_results: $name: some runs failed and are left out:" >&2
        # each failure line and the indented reason under it
        awk '/failed:$/ { print; r = 1; next } r && /^  / { print; next } { r = 0 }' "$tmp/err" | head -n 40 >&2
    elif [ $code -ne 0 ]; then
        echo "validate_results: $name: gvlsim validate failed (exit $code):" >&2
        cat "$tmp/err" >&2
        exit 1
    fi
    mv "$tmp/$name.rows.csv" "$out/$name.rows.csv" || exit 1
    echo "load_$name=$idle,$before,$(cut -d' ' -f1 /proc/loadavg)" >>"$tmp/loads"
    echo "time_$name=$start,$(date -u +%Y-%m-%dT%H:%M:%SZ)" >>"$tmp/loads"
    [ -z "$line" ] || echo "line_$name=$line" >>"$tmp/loads"
    capture_regime "$name"
done <"$tmp/targets"

# host.txt: a new measurement of every target replaces it; the targets not
# measured (ONLY=, a built Ruby missing) keep their lines.  Its first lines
# (host, Ruby, tree, runs) describe the issue's targets: measuring only
# targets on built Rubies (ONLY=NAME of one) keeps them, since the rows they
# describe were not measured again.
{
    if [ -n "${ONLY:-}" ] && [ -f "$out/host.txt" ] &&
        grep -v '^#' "$targets" | grep -qE "^ *$ONLY *\|.*\| *ruby="; then
        grep -vE '^(load|time|ruby|host|line)_' "$out/host.txt"
    else
        echo "cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
        echo "cpus=$(nproc)"
        echo "kernel=$(uname -r)"
        echo "ruby=$(ruby -e 'print RUBY_DESCRIPTION' 2>/dev/null || echo none)"
        echo "date=$(date -u +%Y-%m-%d)"
        echo "commit=$commit"
        echo "runs=$runs"
        echo "quick=${QUICK:-0}"
        echo "quiet_idle=$quiet_idle"
        echo "max_spread=${MAX_SPREAD:-10}"
    fi
    if [ -f "$out/host.txt" ]; then
        while read -r kept; do grep -E "^(load|time|ruby|host|line)_$kept=" "$out/host.txt"; done <"$tmp/kept"
    fi
    cat "$tmp/loads"
} >"$tmp/host.txt"
mv "$tmp/host.txt" "$out/host.txt" || exit 1

# targets.txt of the host: the line of each target as its rows were measured
# (the current list's for those measured now; a kept target keeps the line it
# was measured with), so that a later change to the shared list (a target's
# arguments) does not set old runs beside a program they did not run.
{
    echo "# The targets as the runs of this directory were measured (scripts/validate_results.sh"
    echo "# writes it; scripts/docs/validate.sh simulates these lines). The current list, which"
    echo "# the next measurement takes, is docs/data/validate/targets.txt."
    while IFS='|' read -r name _rest; do
        name=$(echo $name)
        if grep -qx "$name" "$tmp/kept"; then
            [ -f "$out/targets.txt" ] && grep -E "^ *$name *\|" "$out/targets.txt"
        else
            grep -E "^ *$name *\|" "$tmp/targets"
        fi
    done <"$tmp/targets"
} >"$tmp/host_targets"
mv "$tmp/host_targets" "$out/targets.txt" || exit 1
case $out in docs/data/validate/hosts/*)
    "$(dirname "$0")/docs/validate.sh" -b "$bin" && "$(dirname "$0")/docs/render.sh" ;;
esac
