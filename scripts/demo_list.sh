# demo_list.sh - sourced by scripts/demo.sh and scripts/regress.sh: the runs
# of the demo list (scenarios/demo.txt, or $GVLSIM_DEMO_LIST), one line each:
#   name | scenario | arguments of `gvlsim sweep` | arguments of `gvlsim plot`
# A scenario field "@OTHER" makes no sweep: the line plots OTHER's CSV
# (a second plot of one sweep).
#
#   demo_list_each FUNC   calls FUNC NAME SCENARIO SWEEP_ARGS PLOT_ARGS per
#                         line (trimmed; comments and blank lines skipped)

demo_list_trim() { printf '%s' "$1" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//'; }

demo_list_each() {
    while IFS='|' read -r _dl_name _dl_scn _dl_sweep _dl_plot; do
        _dl_name=$(demo_list_trim "$_dl_name")
        case "$_dl_name" in ''|'#'*) continue ;; esac
        "$1" "$_dl_name" "$(demo_list_trim "$_dl_scn")" "$(demo_list_trim "$_dl_sweep")" \
            "$(demo_list_trim "${_dl_plot:-}")" </dev/null
    done <"${GVLSIM_DEMO_LIST:-scenarios/demo.txt}"
}
