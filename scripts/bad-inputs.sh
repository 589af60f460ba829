#!/bin/sh
# bad-inputs.sh BINARY [--update FILE | --check FILE] - run every bad input
# of tests/bad/ through gvlsim and print the README's table of what it does.
#
# tests/bad/NN-class/ is one class of bad input.  Its file `class` has three
# lines: the title, the command for each input file of the class (`{}` is
# the file), and the exit codes allowed for the class.  Each other file of
# the directory is a case:
#   NAME.args  one case per line: a gvlsim command line (shell words, run from
#              the repository root; `#` starts a comment line);
#   NAME.sh    one case: `sh NAME.sh BINARY`, in a fresh directory $BAD_TMP,
#              whose status and stderr are the case's (FIFOs, signals, ...);
#   any other  an input file, run with the class's command.
# Subdirectories hold what cases refer to (profiles, CSVs) and are no cases.
#
# Every case must end within 30 s with an allowed exit code, say something
# on stderr, show no raw control character there (messages escape what they
# quote), and trip no sanitizer: otherwise it is listed and the script fails.
# The table gives per class the number of cases, the exit codes seen and the
# first line gvlsim printed for the class's first case (temporary paths shown
# as TMP); a sentence after it sums the fuzzing runs of tests/fuzz/runs.tsv
# and names the crashers kept in tests/fuzz/crashers.  --update FILE rewrites the table between the markers
# "<!-- bad-inputs:begin -->" and "<!-- bad-inputs:end -->" in FILE; --check
# FILE fails if it differs (tests/e2e/bad_inputs.sh).  Run from the root.
set -u
[ $# -ge 1 ] || { echo "usage: scripts/bad-inputs.sh BINARY [--update FILE | --check FILE]" >&2; exit 2; }
bin=$1
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
mode=${2:-} target=${3:-}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
table=$work/table
bad=0

esc_md() {  # a message as a markdown table cell: backticks, no pipe
    sed -e 's/|/\\|/g' -e 's/`/'"'"'/g' -e 's/^/`/' -e 's/$/`/'
}

# what run_case looks for on stderr: raw control characters (not tab or
# newline), made once here
ctl=$(printf '[\001-\010\013-\037\177]')
# run_case NAME: the case's command is in "$@" after NAME; stdin is /dev/null.
# A few processes per case (250 cases, twice in make test: the forks were
# most of this script's time): the cases run from the root, where this
# script stays; one awk makes the temporary directory's name TMP in the
# messages and looks for sanitizer reports and control characters.
ncase=0
run_case() {
    name=$1
    shift
    ncase=$((ncase + 1))
    BAD_TMP=$work/case.$ncase
    export BAD_TMP
    mkdir "$BAD_TMP" || exit 2
    timeout 30 "$@" </dev/null >"$work/out" 2>"$work/err.raw"
    code=$?
    LC_ALL=C awk -v t="$BAD_TMP" -v ctl="$ctl" '
        { l = $0
          while ((i = index(l, t)) > 0) l = substr(l, 1, i - 1) "TMP" substr(l, i + length(t))
          print l
          if (index(l, "AddressSanitizer") || index(l, "LeakSanitizer") || index(l, "runtime error:")) san = 1
          if (l ~ ctl) raw = 1 }
        END { exit san ? 1 : raw ? 2 : 0 }' "$work/err.raw" >"$work/err"
    found=$?
    rm -rf "$BAD_TMP"
    why=
    if [ "$code" -eq 124 ]; then why="hung (killed after 30 s)"
    else
        case " $allowed " in
        *" $code "*)
            if [ ! -s "$work/err" ]; then why="nothing on stderr"
            elif [ "$found" -eq 1 ]; then why="sanitizer report"
            elif [ "$found" -eq 2 ]; then why="raw control character on stderr"
            fi ;;
        *) why="exit $code, allowed: $allowed" ;;
        esac
    fi
    if [ -n "$why" ]; then
        echo "bad-inputs: $class/$name: $why" >&2
        sed 's/^/    /' "$work/err" | head -5 >&2
        bad=1
    fi
    echo "$code" >>"$work/codes"
    [ -n "$example" ] || example=$(head -1 "$work/err")
    n=$((n + 1))
}

