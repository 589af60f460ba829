# summary ID: README, the stderr summary of a run, as gvlsim printed it
# (docs/data/sim-summaries.txt, kept by the `summary` runs of sim-runs.txt),
# inside a code block.
function render(   i, on, n) {
    print "```"
    for (i = 1; i <= NLINE["sim-summaries"]; i++) {
        if (LINE["sim-summaries", i] ~ /^## /) { on = LINE["sim-summaries", i] == "## " arg(1); continue }
        if (on) { print LINE["sim-summaries", i]; n++ }
    }
    if (!n) die("docs/data/sim-summaries.txt: no summary " arg(1))
    print "```"
}
