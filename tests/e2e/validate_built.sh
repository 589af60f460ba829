#!/bin/sh
# validate_built.sh BINARY - the fidelity targets measured on a Ruby built
# from source (a fifth field `ruby=VERSION` in targets.txt): without that
# Ruby, scripts/validate_results.sh skips them with a message and keeps
# their committed rows, host.txt lines and targets.txt line (as measured); and scripts/build_ruby.sh's
# errors (usage, a ref that is not there, a tree that is not CRuby, a
# PREFIX in use), none of which builds anything.
# real-threads: scripts/validate_results.sh, which looks at the CPUs (`make test` runs such scripts with nothing else at work: tests/e2e/run.sh)
set -u
bin=$1
. tests/e2e/lib.inc

[ "$(nproc)" -ge 2 ] || skip "scripts/validate_results.sh needs 2 CPUs"
v=$tmp/v
mkdir -p "$v"
cp docs/data/validate/hosts/xeon-2vcpu-2026-12-02/host.json "$tmp/host.json"
echo 'point,rep,sentinel' >"$v/pp_v9.rows.csv"
cat >"$v/host.txt" <<'EOF'
cpu=Test CPU
load_pp_v9=80,1.50,2.25
time_pp_v9=2026-12-02T06:40:01Z,2026-12-02T06:44:59Z
ruby_pp_v9=ruby 9.9.9 (a test) [x86_64-linux]
host_pp_v9=Test CPU, 2 CPUs, kernel 6.1
line_pp_v9=170.3
EOF
cp "$v/pp_v9.rows.csv" "$tmp/rows.before"
# the line the committed rows were measured with (the list has changed since)
printf '# as measured\npp_v9 | scenarios/queue_pingpong.json | sim,ruby | --set runtime={"ruby":"3.3"} --seed 7 | ruby=9.9.9\n' >"$v/targets.txt"
printf '# a target on a Ruby built from source\npp_v9 | scenarios/queue_pingpong.json | sim,ruby | --set runtime={"ruby":"3.3"} | ruby=9.9.9\n' >"$tmp/targets"

# measure: sets $code and $tmp/out, $tmp/err
measure() {
    env "$@" PROFILE="$tmp/host.json" TARGETS="$tmp/targets" QUIET_IDLE=0 \
        scripts/validate_results.sh "$bin" "$v" >"$tmp/out" 2>"$tmp/err"
    code=$?
}
kept() {
    checks=$((checks + 1))
    cmp -s "$v/pp_v9.rows.csv" "$tmp/rows.before" || fail "$1: the committed rows changed"
    checks=$((checks + 1))
    grep -q '^pp_v9 | .* --seed 7 | ruby=9.9.9$' "$v/targets.txt" ||
        fail "$1: targets.txt lost the line the kept rows were measured with: $(cat "$v/targets.txt")"
    for k in load time ruby host line; do
        checks=$((checks + 1))
        grep -q "^${k}_pp_v9=" "$v/host.txt" || fail "$1: host.txt lost its ${k}_pp_v9 line"
    done
}
measure -u RUBIES
expect_code 0 "no RUBIES"
expect_match err 'pp_v9: skipped, it needs Ruby 9[.]9[.]9 built from source [(]RUBIES is not set: build it with scripts/build_ruby.sh REF DIR/9[.]9[.]9 and set RUBIES=DIR[)]; its committed rows are kept' "no RUBIES: the message"
kept "no RUBIES"

mkdir -p "$tmp/rubies/9.9.9/bin"
printf '#!/bin/sh\nprintf 1.2.3\n' >"$tmp/rubies/9.9.9/bin/ruby"
chmod +x "$tmp/rubies/9.9.9/bin/ruby"
measure RUBIES="$tmp/rubies"
expect_code 0 "another version"
expect_match err "pp_v9: skipped, it needs Ruby 9[.]9[.]9 built from source [(]$tmp/rubies/9[.]9[.]9/bin/ruby is Ruby 1[.]2[.]3" "another version: the message"
kept "another version"

# ONLY= one of them: host.txt's first lines (the issue's targets) stay
sed -i 's/^cpu=.*/cpu=Test CPU/' "$v/host.txt"
measure -u RUBIES ONLY=pp_v9
expect_code 0 "ONLY= a built-Ruby target"
checks=$((checks + 1))
grep -qx 'cpu=Test CPU' "$v/host.txt" || fail "ONLY= a built-Ruby target: host.txt's first lines were rewritten"
kept "ONLY= a built-Ruby target"

measure RUBIES="$tmp/nothing"
expect_code 0 "no such Ruby"
expect_match err "[(]no Ruby runs as $tmp/nothing/9[.]9[.]9/bin/ruby: " "no such Ruby: the message"
kept "no such Ruby"

sed -i 's/ruby=9.9.9/rubyy=9/' "$tmp/targets"
measure -u RUBIES
expect_code 1 "a bad fifth field"
expect_match err 'pp_v9: unknown fifth field "rubyy=9" [(]ruby=VERSION[)]' "a bad fifth field: the message"

# build_ruby.sh refuses before building anything
build() {
    env "$@" >"$tmp/out" 2>"$tmp/err"
    code=$?
}
build scripts/build_ruby.sh onlyone
expect_code 2 "build_ruby: one argument"
expect_match err '^usage: scripts/build_ruby.sh REF PREFIX' "build_ruby: usage"
if command -v git >/dev/null 2>&1 && command -v autoconf >/dev/null 2>&1 && command -v ruby >/dev/null 2>&1; then
    g=$tmp/notruby
    mkdir -p "$g" && git -C "$g" init -q && echo x >"$g/README" && git -C "$g" add README &&
        git -C "$g" -c user.name=t -c user.email=t@t commit -qm x || fail "cannot make a test repository"
    build RUBY_GIT="$g" scripts/build_ruby.sh v9_9_9 "$tmp/prefix"
    expect_code 1 "build_ruby: no such ref"
    expect_match err "^build_ruby: 'v9_9_9' is not a commit of the repository at $g" "build_ruby: no such ref: the message"
    build RUBY_GIT="$g" scripts/build_ruby.sh HEAD "$tmp/prefix"
    expect_code 1 "build_ruby: not CRuby"
    expect_match err "has no thread_pthread[.]c: not a CRuby tree" "build_ruby: not CRuby: the message"
    echo y >"$g/thread_pthread.c" && git -C "$g" add thread_pthread.c &&
        git -C "$g" -c user.name=t -c user.email=t@t commit -qm y || fail "cannot commit"
    mkdir -p "$tmp/prefix" && echo z >"$tmp/prefix/in-use"
    build RUBY_GIT="$g" scripts/build_ruby.sh HEAD "$tmp/prefix"
    expect_code 1 "build_ruby: PREFIX in use"
    expect_match err "$tmp/prefix exists and is not empty" "build_ruby: PREFIX in use: the message"
fi
finish "$script"