top=$(pwd)
{
    echo "| class of bad input | cases | exit status | what gvlsim says (first case of the class) |"
    echo "|---|---:|---|---|"
} >"$table"
for dir in tests/bad/*/; do
    dir=${dir%/}
    class=$(basename "$dir")
    title=$(sed -n 1p "$dir/class")
    template=$(sed -n 2p "$dir/class")
    allowed=$(sed -n 3p "$dir/class")
    n=0 example=
    : >"$work/codes"
    for f in $(ls "$dir" | LC_ALL=C sort); do
        p=$dir/$f
        [ -f "$p" ] && [ "$f" != class ] || continue
        case $f in
        *.args)
            while IFS= read -r line; do
                case $line in ''|'#'*) continue ;; esac
                eval "set -- $line"
                run_case "$f: $line" "$bin" "$@"
            done <"$p" ;;
        *.sh) run_case "$f" sh "$top/$p" "$bin" ;;
        *)
            # shellcheck disable=SC2086
            set -- $(echo "$template" | sed "s#{}#$p#g")
            run_case "$f" "$bin" "$@" ;;
        esac
    done
    # one code: "3"; several: "3 (12), 5 (2)" (cases per code)
    codes=$(sort -n "$work/codes" | uniq -c | awk '{ c[NR] = $2; k[NR] = $1 }
        END { for (i = 1; i <= NR; i++) printf "%s%s", (i > 1 ? ", " : ""), (NR > 1 ? c[i] " (" k[i] ")" : c[i]) }')
    printf '| %s | %d | %s | %s |\n' "$title" "$n" "$codes" "$(echo "$example" | esc_md)" >>"$table"
done
total=$(awk -F'|' 'NR > 2 { s += $3 } END { print s }' "$table")
printf '| **all** | **%d** | | |\n' "$total" >>"$table"
# the fuzzing so far (tests/fuzz/runs.tsv, appended by `make fuzz`) and what it kept
{
    echo
    awk -F'\t' '{ n[$2] += $4; s[$2] += $3; c[$2] += $5; t += $4 }
        END { printf "Fuzzing (`make fuzz`, logged in `tests/fuzz/runs.tsv`): %d executions in all", t
              sep = " ("
              for (k in n) names[++m] = k
              for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (names[j] < names[i]) { x = names[i]; names[i] = names[j]; names[j] = x }
              for (i = 1; i <= m; i++) { k = names[i]; printf "%s`%s` %d in %d s, %d crasher%s", sep, k, n[k], s[k], c[k], c[k] == 1 ? "" : "s"; sep = "; " }
              printf ").  " }' tests/fuzz/runs.tsv
    printf 'Crashers kept (minimised, replayed by `make test`):'
    for f in $(cd tests/fuzz/crashers && ls */* 2>/dev/null | LC_ALL=C sort); do printf ' `%s`' "$f"; done
    echo .
} >>"$table"

case $mode in
'') cat "$table" ;;
--update|--check)
    [ -f "$target" ] || { echo "bad-inputs: no file $target" >&2; exit 2; }
    awk -v tf="$table" '
        /<!-- bad-inputs:begin -->/ { print; while ((getline l < tf) > 0) print l; skip = 1; next }
        /<!-- bad-inputs:end -->/ { skip = 0 }
        !skip' "$target" >"$work/new"
    if [ "$mode" = --update ]; then
        cat "$work/new" >"$target"
    elif ! cmp -s "$work/new" "$target"; then
        echo "bad-inputs: the table in $target is not what the cases give (scripts/bad-inputs.sh ./gvlsim --update $target):" >&2
        diff "$target" "$work/new" >&2
        bad=1
    fi ;;
*) echo "bad-inputs: unknown mode $mode" >&2; exit 2 ;;
esac
exit $bad
