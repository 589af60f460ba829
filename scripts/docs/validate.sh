#!/bin/sh
# validate.sh [-b GVLSIM] [--check [all]] - the fidelity tables of the README:
# the measured runs committed under docs/data/validate, one directory per
# measured host, set beside this tree's simulator.
#
# docs/data/validate/targets.txt lists the targets ("NAME | SCENARIO |
# BACKENDS | ARGUMENTS [| ruby=VERSION]").  Each directory
# docs/data/validate/hosts/HOST holds one host's measurement (written by
# scripts/validate_results.sh there): its profile host.json (`gvlsim
# calibrate`), host.txt (the host, the load), NAME.rows.csv, the real runs of
# each target measured on it, and targets.txt, the lines of the targets as
# they were measured there (the list may have changed since: old runs are
# set beside the program they ran).  For every host and every target
# whose runs HOST/NAME.rows.csv exist, this runs
#     gvlsim validate SCENARIO --backend BACKENDS ARGUMENTS --seeds SEEDS
#         --set machine=docs/data/validate/hosts/HOST/host.json
#         --measured docs/data/validate/hosts/HOST/NAME.rows.csv -o NAME.csv
# (with --sensitivity --sensitivity-seeds 1 for the host measured last,
# but for its targets on a Ruby built from source: each figure's range
# over its profile's interquartile ranges, below)
# which simulates afresh and nothing else (no real run, so a target measured
# on a Ruby built from source needs no such Ruby here): HOST/NAME.csv is the
# comparison table (docs/validate.md) that scripts/docs/tables/validate*.awk
# render, one table per host.  A target a host has no runs of (a Ruby built
# from source not measured there yet) is left out of that host's tables.
# The simulated side is the median over SEEDS seeds (below: odd, so the
# median is one of the runs; their minimum and maximum are in NAME.csv
# too), as the measured side is the median of the interleaved runs: a seed
# is one draw of the simulator's random elements (docs/validate.md, "The
# simulated side: a median over seeds").  The targets run two at a time
# (each `gvlsim validate` is one process writing its own table, so the
# result does not depend on the order).
# The cache regime (docs/validate.md, "The cache regime"): a target whose
# runs met another cache regime than the profile's - their probe (the
# median of NAME.rows.csv's line_probe_ns, else host.txt's line_NAME) more
# than 1.5x from host.json's cache_probe - is simulated with the cache keys
# of the host's profile of that regime, HOST/cache-*.json (`gvlsim
# calibrate --only cache` in that regime: the one whose cache_probe is
# nearest the runs' probe, if nearer than host.json's), given as --set machine.KEY=VALUE
# after host.json; HOST/regimes.txt says which target took which (one line
# NAME=FILE,PROBE; empty when none did).
# The wake drift (docs/validate.md, "The wake drift"): a target whose runs
# recorded the wake probe (NAME.rows.csv's wake_probe_ns, `gvlsim validate`
# takes it before each real run) is simulated with its median as
# wake_idle_core, the wake the runs met, and with the median of that
# probe's cost to its waker (wake_cost_probe_ns, when recorded) less
# host.json's futex_wake as wake_ipi; and one whose runs recorded the
# speed probe (speed_slow_share) with host.json's speed levels at the
# median share (docs/validate.md, "The speed drift").
# A target on a Ruby built from source (ruby=VERSION) whose host has
# HOST/ruby-VERSION.json (`gvlsim calibrate --only ruby` with that Ruby,
# written by scripts/validate_results.sh beside its runs) is simulated with
# that Ruby's insn_time and method_work laid over host.json, as its runs were.
#   validate.sh          rewrite the NAME.csv that differ (`make docs`)
#   validate.sh          ... and, every table being this tree's, writes the
#                        stamp docs/data/validate/sources.sha256: the hash of
#                        the sources they were made from (sources_sha.sh; -b
#                        is this tree's build, as make docs gives it)
#   validate.sh --check all  change nothing; fail if a NAME.csv is not what
#                        this tree's simulator gives (CI: DOCS_CHECK_EVENTS=all
#                        make test): a model change that moves a simulated
#                        figure of a table shows here, and `make docs` brings
#                        the tables (and whether each target is met) up to date.
#                        While the stamp is these sources' (make docs ran on
#                        them), the half check below instead: every table was
#                        made from them, so only its slice is simulated again.
#                        Every table whole, but the ranges re-made for one
#                        target only (sens_check below, mtime2: cheap, and it
#                        has them; all of them took 180 CPU seconds, 1.5
#                        minutes of CI's 2 CPUs), since a range moves only with the
#                        model, which moves the figures checked here too, or
#                        with the variants calib_map derives, which this
#                        target's ranges check end to end).
#   validate.sh --check  the same for some of the tables (`make docs-test`): each
#                        target on one host, the hosts taking turns (the k-th
#                        target on the (k mod n)-th of the n hosts that
#                        measured it), so that every target is simulated; and
#                        without --sensitivity: the columns a plain validate
#                        writes (every figure, measured and simulated, and
#                        its error) are compared, the ranges are not.  The
#                        ranges cost ~70 simulations per configuration against
#                        the figure's 15 (85 of make test's ~110 CPU seconds
#                        here were theirs); CI's `--check all` compares
#                        mtime2's byte for byte, and tests/e2e/validate_sensitivity.sh
#                        and test_sensitivity check how they are made.
set -u
name=validate.sh
. "$(dirname "$0")/args.inc"
seeds=15
jobs=2
sens_check=mtime2
top_dir=docs/data/validate
# the stamp: what the tables were made from (scripts/docs/sources_sha.sh),
# written by make docs once every table is this tree's; while it holds,
# --check all is the half check (the tables were all re-made from these
# very sources: re-simulating them all again would tell nothing new, and
# took 520 of CI's 860 seconds), its slice still re-simulated here
stamp=$top_dir/sources.sha256
sources=
if [ $check_all -eq 1 ] || [ $check -eq 0 ]; then  # (the half check has no use for it)
    sources=$(sh "$(dirname "$0")/sources_sha.sh") || exit 2
