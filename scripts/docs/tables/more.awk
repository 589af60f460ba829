# more KEY1 COL1 KEY2 COL2: by how much the first simulated value exceeds the
# second, in percent (negative when it falls short), inline; a COLUMN may be
# "a/b".  `more K C K C MEASURED` with a fifth word compares the quotient
# of the first two with a measured ratio instead: 100 (q / MEASURED - 1).
function render(   a) {
    a = sv(arg(1), arg(2)) / sv(arg(3), arg(4))
    if (arg(5) != "") a = a / arg(5)
    printf "%.0f%%", 100 * (a - 1)
}
