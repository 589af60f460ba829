# vval HOST NAME METRIC BACKEND CORES WHAT: README, one figure of a fidelity
# table inline (docs/data/validate/hosts/HOST/NAME.csv, the row of METRIC,
# BACKEND and CORES; the target must have no policy column): WHAT is sim
# (the simulated median over the seeds), min or max (the seeds' extremes),
# md (the measured median), err (the error, "+38%"), 3 significant digits.
function render(   ds, r, w, v) {
    split(ARGS, w, " ")
    if (w[6] == "") die("vval: HOST NAME METRIC BACKEND CORES WHAT")
    ds = "validate/hosts/" w[1] "/" w[2]
    r = vrow(ds, w[3], w[4], w[5], "")
    if (r == "") die("docs/data/" ds ": no " w[3] " row of " w[4] " on " w[5] " cores")
    if (w[6] == "err") { printf "%+.0f%%", 100 * vcol(ds, r, "rel_error"); return }
    v = w[6] == "sim" ? "simulated" : w[6] == "min" ? "simulated_min" : w[6] == "max" ? "simulated_max" : w[6] == "md" ? "measured_median" : ""
    if (v == "" || !((ds, v) in COL)) die("vval: no " w[6] " in docs/data/" ds)
    printf "%s", vnum(vcol(ds, r, v))
}