fi
# a source git does not track yet is not in the stamp: once added, the
# stamp written now would not be its commit's (CI then re-simulates every
# table)
if [ $check -eq 0 ]; then
    loose=$(sh "$(dirname "$0")/sources_sha.sh" --loose | tr '\n' ' ')
    [ -z "$loose" ] || echo "validate.sh: warning: not tracked by git, so not in the stamp until added (git add, then run this again): $loose" >&2
fi
stamped=0
if [ $check_all -eq 1 ] && [ -n "$sources" ] && [ "$sources" = "$(cat "$stamp" 2>/dev/null)" ]; then
    stamped=1
    check_all=0
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
hosts=$(ls -d "$top_dir"/hosts/*/ 2>/dev/null | sed 's|/$||')
[ -n "$hosts" ] || { echo "validate.sh: no host directory under $top_dir/hosts" >&2; exit 1; }
# the host measured last (the earliest time_ line of its host.txt, else
# its date=; lib.awk's vhosts orders the README's sections the same way):
# its tables get each figure's range over its profile's interquartile
# ranges (validate --sensitivity, one seed per move: about 70 more
# simulations of every configuration; for every host, make docs would
# take minutes more), the older hosts' tables none
first_time() {
    t=$(sed -n 's/^time_[^=]*=\([^,]*\),.*/\1/p' "$1/host.txt" 2>/dev/null | sort | head -n 1)
    [ -n "$t" ] || t=$(sed -n 's/^date=//p' "$1/host.txt" 2>/dev/null | head -n 1)
    echo "$t"
}
sens_host=$(for dir in $hosts; do echo "$(first_time "$dir") $dir"; done | sort | tail -n 1 | cut -d' ' -f2)
for dir in $hosts; do
    [ -f "$dir/host.json" ] || { echo "validate.sh: $dir/host.json: no profile (scripts/validate_results.sh writes it)" >&2; exit 1; }
    [ -f "$dir/targets.txt" ] || { echo "validate.sh: $dir/targets.txt: not there (scripts/validate_results.sh writes the targets as measured)" >&2; exit 1; }
