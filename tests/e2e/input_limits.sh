#!/bin/sh
# input_limits.sh BINARY - what the loader refuses or bounds: FIFOs without a
# writer (and pipes with one), a file of millions of values, nesting, files
# that are not JSON.  Run from the repository root by tests/e2e/run.sh.
set -u
bin=$1
. tests/e2e/lib.inc

# -- a FIFO that nothing writes to: refused at once (exit 5), never a hang
mkfifo "$tmp/fifo"
timeout 20 "$bin" check "$tmp/fifo" >"$tmp/out" 2>"$tmp/err"
code=$?
expect_code 5 "FIFO without a writer"
expect_line err "$tmp/fifo: cannot read scenario: a pipe or FIFO with no data and no writer" "FIFO without a writer"

# ... and as a machine profile
printf '{"machine": "%s", "ractors": [{"threads": [{}]}]}\n' "$tmp/fifo" >"$tmp/prof_fifo.json"
timeout 20 "$bin" check "$tmp/prof_fifo.json" >"$tmp/out" 2>"$tmp/err"
code=$?
expect_code 5 "profile FIFO without a writer"
expect_line err "$tmp/fifo: cannot read machine profile: a pipe or FIFO with no data and no writer" "profile FIFO"

# -- pipes with a writer are read: stdin, a pipeline, a FIFO being written
timeout 20 "$bin" check /dev/stdin <tests/data/minimal.json >"$tmp/out" 2>"$tmp/err"
code=$?
expect_code 0 "/dev/stdin redirected"
cat tests/data/minimal.json | timeout 20 "$bin" check /dev/stdin >"$tmp/out" 2>"$tmp/err"
code=$?
expect_code 0 "/dev/stdin from a pipeline"
expect_line out "/dev/stdin: ok (1 ractor, 1 thread, machine default, 8 cores, policy eager)" "pipeline"
# a sweep reads its scenario once, so that a pipe serves every run
cat tests/data/minimal.json | timeout 20 "$bin" sweep /dev/stdin --param machine.cores=1,2 -q >"$tmp/out" 2>"$tmp/err"
code=$?
expect_code 0 "sweep from a pipe"
expect_lines out 3 "sweep from a pipe"
# A writer holds the FIFO open (read-write: opening never blocks) until
# gvlsim has opened it too, then closes it: gvlsim reads to the end.
exec 3<>"$tmp/fifo"
cat tests/data/minimal.json >&3
"$bin" check "$tmp/fifo" >"$tmp/out" 2>"$tmp/err" 3>&- &
pid=$!
i=0
# (gvlsim itself, after exec: the forked shell holds fd 3 until its redirection)
while [ $i -lt 400 ] && ! { [ "$(readlink "/proc/$pid/exe")" = "$(readlink -f "$bin")" ] &&
                            ls -l "/proc/$pid/fd" 2>/dev/null | grep -q "$tmp/fifo"; }; do
    sleep 0.05
    i=$((i + 1))
done
exec 3>&-
i=0
while [ $i -lt 400 ] && kill -0 $pid 2>/dev/null && ! grep -q '^State:.Z' "/proc/$pid/status" 2>/dev/null; do
    sleep 0.05
    i=$((i + 1))
done
kill $pid 2>/dev/null
wait $pid
code=$?
expect_code 0 "FIFO with a writer"
expect_line out "$tmp/fifo: ok (1 ractor, 1 thread, machine default, 8 cores, policy eager)" "FIFO with a writer"

# -- millions of values in a file under the 64 MiB limit: refused with exit 3
# after at most 1,000,000 values, or one per 16 bytes of a larger file (here
# 40 MB: 2,500,000), in bounded memory (before: 5.6 GB; here under 1 GB)
# A sanitizer build parses 2.5M values in 20 s: it takes a 4 MB file of 2M
# values, refused at the fixed bound of 1,000,000 (the same loader path; the
# memory bound is the release build's to check)
if [ "${GVLSIM_SANITIZED:-}" ]; then
    bytes=6000000 at=2000000 bound=1000000 what="2M values"
else
    bytes=60000000 at=5000000 bound=2500000 what="30M values"
