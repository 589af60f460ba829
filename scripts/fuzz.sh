#!/bin/sh
# fuzz.sh BUILD_DIR SECONDS TARGET... - run each libFuzzer target
# BUILD_DIR/fuzz_TARGET for SECONDS, then keep what it found:
#   tests/fuzz/corpus/TARGET    the corpus, merged and minimised (-merge=1:
#                               only inputs that add coverage), replayed by
#                               `make test`;
#   tests/fuzz/crashers/TARGET  every crash, leak, timeout or out-of-memory
#                               input (fix it, and keep it: `make test`
#                               replays it);
#   tests/fuzz/runs.tsv         one line per run: date, target, seconds,
#                               executions, new crashers.
# Seeds: every scenario and machine profile of the repository (load, and run
# with load's kept corpus, and each seed scenario under every GVL
# policy), every CSV (csv), the GVL traces of
# tests/data/gvl-tracing and tests/bad/14-traces and a trace of gvlsim's own
# (import), besides the kept corpus.  Run from the repository root, after
# `make` (import's seeds use ./gvlsim).
set -u
[ $# -ge 3 ] || { echo "usage: scripts/fuzz.sh BUILD_DIR SECONDS TARGET..." >&2; exit 2; }
dir=$1 secs=$2
shift 2
status=0
for t in "$@"; do
    work=$dir/work-$t seeds=$dir/seeds-$t keep=tests/fuzz/corpus/$t crash=tests/fuzz/crashers/$t timeout=10
    mkdir -p "$work" "$keep" "$crash"
    rm -rf "$seeds"
    mkdir -p "$seeds"
    case $t in
    load|run)
        # (run simulates what loads: the same seeds, and load's kept corpus)
        [ "$t" = run ] && cp tests/fuzz/corpus/load/* "$seeds/"
        for f in $(git ls-files '*.json'); do cp "$f" "$seeds/$(echo "$f" | tr / _)"; done
        # a profile as a scenario's machine object, and scenarios with --set arguments
        for f in scenarios/machines/*.json; do
            { printf '{"machine": '; cat "$f"; printf ', "ractors": [{"threads": [{}]}]}'; } \
                >"$seeds/wrapped_$(basename "$f")"
        done
        printf '%s\0%s\0%s' "$(cat scenarios/examples/token_pingpong.json)" "machine.cores=1" \
            'ractors.0.threads.1.program.0={"op": "sleep", "dur": "1ms"}' >"$seeds/sets_token"
        printf '%s\0%s\0%s' "$(cat scenarios/mtime_loop.json)" "machine=report_m4" \
            "runtime.gvl_policy=hot_steal" >"$seeds/sets_mtime"
        # the simulation under every GVL policy: each seed scenario once
        # with each (a policy's own model - threshold's helper thread,
        # barging's native sleeps - runs only where a scenario selects it)
        if [ "$t" = run ]; then
            for f in scenarios/*.json scenarios/examples/*.json; do
                for p in eager hot_steal delayed threshold barging; do
                    printf '%s\0%s' "$(cat "$f")" "runtime.gvl_policy=$p" >"$seeds/policy_${p}_$(basename "$f")"
                done
            done
        fi
        opts="-max_len=8192 -dict=tests/fuzz/load.dict"
        # a run that stops on the no-progress guard (10M ops at one
        # instant, models/thread.c) takes seconds under the sanitizers
        [ "$t" = run ] && timeout=60 ;;
    csv)
        for f in $(git ls-files '*.csv'); do cp "$f" "$seeds/$(echo "$f" | tr / _)"; done
        opts="-max_len=4096" ;;
    import)
        # the real traces (decompressed, and their first events as whole traces:
        # short inputs mutate faster), the malformed ones, a trace of gvlsim's
        for f in tests/data/gvl-tracing/*.json.gz; do
            b=$(basename "$f" .json.gz)
            gzip -dc "$f" >"$seeds/$b.json"
            gzip -dc "$f" | head -n 40 | sed '$ s/,$//' >"$seeds/$b.head.json" && echo ']' >>"$seeds/$b.head.json"
        done
        cp tests/bad/14-traces/*.json tests/bad/14-traces/*.json.gz "$seeds/"
        ./gvlsim run tests/data/trace_tiny.json --machines scenarios/machines -q --trace "$seeds/gvlsim.json" >/dev/null
        opts="-max_len=16384 -dict=tests/fuzz/import.dict" ;;
    *) echo "fuzz.sh: unknown target $t" >&2; exit 2 ;;
    esac
    before=$(ls "$crash" | wc -l)
    echo "== fuzz $t for $secs s"
    "$dir/fuzz_$t" -max_total_time="$secs" -timeout="$timeout" -report_slow_units="$timeout" -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$crash/" $opts "$work" "$keep" "$seeds" </dev/null >"$dir/log-$t" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log-$t" | tail -1)
    grep -E '^(#[0-9]+ +(DONE|INITED)|==[0-9]+==ERROR|SUMMARY|stat::)' "$dir/log-$t" | tail -8
    # keep a minimal corpus: what the kept one and this run's cover
    rm -rf "$dir/merged-$t"
    mkdir -p "$dir/merged-$t"
    "$dir/fuzz_$t" -merge=1 $opts "$dir/merged-$t" "$keep" "$work" </dev/null >"$dir/merge-$t.log" 2>&1 &&
        rm -rf "$keep" && mv "$dir/merged-$t" "$keep"
    # an input mutated from an old file may name what no committed file may
    # (tests/docs/links.sh): it goes
    sh tests/docs/links.sh 2>/dev/null | grep "^$keep/" | cut -d: -f1 | sort -u | xargs -r rm -f
    after=$(ls "$crash" | wc -l)
    printf '%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$t" "$secs" "${execs:-0}" \
        "$((after - before))" >>tests/fuzz/runs.tsv
    echo "fuzz $t: ${execs:-0} executions, $((after - before)) new crasher(s), corpus $(ls "$keep" | wc -l) inputs"
    [ "$rc" -eq 0 ] && [ "$after" -eq "$before" ] || status=1
done
exit $status
