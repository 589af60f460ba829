# import_ratio ID1 ID2 COLUMN DECIMALS: a column of docs/data/import.csv for
# ID1 over the same column for ID2, inline ("+" instead of DECIMALS: the
# relative change in percent, "+14%").
function render(   a, b) {
    a = value("import", arg(1), arg(3)); b = value("import", arg(2), arg(3))
    if (b + 0 == 0) die("import_ratio: " arg(2) " " arg(3) " is 0")
    if (arg(4) == "+") printf "%+.0f%%", 100 * (a / b - 1)
    else printf "%s", fx(a / b, arg(4))
}
