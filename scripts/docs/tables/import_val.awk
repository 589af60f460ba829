# import_val ID COLUMN UNIT DECIMALS: one value of docs/data/import.csv,
# inline; UNIT s, ms or us scales seconds, 0 shows a count.
function render(   x) {
    x = value("import", arg(1), arg(2))
    if (arg(3) == "us") x = x * 1e6
    if (arg(3) == "ms") x = x * 1e3
    printf "%s", arg(3) == "0" ? comma(x) : fx(x, arg(4))
}
