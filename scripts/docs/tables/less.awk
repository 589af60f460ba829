# less KEY1 COL1 KEY2 COL2: by how much the first simulated value is below the
# second, in percent of the second (100 (1 - a / b)), inline.
function render() { printf "%.0f%%", 100 * (1 - sv(arg(1), arg(2)) / sv(arg(3), arg(4))) }
