# render.awk - rewrite the generated parts of one Markdown file (stdout).
# Called by scripts/docs/render.sh with -v DATA="files" -v USED=file.
#
#   <!-- table:NAME ARGS -->            the lines up to the closing marker are
#   ...                                 replaced by the output of
#   <!-- /table -->                     scripts/docs/tables/NAME.awk
#   <!-- val:NAME ARGS -->x<!-- /val -->  inline: x is replaced the same way
#
# ARGS (optional) is passed to the renderer as ARGS; letters, digits and
# _ . / = + - only.
function die(msg) { printf "render: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; DIED = 1; exit 1 }
function run(spec,   name, args, sp, cmd, line, out, n) {
    sp = index(spec, " ")
    name = sp ? substr(spec, 1, sp - 1) : spec
    args = sp ? substr(spec, sp + 1) : ""
    if (name !~ /^[A-Za-z0-9_]+$/ || args !~ /^[A-Za-z0-9_.\/=+ -]*$/) die("bad marker \"" spec "\"")
    if (system("test -r scripts/docs/tables/" name ".awk") != 0) die("no renderer scripts/docs/tables/" name ".awk")
    print name >> USED
    cmd = "awk -v ARGS='" args "' -f scripts/docs/lib.awk -f scripts/docs/tables/" name ".awk " DATA
    out = ""; n = 0
    while ((cmd | getline line) > 0) out = out (n++ ? "\n" : "") line
    if (close(cmd) != 0) die("renderer " name " failed")
    if (out == "") die("renderer " name " printed nothing")
    return out
}
skipping {
    if ($0 == "<!-- /table -->") { skipping = 0; print; next }
    next
}
/^<!-- table:.* -->$/ {
    spec = $0; sub(/^<!-- table:/, "", spec); sub(/ -->$/, "", spec)
    print
    print run(spec)
    skipping = 1; opened = FNR
    next
}
/<!-- val:/ {
    rest = $0; outl = ""
    while (match(rest, /<!-- val:[^>]*-->/)) {
        spec = substr(rest, RSTART + 9, RLENGTH - 12)
        outl = outl substr(rest, 1, RSTART + RLENGTH - 1)
        rest = substr(rest, RSTART + RLENGTH)
        e = index(rest, "<!-- /val -->")
        if (!e) die("<!-- val:" spec " --> without <!-- /val --> on the same line")
        outl = outl run(spec) "<!-- /val -->"
        rest = substr(rest, e + 13)
    }
    print outl rest
    next
}
{ print }
END { if (!DIED && skipping) { FNR = opened; die("<!-- table --> without <!-- /table -->") } }
