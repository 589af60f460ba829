#!/bin/sh
# sweep_ruby.sh BINARY - `gvlsim sweep --backend ruby`: the points run as
# Ruby programs on a real Ruby, one at a time, the rows in run order with
# the exact facts of each run (syscalls, threads, the Ruby's version as the
# engine), --ruby-opt passed on, options of other backends refused.
# Needs Debian's ruby (optional: skipped with a line saying so).  Nothing
# here depends on timing: --max-spread 1000 lets a busy host calibrate.
# real-threads: sweeps on the Ruby backend (`make test` runs such scripts with nothing else at work: tests/e2e/run.sh)
set -u
bin=$1
. tests/e2e/lib.inc
need_cmd ruby ruby
sweep="sweep scenarios/mtime_loop.json --backend ruby --max-spread 1000
       --set runtime.gvl_policy=barging --set ractors.0.threads.1.count=2
       --set ractors.0.threads.1.program.0.times_total=400 --param machine.cores=1 --seeds 2 -q"
# shellcheck disable=SC2086
run $sweep -o "$tmp/rb.csv"
expect_code 0 "a sweep on Ruby"
version=$(ruby -e 'print RUBY_VERSION')
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { printf "%s,%s,%s,%s,%s,%s\n", $c["point"], $c["rep"], $c["backend"], $c["engine"], $c["threads"],
             $c["syscalls"] }' "$tmp/rb.csv" >"$tmp/facts"
printf '0,0,ruby,ruby %s,3,400\n0,1,ruby,ruby %s,3,400\n' "$version" "$version" >"$tmp/want"
checks=$((checks + 1))
cmp -s "$tmp/facts" "$tmp/want" || fail "ruby sweep rows: $(cat "$tmp/facts")"
run compare "$tmp/rb.csv" "$tmp/rb.csv"
expect_code 0 "Ruby rows against themselves"
expect_match out "no change: 1 configuration" "the two replicates are one configuration"
# a setting this Ruby cannot honour fails each run (exit 7), reported per run
# shellcheck disable=SC2086
run $sweep --set runtime.gvl_policy=delayed -o "$tmp/x.csv"
expect_code 7 "a policy this Ruby does not have"
expect_match err "runtime.gvl_policy = delayed" "the setting is named"
# shellcheck disable=SC2086
run $sweep --ruby-opt=--disable-gems -o "$tmp/o.csv"
expect_code 0 "--ruby-opt passed on"
run sweep scenarios/mtime_loop.json --ruby-opt=--yjit -q -o "$tmp/x.csv"
expect_code 2 "--ruby-opt without --backend ruby"
finish sweep_ruby.sh
