# xratio DATASET LABEL1 COLUMN1 LABEL2 COLUMN2 DECIMALS: the quotient of two
# measured medians (docs/data/DATASET/raw.csv), inline.
function render(   d) {
    d = arg(1) "/raw"
    printf "%s", fx(med(d, arg(2), arg(3)) / med(d, arg(4), arg(5)), arg(6))
}
