#!/bin/sh
# links.sh - the repository stands on its own: no committed file points at
# a place outside it, except public URLs.
#
#   - No committed text file mentions a path of the machine it was written
#     on or a file that is not in the repository: the workspace or the
#     shared folder beside the checkout, the private notes by
#     name, the numbered seed files of the bug reports (the patterns are
#     below): cite the public source (the bug thread, the PR, the CRuby
#     file) instead.
#   - Every link of a Markdown file, [text](target) or <target>, is a public
#     http(s) URL (not localhost or a private address), an anchor, or a path
#     (relative to the file) to a file or directory of the repository.
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
top=$(pwd -P)
if git rev-parse --git-dir >/dev/null 2>&1 && [ -n "$(git ls-files | head -n 1)" ]; then
    git ls-files >"$tmp/files"
else
    find . -type f ! -path './.git/*' ! -path './build/*' ! -path './out/*' | sed 's|^\./||' >"$tmp/files"
fi
fail=0

# The patterns are split so that this file does not match itself.
pats="/wor""k/|\\.\\./sha""red|cruby-mo""del|cruby-sync""-gc|simgrid-pr""obe|anch""ors\\.md|seed 0""0[0-9]|research no""tes"
# one grep over all the files (a grep per file cost seconds of start-ups):
# /dev/null among them makes every hit "FILE:LINE:text"
while IFS= read -r f; do
    [ -f "$f" ] && printf '%s\0' "$f"
done <"$tmp/files" | xargs -0 grep -I -n -i -E "$pats" /dev/null 2>/dev/null >"$tmp/hits"
if [ -s "$tmp/hits" ]; then
    echo "links: committed files point outside the repository (cite the public source instead):"
    cut -c1-200 "$tmp/hits"
    fail=1
fi

# Markdown links
grep '\.md$' "$tmp/files" | while IFS= read -r f; do
    [ -f "$f" ] || continue
    # [text](target) and <scheme:...> autolinks; code spans and fenced blocks are not links
    awk '/^ *```/ { fence = !fence; next } fence { next }
         { line = $0; gsub(/`[^`]*`/, "", line)
           while (match(line, /\]\([^) ]+\)/)) { print FNR "\t" substr(line, RSTART + 2, RLENGTH - 3); line = substr(line, RSTART + RLENGTH) }
           while (match(line, /<[a-z]+:[^> ]+>/)) { print FNR "\t" substr(line, RSTART + 1, RLENGTH - 2); line = substr(line, RSTART + RLENGTH) } }' "$f" |
    while IFS="$(printf '\t')" read -r n t; do
        case $t in
            https://localhost*|http://localhost*|https://127.*|http://127.*|https://10.*|http://10.*|https://192.168.*|http://192.168.*)
                echo "links: $f:$n: a private address: $t" ;;
            https://*|http://*|mailto:*|\#*) ;;
            *:*) echo "links: $f:$n: not a public URL: $t" ;;
            /*) echo "links: $f:$n: an absolute path: $t" ;;
            *)
                p=${t%%#*}
                d=$(dirname "$f")
                if [ ! -e "$d/$p" ]; then
                    echo "links: $f:$n: $t does not exist in the repository"
                else
                    r=$(cd "$(dirname "$d/$p")" && pwd -P)
                    case $r/ in "$top"/*) ;; *) echo "links: $f:$n: $t leaves the repository" ;; esac
                fi ;;
        esac
    done
done >"$tmp/links"
if [ -s "$tmp/links" ]; then cat "$tmp/links"; fail=1; fi

[ "$fail" -eq 0 ] && echo "links: $(wc -l <"$tmp/files") files: nothing points outside the repository but public URLs"
exit "$fail"
