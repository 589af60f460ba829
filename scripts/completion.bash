# gvlsim's bash completion: the logic.  The words come from gvlsim's own
# tables: `make` writes build/gvlsim.bash-completion as the output of
# `gvlsim help --completion-data` (commands, options and the kind of their
# values, scenario keys and their values) followed by this file.
#
# Completes: commands; a command's options; option values by kind (files,
# directories, enum values); scenario keys after --set/--param one path
# segment at a time (ractors.0.threads.1.count), with the values of enum
# keys after '=' (runtime.gvl_policy=hot_steal) and machine profile names
# (--set machine=NAME) found where gvlsim looks: --machines directories,
# the scenario's machines/ directory, then $GVLSIM_MACHINES.

# Machine profile names (NAME of NAME.json) in the directories gvlsim searches.
_gvlsim_profiles() {
    local -a dirs=()
    local i w scn=''
    for ((i = 2; i < ${#_gvlsim_words[@]}; i++)); do
        w=${_gvlsim_words[i]}
        case $w in
            --machines) dirs+=("${_gvlsim_words[i + 1]}") ;;
            --machines=*) dirs+=("${w#--machines=}") ;;
            *.json) [[ -z $scn && ${_gvlsim_words[i - 1]} != -* ]] && scn=$w ;;
        esac
    done
    if [[ -n $scn ]]; then
        case $scn in */*) dirs+=("${scn%/*}/machines") ;; *) dirs+=("machines") ;; esac
    fi
    local IFS=:
    # shellcheck disable=SC2206
    [[ -n ${GVLSIM_MACHINES:-} ]] && dirs+=($GVLSIM_MACHINES)
    local d f
    for d in "${dirs[@]}"; do
        for f in "$d"/*.json; do
            [[ -f $f ]] || continue
            f=${f##*/}
            printf '%s\n' "${f%.json}"
        done
    done
}

# Candidates for a --set/--param word: KEY paths one segment at a time, then
# the key's values after '=' (for --param, after the last ',').
_gvlsim_setkey() {
    local cur=$1 multi=$2
    if [[ $cur == *=* ]]; then
        local key=${cur%%=*} val=${cur#*=} head=''
        if [[ $multi == 1 && $val == *,* ]]; then
            head=${val%,*},
            val=${val##*,}
        fi
        local pat
        pat=$(_gvlsim_keypattern "$key")
        local values=${_gvlsim_key_values[$pat]:-}
        [[ $values == @profiles ]] && values=$(_gvlsim_profiles)
        local v
        for v in $values; do
            [[ $v == "$val"* ]] && COMPREPLY+=("$key=$head$v")
        done
        return
    fi
    local prefix='' tail=$cur
    if [[ $cur == *.* ]]; then
        prefix=${cur%.*}.
        tail=${cur##*.}
    fi
    local ppat=''
    [[ -n $prefix ]] && ppat=$(_gvlsim_keypattern "${prefix%.}").
    local k rest seg cand
    local -A seen=()
    for k in $_gvlsim_keys; do
        [[ $k == "$ppat"* ]] || continue
        rest=${k#"$ppat"}
        seg=${rest%%.*}
        if [[ $seg == '#' ]]; then
            if [[ $tail =~ ^[0-9]+$ ]]; then seg=$tail; else seg=0; fi
        fi
        if [[ $rest == *.* ]]; then cand=$prefix$seg.; else cand=$prefix$seg=; fi
        [[ $cand == "$cur"* && -z ${seen[$cand]:-} ]] || continue
        seen[$cand]=1
        COMPREPLY+=("$cand")
    done
}

# A key path with its array indexes replaced by '#': ractors.1.count -> ractors.#.count
_gvlsim_keypattern() {
    local IFS=. out='' s
    local -a segs
    read -ra segs <<<"$1"
    for s in "${segs[@]}"; do
        [[ $s =~ ^[0-9]+$ ]] && s='#'
        out=${out:+$out.}$s
    done
    printf '%s' "$out"
}

# Candidates for the value of option $2 of command $1.
_gvlsim_value() {
    local cmd=$1 opt=$2 cur=$3
    local kind=${_gvlsim_arg[$cmd $opt]:-}
    case ${kind%% *} in
        file) mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
        dir) mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
        enum) mapfile -t COMPREPLY < <(compgen -W "${kind#* }" -- "$cur") ;;
        list)
            local head=''
            [[ $cur == *,* ]] && head=${cur%,*},
            local v
            for v in ${kind#* }; do
                [[ $head$v == "$cur"* ]] && COMPREPLY+=("$head$v")
            done
            ;;
        setkey) _gvlsim_setkey "$cur" "$([[ $opt == --param ]] && echo 1)" ;;
    esac
}

_gvlsim() {
    COMPREPLY=()
    local line=${COMP_LINE:0:COMP_POINT} cur=''
    local -a _gvlsim_words
    read -ra _gvlsim_words <<<"$line"
    if [[ $line =~ [[:space:]]$ ]]; then
        _gvlsim_words+=("")
    fi
    local n=${#_gvlsim_words[@]}
    cur=${_gvlsim_words[n - 1]}
    if ((n <= 2)); then
        if [[ $cur == -* ]]; then
            mapfile -t COMPREPLY < <(compgen -W "$_gvlsim_global_opts" -- "$cur")
        else
            mapfile -t COMPREPLY < <(compgen -W "$_gvlsim_commands" -- "$cur")
        fi
    else
        local cmd=${_gvlsim_words[1]} prev=${_gvlsim_words[n - 2]}
        [[ -n ${_gvlsim_opts[$cmd]:-} ]] || return 0
        local pkind=${_gvlsim_arg[$cmd $prev]:-flag}
        if [[ $prev == -* && $pkind != flag ]]; then
            _gvlsim_value "$cmd" "$prev" "$cur"
        elif [[ $cur == --*=* ]]; then
            local opt=${cur%%=*}
            _gvlsim_value "$cmd" "$opt" "${cur#*=}"
            local i
            for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]=$opt=${COMPREPLY[i]}; done
        elif [[ $cur == -* ]]; then
            mapfile -t COMPREPLY < <(compgen -W "${_gvlsim_opts[$cmd]}" -- "$cur")
        else
            case ${_gvlsim_operand[$cmd]} in
                SCENARIO) mapfile -t COMPREPLY < <(compgen -f -X '!*.json' -- "$cur"; compgen -d -S / -- "$cur") ;;
                CSV) mapfile -t COMPREPLY < <(compgen -f -X '!*.csv' -- "$cur"; compgen -d -S / -- "$cur") ;;
                COMMAND) mapfile -t COMPREPLY < <(compgen -W "$_gvlsim_commands" -- "$cur") ;;
                TRACE) mapfile -t COMPREPLY < <(compgen -W "gvl-tracing" -- "$cur"; compgen -f -X '!*.json' -- "$cur"
                                                 compgen -f -X '!*.gz' -- "$cur"; compgen -d -S / -- "$cur") ;;
            esac
        fi
    fi
    # Readline replaces only the text after the last word-break character
    # ('=' and ':' by default): drop what precedes it from the candidates.
    local wb=${cur%"${cur##*[=:]}"}
    if [[ -n $wb && $COMP_WORDBREAKS == *"${wb: -1}"* ]]; then
        local i
        for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]=${COMPREPLY[i]#"$wb"}; done
    fi
    # a key path or a directory goes on: no space after it
    local c
    for c in "${COMPREPLY[@]}"; do
        case $c in *. | *= | */) compopt -o nospace 2>/dev/null; break ;; esac
    done
    return 0
}

complete -F _gvlsim gvlsim