done
# the jobs: "DIR NAME", one per host and measured target, each simulated
# with the line of the host's own targets.txt: the arguments its runs had
for dir in $hosts; do
    mkdir -p "$tmp/$dir" || exit 2
    grep -v '^#' "$dir/targets.txt" | grep -v '^ *$' >"$tmp/$dir/targets"
    while IFS='|' read -r name _rest; do
        name=$(echo $name)
        sens=0
        # the ranges: the host measured last, its targets on Debian's Ruby
        # and the executor (not those on a Ruby built from source, 68 of
        # its 355 CPU-seconds; docs/validate.md, "Only the host measured
        # last, only the issue's targets")
        [ "$dir" = "$sens_host" ] && ! echo "$_rest" | grep -q '| *ruby=' && sens=1
        # the half check leaves the ranges out, the whole check all but
        # $sens_check's (above)
        [ $check -eq 1 ] && [ $check_all -eq 0 ] && sens=0
        [ $check_all -eq 1 ] && [ "$name" != "$sens_check" ] && sens=0
        [ -f "$dir/$name.rows.csv" ] && echo "$dir $name $sens"
    done <"$tmp/$dir/targets"
    # runs without their line would be left out silently: refuse them
    for r in "$dir"/*.rows.csv; do
        [ -f "$r" ] || continue
        t=$(basename "$r" .rows.csv)
        grep -qE "^ *$t *\|" "$tmp/$dir/targets" ||
            { echo "validate.sh: $r: no line for $t in $dir/targets.txt" >&2; echo FAIL >"$tmp/bad"; }
    done
done >"$tmp/list"
[ -f "$tmp/bad" ] && exit 1
if [ $check -eq 1 ] && [ $check_all -eq 0 ]; then
    # each target on one host: target k (in order of first appearance) on
    # the (k mod n)-th of the n hosts that measured it, so that the hosts
    # take turns and a target measured on a few hosts only (a Ruby built
    # from source) is checked as well
    awk 'NR == FNR { if (!($2 in t)) t[$2] = ntgt++; k = $2 SUBSEP n[$2]++; host[k] = $1; next }
         host[$2 SUBSEP (t[$2] % n[$2])] == $1' "$tmp/list" "$tmp/list" >"$tmp/list.half" &&
        mv "$tmp/list.half" "$tmp/list"
fi
# job.sh SCRIPTS BIN SEEDS TMP DIR NAME SENS: one host's target simulated into
# TMP/DIR/NAME.csv (its exit status in NAME.rc, its stderr in NAME.err, the
# cache profile it took in NAME.regime), with the ranges of --sensitivity
# when SENS is 1
cat >"$tmp/job.sh" <<'JOB'
scripts=$1 bin=$2 seeds=$3 tmp=$4 dir=$5 want=$6 sens=$7
sens_args=""
[ "$sens" = 1 ] && sens_args="--sensitivity --sensitivity-seeds 1"
mkdir -p "$tmp/$dir" || exit 1
# key_ns, col_median, regime_apart, regime_dist
. "$scripts/regime.inc"
rows=$dir/$want.rows.csv
# the runs' probe: their line_probe_ns (median), else host.txt's line_NAME
probe=$(col_median "$rows" line_probe_ns)
[ -n "$probe" ] || probe=$(sed -n "s/^line_$want=//p" "$dir/host.txt" 2>/dev/null | head -n 1)
home=$(key_ns "$dir/host.json" cache_probe)
sets=
: >"$tmp/$dir/$want.regime"
if [ -n "$probe" ] && [ -n "$home" ] && regime_apart "$probe" "$home"; then
    # the regimes lie several times apart and the runs' probe may be
    # host.txt's timed add (scripts/line_load_then_add.c), which reads
    # 15-25 ns above calibrate's probe: the nearest profile (on a log
    # scale) nearer than host.json's is the runs' regime
    best= bestd=$(regime_dist "$probe" "$home")
    for f in "$dir"/cache-*.json; do
        [ -f "$f" ] || continue
        p=$(key_ns "$f" cache_probe)
        [ -n "$p" ] || continue
        d=$(regime_dist "$probe" "$p")
        if awk -v x="$d" -v y="$bestd" 'BEGIN { exit !(x < y) }'; then best=$f bestd=$d; fi
    done
    if [ -n "$best" ]; then
        sets=$("$scripts/profile_sets.sh" "$best" line_transfer lock_line remote_rmw free_remote \
               sched_lock_cs line_store_batch cache_probe) || exit 1
        echo "$want=$(basename "$best"),$probe" >"$tmp/$dir/$want.regime"
    fi
fi
# the runs' wake (docs/validate.md, "The wake drift"): the median of their
# wake probes is the wake_idle_core they met (runs measured before the probe
# was recorded have none, and keep the profile's)
wake=$(col_median "$rows" wake_probe_ns)
[ -n "$wake" ] && sets="$sets --set machine.wake_idle_core=${wake}ns"
# and what that wake cost its waker, when the runs recorded it
# (wake_cost_probe_ns: its FUTEX_WAKE with the IPI, as calibrate's
# wake_ipi_after_idle_10us_ns): wake_ipi is that less host.json's
# futex_wake, as calibrate derives it (exec/calib_map.c)
cost=$(col_median "$rows" wake_cost_probe_ns)
fw=$(key_ns "$dir/host.json" futex_wake)
if [ -n "$cost" ] && [ -n "$fw" ]; then
    ipi=$(awk -v c="$cost" -v f="$fw" 'BEGIN { d = c - f; printf "%.0f", (d > 0 ? d : 0) }')
    sets="$sets --set machine.wake_ipi=${ipi}ns"
fi
# the runs' speed (docs/validate.md, "The speed drift"): the median of
# their speed probes' shares of windows at the slow level, with host.json's
# levels and the same mean cycle - the slowest level's dwell that share of
# the dwells' sum, the others the rest in their proportions (the share
# kept within 2-98%: an exponential dwell needs a length); runs without
# the probe, or a profile without levels, keep the profile's
share=$(col_median "$rows" speed_slow_share)
if [ -n "$share" ]; then
    dwell=$(sed -n 's/^  "speed_levels": \[\(.*\)\],\{0,1\}$/\1/p' "$dir/host.json" | head -n 1 |
        awk -v s="$share" -v d="$(sed -n 's/^  "speed_dwell": \[\(.*\)\],\{0,1\}$/\1/p' "$dir/host.json" | head -n 1)" '
        function ns(x) { gsub(/[" ]/, "", x); u = x; sub(/^[0-9.eE+-]*/, "", u); v = substr(x, 1, length(x) - length(u)) + 0
                         return u == "ms" ? v * 1e6 : u == "us" ? v * 1e3 : u == "s" ? v * 1e9 : v }
        { n = split($0, lv, ","); if (split(d, dw, ",") != n || n < 2) exit
          slow = 1; T = 0
          for (i = 1; i <= n; i++) { dw[i] = ns(dw[i]); T += dw[i]; if (lv[i] + 0 > lv[slow] + 0) slow = i }
          if (s < 0.02) s = 0.02; if (s > 0.98) s = 0.98
          out = "["
          for (i = 1; i <= n; i++) {
              x = i == slow ? s * T : dw[i] * (1 - s) * T / (T - dw[slow])
              out = out (i > 1 ? "," : "") sprintf("\"%.0fns\"", x) }
          print out "]" }')
    [ -n "$dwell" ] && sets="$sets --set machine.speed_dwell=$dwell"
