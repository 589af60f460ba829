#!/bin/sh
# build_ruby.sh REF PREFIX - build CRuby at a git ref and install it under
# PREFIX, to give the Ruby backend (`gvlsim exec --backend ruby --ruby
# PREFIX/bin/ruby`, `gvlsim validate`) a real Ruby of the version whose GVL
# policy is to be judged (docs/validate.md, "Real Rubies built from source").
# Not run by CI or `make test`: a build takes 15-40 minutes on two cores.
#
#   REF     a tag, branch or commit of CRuby (v3_3_11, v3_4_9, v4.0.5,
#           ruby_4_0, master, ...)
#   PREFIX  where to install (PREFIX/bin/ruby); must not exist yet or be empty
#
# RUBY_GIT=DIR  the CRuby repository to take REF from: a clone of
#               https://github.com/ruby/ruby or any mirror, bare or not
#               (default: the current directory's repository)
# BUILD_DIR=DIR where to unpack and build (default: a new directory under
#               ${TMPDIR:-/tmp}, removed after a successful install)
# JOBS=N        make -j N (default 2); the build runs under `nice -n 19`
# BASERUBY=PATH a Ruby to run the build's generators (default: `ruby` on
#               PATH; CRuby from a git tree needs one)
#
# Needs git, a C compiler, make, autoconf (autogen.sh), and the headers of
# libyaml, libffi, zlib and OpenSSL for psych, fiddle, zlib and openssl
# (Debian: autoconf libyaml-dev libffi-dev zlib1g-dev libssl-dev).  Ruby 3.3
# and later bundle their parser generator (lrama): no bison.  The sources
# are taken with `git archive`, so nothing of the repository is modified.
# Offline, the bundled gems (minitest, rake, ...) are not installed.  Prints
# the configure line, `ruby -v` and the commit built; they are also written
# to PREFIX/BUILD-INFO.  `ruby -v` shows the build date and no revision
# (an archive is no git tree): BUILD-INFO has the commit.  Exit 0 on success, 1 on any failure (the
# failing step named, its log's last lines shown), 2 on bad usage.
set -u
usage() { echo "usage: scripts/build_ruby.sh REF PREFIX  (RUBY_GIT=DIR to name the CRuby repository)" >&2; exit 2; }
[ $# -eq 2 ] || usage
ref=$1 prefix=$2
[ -n "$ref" ] && [ -n "$prefix" ] || usage
fail() { echo "build_ruby: $*" >&2; exit 1; }
case $prefix in /*) ;; *) prefix=$(pwd)/$prefix ;; esac
git_dir=${RUBY_GIT:-.}
jobs=${JOBS:-2}
baseruby=${BASERUBY:-$(command -v ruby || true)}
for tool in git make autoconf cc; do
    command -v $tool >/dev/null 2>&1 || fail "needs '$tool' on PATH (Debian: apt-get install autoconf build-essential git)"
done
[ -n "$baseruby" ] && [ -x "$baseruby" ] ||
    fail "needs a Ruby to run the build's generators: set BASERUBY=PATH or put ruby on PATH"
commit=$(git -C "$git_dir" rev-parse --verify --quiet "$ref^{commit}" 2>/dev/null) ||
    fail "'$ref' is not a commit of the repository at $git_dir (set RUBY_GIT to a clone of ruby/ruby)"
[ "$(git -C "$git_dir" cat-file -t "$commit:thread_pthread.c" 2>/dev/null)" = blob ] ||
    fail "$ref ($commit) has no thread_pthread.c: not a CRuby tree"
if [ -e "$prefix" ] && [ -n "$(ls -A "$prefix" 2>/dev/null)" ]; then
    fail "$prefix exists and is not empty: choose a new PREFIX (nothing is overwritten)"
fi
if [ -n "${BUILD_DIR:-}" ]; then
    src=$BUILD_DIR keep=1
    mkdir -p "$src" || fail "cannot create $src"
    [ -z "$(ls -A "$src")" ] || fail "BUILD_DIR $src is not empty"
else
    src=$(mktemp -d "${TMPDIR:-/tmp}/build_ruby.XXXXXX") || fail "cannot create a build directory"
    keep=0
fi
log=$src/build.log
step() {
    name=$1; shift
    echo "build_ruby: $name" >&2
    echo "== $name: $*" >>"$log"
    if ! "$@" >>"$log" 2>&1; then
        echo "build_ruby: '$name' failed; the last lines of $log:" >&2
        tail -n 30 "$log" >&2
        exit 1
    fi
}
echo "build_ruby: $ref = $commit, building in $src (log: $log)" >&2
: >"$log" || fail "cannot write $log"
git -C "$git_dir" archive --format=tar "$commit" >"$src/src.tar" || fail "git archive $commit failed"
mkdir "$src/ruby" && tar -x -C "$src/ruby" -f "$src/src.tar" || fail "cannot unpack the sources"
rm -f "$src/src.tar"
cd "$src/ruby" || fail "cannot enter $src/ruby"
# The bundled gems (minitest, rake, ...; gems/bundled_gems) are downloaded
# from rubygems.org by `make install` (3.3) or already by `make` (4.x),
# retrying for minutes per gem when it cannot be reached.  Offline they are
# left out by emptying that list: the Ruby backend's programs use none.
gems=installed
if ! "$baseruby" -rsocket -e 'Addrinfo.getaddrinfo("rubygems.org", 443)' >/dev/null 2>&1; then
    echo "build_ruby: rubygems.org cannot be reached: building without the bundled gems" >&2
    gems="not installed (rubygems.org could not be reached): $(grep -v '^#' gems/bundled_gems | awk 'NF { printf "%s%s", s, $1; s = " " }')"
    grep '^#' gems/bundled_gems >gems/bundled_gems.offline; mv gems/bundled_gems.offline gems/bundled_gems
fi
set -- ./configure --prefix="$prefix" --disable-install-doc --with-baseruby="$baseruby"
configure_line="$*"
step autogen ./autogen.sh
step configure "$@"
step make nice -n 19 make -j"$jobs"
step install nice -n 19 make install
# An extension that cannot be built (a missing header) does not fail make:
# configure's and make's "Failed to configure" lines name them.
skipped=$(grep -h 'Failed to configure\|Failed to make' "$log" ext/*/mkmf.log 2>/dev/null | sort -u)
version=$("$prefix/bin/ruby" -v) || fail "the installed $prefix/bin/ruby does not run"
cat >"$prefix/BUILD-INFO" <<EOF
ref: $ref
commit: $commit
configure: $configure_line
ruby -v: $version
built: $(date -u +%Y-%m-%dT%H:%MZ) on $(uname -srm), $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)
extensions not built: ${skipped:-none}
bundled gems: $gems
EOF
cat "$prefix/BUILD-INFO"
[ -z "$skipped" ] || echo "build_ruby: warning: some extensions were not built (see above)" >&2
cd / && [ "$keep" = 1 ] || rm -rf "$src"
