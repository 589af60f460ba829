# tests/engines/lib.sh - shell functions of the differential test, sourced
# by tests/engines/run.sh and tests/e2e/engines.sh.

# The CSV without its `engine` and `host_s` columns (found by name in the
# header); fields are plain (gvlsim quotes none of these columns' values).
csv_drop_engine_columns() {
    awk -F, -v OFS=, '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == "engine" || $i == "host_s") drop[i] = 1 }
        { out = ""; sep = ""
          for (i = 1; i <= NF; i++) if (!drop[i]) { out = out sep $i; sep = OFS }
          print out }' "$1"
}

# One event-log line (N TIME_PS HANDLER OBJ) made readable: the time in
# seconds, the handler resolved to a function and source line (relative to
# the current directory, the repository's root).
describe_event() {  # describe_event BINARY LINE
    set -- "$1" $2
    [ $# -ge 5 ] || { echo "(no event: the log ends here)"; return; }
    h=$4
    case $h in
        +0x*) if command -v addr2line >/dev/null 2>&1; then
                  h=$(addr2line -f -e "$1" "${h#+}" | paste -sd' ' | sed "s| $PWD/| |; s/ \(.*\)/ (\1)/")
              fi ;;
    esac
    awk -v n="$2" -v t="$3" -v h="$h" -v o="$5" 'BEGIN {
        printf "event %s at t=%.12f s (%s ps), handler %s, object %s\n", n, t / 1e12, t, h, o }'
}

# Print the first line where two event logs differ, described.
first_divergence() {  # first_divergence BINARY LOG_A LOG_B
    line=$(awk -v B="$3" '
        { if ((getline b < B) <= 0) b = ""
          if ($0 != b) { print NR; found = 1; exit } }
        END { if (!found && (getline b < B) > 0) print NR + 1 }' "$2")
    [ -n "$line" ] || { echo "  the event logs are identical"; return; }
    echo "  first diverging event (line $line of the event logs):"
    printf '    %-8s ' "$(basename "$2" .log):"; describe_event "$1" "$(sed -n "${line}p" "$2")"
    printf '    %-8s ' "$(basename "$3" .log):"; describe_event "$1" "$(sed -n "${line}p" "$3")"
}