fi
while IFS='|' read -r name scenario backends args needs; do
    name=$(echo $name)
    [ "$name" = "$want" ] || continue
    scenario=$(echo $scenario); backends=$(echo $backends); needs=$(echo $needs)
    # a Ruby built from source: its own insn_time and method_work, when its
    # runs came with them (HOST/ruby-VERSION.json, `calibrate --only ruby`)
    case $needs in ruby=*)
        rp="$dir/ruby-${needs#ruby=}.json"
        if [ -f "$rp" ]; then sets="$sets $("$scripts/profile_sets.sh" "$rp")" || exit 1; fi ;;
    esac
    # (profile_sets.sh's curves are words of JSON: not globbed)
    set -f
    # shellcheck disable=SC2086
    "$bin" validate "$scenario" --backend "$backends" $args --seeds "$seeds" --set machine="$dir/host.json" $sets \
        $sens_args --measured "$dir/$name.rows.csv" -o "$tmp/$dir/$name.csv" -q >/dev/null 2>"$tmp/$dir/$name.err"
    echo $? >"$tmp/$dir/$name.rc"
    set +f
done <"$tmp/$dir/targets"
JOB
xargs -P "$jobs" -L 1 sh "$tmp/job.sh" "$(cd "$(dirname "$0")/.." && pwd)" "$bin" "$seeds" "$tmp" <"$tmp/list"
rc=0
while read -r dir name sens; do
    if [ "$(cat "$tmp/$dir/$name.rc" 2>/dev/null)" != 0 ]; then
        echo "validate.sh: $dir: $name: gvlsim validate failed:" >&2
        cat "$tmp/$dir/$name.err" >&2 2>/dev/null
        exit 1
    fi
    want=$dir/$name.csv
    if [ $check -eq 1 ] && [ "$sens" = 0 ] && [ "$dir" = "$sens_host" ]; then
        # the committed table has the range columns after those of the plain
        # run: compare that many columns (no field of these tables is quoted)
        want=$tmp/$dir/$name.want
        awk -F, 'NR == FNR { if (FNR == 1) n = NF; next }
                 { l = $1; for (i = 2; i <= n; i++) l = l FS $i; print l }' \
            "$tmp/$dir/$name.csv" "$dir/$name.csv" >"$want"
    fi
    if cmp -s "$tmp/$dir/$name.csv" "$want"; then
        :
    elif [ $check -eq 1 ]; then
        echo "validate.sh: $dir/$name.csv is not what this tree's simulator gives (run make docs):"
        diff "$want" "$tmp/$dir/$name.csv" | head -n 6 | cut -c1-200
        exit 1
    else
        cp "$tmp/$dir/$name.csv" "$dir/$name.csv.tmp" && mv "$dir/$name.csv.tmp" "$dir/$name.csv" &&
            echo "validate.sh: rewrote $dir/$name.csv"
    fi
