# ruby_versions: scenarios/README.md, the CRuby version table behind
# runtime.ruby and the Ruby backend (docs/data/ruby-versions.txt, the
# rendering of input/ruby_version.c that scripts/ruby_versions_doc.sh writes
# and tests/unit/test_ruby_version checks against the C table).
function render(   d, i) {
    d = "ruby-versions"
    if (!NLINE[d]) die("no dataset docs/data/ruby-versions.txt")
    for (i = 1; i <= NLINE[d]; i++) print LINE[d, i]
}