fi
{ printf '['; yes '0,' | head -c $bytes | tr -d '\n'; printf '0]'; } >"$tmp/big.json"
if [ "${GVLSIM_SANITIZED:-}" ]; then
    run check "$tmp/big.json"      # ASan reserves terabytes of address space: no ulimit -v
else
    (ulimit -v 1000000; exec "$bin" check "$tmp/big.json") >"$tmp/out" 2>"$tmp/err"
    code=$?
fi
expect_code 3 "$what"
expect_line err "$tmp/big.json:1:$at: more than $bound JSON values: the loader stops here, to bound the memory it takes" "$what"
rm -f "$tmp/big.json"

# -- loops nested 32 deep (the documented limit) load and run; 33 do not
nest() {  # nest N: a scenario with N nested loops around a compute op
    n=$1
    printf '{"ractors": [{"threads": [{"program": '
    i=0; while [ $i -lt "$n" ]; do printf '[{"op": "loop", "times": 1, "body": '; i=$((i + 1)); done
    printf '[{"op": "compute", "dur": {"dist": "uniform", "min": "1us", "max": "2us"}}]'
    i=0; while [ $i -lt "$n" ]; do printf '}]'; i=$((i + 1)); done
    printf '}]}]}\n'
}
# (tests/data/nest32.json is nest 32's output; exec.sh runs it on the executor)
nest 32 | cmp -s - tests/data/nest32.json || { checks=$((checks + 1)); fail "tests/data/nest32.json is not nest 32's output"; }
run run tests/data/nest32.json -q --reproducible --no-header
expect_code 0 "32 nested loops"
expect_match out '^nest32,sim,native,' "32 nested loops"
nest 33 >"$tmp/nest33.json"
run check "$tmp/nest33.json"
expect_code 3 "33 nested loops"
expect_match err ': blocks \(loop, measure, branch, synchronize\) nested deeper than 32$' "33 nested loops"
nest 35 >"$tmp/nest35.json"
run check "$tmp/nest35.json"
expect_code 3 "35 nested loops"
expect_match err ': nesting deeper than 74 levels$' "35 nested loops"

# -- what RFC 8259 forbids, with positions
printf '{"seed": 012, "ractors": [{"threads": [{}]}]}' >"$tmp/zero.json"
run check "$tmp/zero.json"
expect_code 3 "leading zero"
expect_line err "$tmp/zero.json:1:10: a number cannot have a leading zero" "leading zero"
printf '{"machine": "report_m4\\u0000evil", "ractors": [{"threads": [{}]}]}' >"$tmp/nul.json"
run check "$tmp/nul.json"
expect_code 3 "\\u0000"
expect_line err "$tmp/nul.json:1:23: \\u0000 is not allowed in a string (it would cut the string short)" "\\u0000"

# -- a profile path to a file that is not JSON: nothing of it is quoted
printf 'root:$6$Zk2Xr9$s3cr3thash:19000:0:99999:7:::\n' >"$tmp/shadow"
printf '{"machine": "%s", "ractors": [{"threads": [{}]}]}\n' "$tmp/shadow" >"$tmp/prof_shadow.json"
run check "$tmp/prof_shadow.json"
expect_code 3 "profile is not JSON"
expect_line err "$tmp/shadow:1:1: syntax error: this is not JSON (its text is not quoted)" "profile is not JSON"
checks=$((checks + 1))
! grep -q 's3cr3t' "$tmp/err" || fail "profile is not JSON: its text was quoted"

# -- control characters from the input are escaped: one line per message
printf '{"\\u001b[2J\\nforged": 1, "ractors": [{"threads": [{}]}]}' >"$tmp/esc.json"
run check "$tmp/esc.json" --set "$(printf 'runtime.x\033[31m=1')"
expect_code 3 "escaped keys"
expect_lines err 2 "escaped keys"
expect_match err '^.*esc.json:1:2: /\\x1b\[2J\\nforged: unknown key "\\x1b\[2J\\nforged"' "escaped key"
expect_match err '^--set\[1\]:1:9: /runtime/x\\x1b\[31m: unknown key' "escaped --set key"
checks=$((checks + 1))
! grep -q "$(printf '\033')" "$tmp/err" || fail "escaped keys: a raw ESC reached stderr"

finish "$script"