done <"$tmp/list"
# HOST/regimes.txt: which target took which cache profile (in the order of
# the host's targets; only with every target of the host simulated, and
# only for a host with cache profiles)
if [ $check_all -eq 1 ] || [ $check -eq 0 ]; then
    for dir in $hosts; do
        ls "$dir"/cache-*.json >/dev/null 2>&1 || [ -f "$dir/regimes.txt" ] || continue
        while read -r d name _sens; do
            [ "$d" = "$dir" ] && cat "$tmp/$dir/$name.regime"
        done <"$tmp/list" >"$tmp/$dir/regimes.txt"
        if cmp -s "$tmp/$dir/regimes.txt" "$dir/regimes.txt"; then
            :
        elif [ $check -eq 1 ]; then
            echo "validate.sh: $dir/regimes.txt is not what this tree gives (run make docs)"
            exit 1
        else
            cp "$tmp/$dir/regimes.txt" "$dir/regimes.txt" && echo "validate.sh: rewrote $dir/regimes.txt"
        fi
    done
fi
# a NAME.csv without its runs (a target renamed or dropped) would still be
# rendered: refuse it
for dir in $hosts; do
    for t in "$dir"/*.csv; do
        case $t in *.rows.csv) continue ;; esac
        [ -f "${t%.csv}.rows.csv" ] || { echo "validate.sh: $t has no runs ${t%.csv}.rows.csv: remove it" >&2; rc=1; }
    done
done
[ $rc -eq 0 ] && [ $check -eq 1 ] &&
    echo "validate.sh: $(wc -l <"$tmp/list") fidelity tables of $(echo "$hosts" | wc -l) hosts match this tree's simulator ($seeds seeds$([ $check_all -eq 0 ] && [ $stamped -eq 0 ] && echo ", ranges not re-made: --check all")$([ $check_all -eq 1 ] && echo ", ranges re-made for $sens_check: make docs re-makes them all"))$([ $stamped -eq 1 ] && echo "; the others were made from these very sources ($stamp)")$([ $check_all -eq 1 ] && [ -n "$sources" ] && echo "; $stamp is not these sources': make docs writes it")"
# every table is this tree's now: the stamp says from what
if [ $rc -eq 0 ] && [ $check -eq 0 ] && [ -n "$sources" ] && [ "$sources" != "$(cat "$stamp" 2>/dev/null)" ]; then
    echo "$sources" >"$stamp.tmp" && mv "$stamp.tmp" "$stamp" && echo "validate.sh: rewrote $stamp"
fi
exit $rc
