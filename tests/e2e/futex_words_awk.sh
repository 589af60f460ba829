#!/bin/sh
# futex_words_awk.sh BINARY - scripts/futex_words.awk on made-up counts of
# scripts/futex_words.bt: the main thread (tid 10) sleeps 5 times on a
# mutex word and returns at once 7 times, sleeps 6 + 2 times on the two
# words of one condvar and 4 times in ppoll; tid 11, "ruby" for one call and
# "worker" after, sleeps 3 times on the mutex, times out 2 waits on another
# condvar and wakes the first condvar's waiter 8 times.  Then no counts:
# exit 1, said.
set -u
bin=$1
. tests/e2e/lib.inc
cat >"$tmp/f.txt" <<'END'
Attaching 6 probes...

@ppoll[10, ruby, 1]: 4
@wait[10, ruby, 0x55000000a0d8, 0, 2, 1, 0]: 5
@wait[10, ruby, 0x55000000a0d8, 0, 2, 0, -11]: 7
@wait[10, ruby, 0x55000000b190, 9, 0, 1, 0]: 6
@wait[10, ruby, 0x55000000b194, 9, 0, 1, 0]: 2
@wake[10, ruby, 0x55000000a0d8, 1, 1]: 3
@wake[10, ruby, 0x55000000a0d8, 1, 0]: 9
@wait[11, ruby, 0x55000000a0d8, 0, 2, 1, 0]: 1
@wait[11, worker, 0x55000000a0d8, 0, 2, 1, 0]: 2
@wait[11, worker, 0x55000000a0d8, 0, 2, 0, -11]: 1
@wait[11, worker, 0x55000000c14c, 9, 0, 0, -110]: 2
@wake[11, worker, 0x55000000b194, 1, 1]: 8
END
run_cmd awk -f scripts/futex_words.awk "$tmp/f.txt"
expect_code 0 "made-up counts"
expect_match out '^mutex +0x55000000a0d8 +ruby/10 +5 +7 +0 +3 +9$' "the main thread on the mutex"
expect_match out '^mutex +0x55000000a0d8 +worker/11 +3 +1 +0 +0 +0$' "the renamed thread on the mutex, under its name"
expect_match out '^cond +0x55000000b190 +ruby/10 +8 +0 +0 +0 +0$' "a condvar's two words as one"
expect_match out '^cond +0x55000000b190 +worker/11 +0 +0 +0 +8 +0$' "its wakes on the pair's second word"
expect_match out '^cond +0x55000000c148 +worker/11 +0 +0 +2 +0 +0$' "a timed-out wait"
expect_match out '^ppoll +- +ruby/10 +4 +0 +0' "ppoll"
expect_match out '^sleeps ruby/10 17$' "the main thread's sleeps in all"
expect_match out '^sleeps worker/11 3$' "the other's"
# the words by their sleeps: the mutex (8) before the condvar (8, seen later) before the other (0)
first=$(grep -n '^mutex' "$tmp/out" | head -1 | cut -d: -f1)
cond=$(grep -n '^cond  *0x55000000b190' "$tmp/out" | head -1 | cut -d: -f1)
other=$(grep -n '^cond  *0x55000000c148' "$tmp/out" | head -1 | cut -d: -f1)
checks=$((checks + 1))
if ! { [ "$first" -lt "$cond" ] && [ "$cond" -lt "$other" ]; }; then
    fail "words not by their sleeps: mutex $first, cond $cond, other $other"
fi

printf 'Attaching 6 probes...\n\n' >"$tmp/empty.txt"
run_cmd awk -f scripts/futex_words.awk "$tmp/empty.txt"
expect_code 1 "no counts"
expect_match err 'no counts in the input' "said"
finish futex_words_awk.sh
