# ratio KEY1 COLUMN1 KEY2 COLUMN2 DECIMALS: the quotient of two simulated
# values, inline (docs/data/sim.csv; a COLUMN may itself be "a/b").
function render() { printf "%s", fx(sv(arg(1), arg(2)) / sv(arg(3), arg(4)), arg(5)) }
