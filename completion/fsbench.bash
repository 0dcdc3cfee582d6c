# fsbench(1) completion for bash: commands, each command's options, option values (phases,
# tree profiles, engines, shipped jobs, file systems, formats, metrics) and, for compare,
# show, export, report, history, bisect and forget, the labels in the results store (the --db given on the
# line, else the default store). Every name comes from the fsbench being completed
# (fsbench list --names KIND, fsbench runs --labels, fsbench COMMAND --help), so it stays in
# step with that binary; its errors are dropped and nothing is written.
# Installed as /usr/share/bash-completion/completions/fsbench (make install, the package).

# _fsbench_words KIND...: the words fsbench gives for each KIND (phases, profiles, ...).
_fsbench_words()
{
    local kind
    for kind in "$@"; do
        case $kind in
        labels) "$_fsbench_bin" runs --labels ${_fsbench_db:+--db "$_fsbench_db"} 2>/dev/null ;;
        commands) "$_fsbench_bin" --help 2>/dev/null |
            sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' ;;
        *) "$_fsbench_bin" list --names "$kind" 2>/dev/null ;;
        esac
    done
}

# _fsbench_add WORD...: the words starting with $cur, added to COMPREPLY.
_fsbench_add()
{
    local w
    for w in "$@"; do
        [[ $w == "$cur"* ]] && COMPREPLY+=("$w")
    done
}

# _fsbench_add_list WORD...: completes the last element of a comma-separated list.
_fsbench_add_list()
{
    local head="" w
    [[ $cur == *,* ]] && head=${cur%,*},
    for w in "$@"; do
        [[ $head$w == "$cur"* ]] && COMPREPLY+=("$head$w")
    done
    [[ ${#COMPREPLY[@]} -gt 0 ]] && compopt -o nospace 2>/dev/null
}

# _fsbench_files [GLOB]: files (matching GLOB) and directories.
_fsbench_files()
{
    local f
    compopt -o filenames 2>/dev/null
    while IFS= read -r f; do
        if [[ -d $f ]] || [[ -z $1 ]] || [[ $f == $1 ]]; then
            COMPREPLY+=("$f")
        fi
    done < <(compgen -f -- "$cur")
}

_fsbench_dirs()
{
    compopt -o filenames 2>/dev/null
    local f
    while IFS= read -r f; do COMPREPLY+=("$f"); done < <(compgen -d -- "$cur")
}

# BEGIN run's option values: made from the table of run's options
# (src/run/run_request_table.c) by `make completion-run`; t0013 checks it.
# _fsbench_run_value OPTION: offers OPTION's values (none for a number); 1 when
# the option is not one of these (a path, a list, a flag).
_fsbench_run_value()
{
    case $1 in
    --size) _fsbench_add auto ;;
    --runs) _fsbench_add auto until-verdict ;;
    --bisect-confidence) _fsbench_add 90 95 99 ;;
    --engine) _fsbench_add posix uring auto null ;;
    --format) _fsbench_add table seeds compilebench ;;
    --extract-calls) _fsbench_add tar create ;;
    --replay-timing) _fsbench_add afap original ;;
    --ranks-dir) _fsbench_add unique shared ;;
    --scale | --seed | --precision | --min-effect | --negligible | --max-runs | --warmup \
        | --queue-depth | -j | --threads | --interval | --stall | --image | -i | --initial \
        | -r | --random | --cb-buffer-size | --fsync-rounds | --age-written | --age-fullness \
        | --age-converge | --age-replay-times | --replay-threads | --rank-shift \
        | --stonewall) ;;
    *) return 1 ;;
    esac
    return 0
}
# END run's option values

# _fsbench_options: the options of the command being completed (with its verb: tree
# capture's are not tree make's), as its --help names them in its usage lines and at the
# head of its option lines; not those its prose mentions (compare's help speaks of run's
# --runs). t0014 holds these to each command's table of options.
_fsbench_options()
{
    local verb="" i w seen=""
    if [[ $cmd == tree || $cmd == bisect || $cmd == trace ]]; then
        for ((i = 1; i < COMP_CWORD; i++)); do
            w=${COMP_WORDS[i]}
            [[ $w == -* ]] && continue
            [[ -n $seen ]] && { verb=$w; break; }
            [[ $w == "$cmd" ]] && seen=1
        done
    fi
    "$_fsbench_bin" "$cmd" $verb --help 2>/dev/null | awk '
        /^usage:/ { u = 1 }
        u && !/^usage:/ && !/^ +(\[|fsbench )/ { u = 0 }
        u { s = $0 }
        !u && /^ +-/ { s = $0; sub(/^ +/, "", s); sub(/(  |: ).*/, "", s) }
        !u && !/^ +-/ { next }
        { while (match(s, /(^|[ [|,])--?[a-zA-Z][a-zA-Z0-9-]*/)) {
              o = substr(s, RSTART, RLENGTH); sub(/^[^-]*/, "", o); print o
              s = substr(s, RSTART + RLENGTH) } }' | sort -u
}

_fsbench()
{
    local cur prev cmd="" i w
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=""
    [[ $COMP_CWORD -gt 0 ]] && prev=${COMP_WORDS[COMP_CWORD - 1]}
    _fsbench_bin=${COMP_WORDS[0]}
    [[ $_fsbench_bin == "~/"* ]] && _fsbench_bin=$HOME/${_fsbench_bin#"~/"}
    _fsbench_db=""
    for ((i = 1; i < ${#COMP_WORDS[@]}; i++)); do
        w=${COMP_WORDS[i]}
        if [[ $w == --db && ${COMP_WORDS[i + 1]} == "=" ]] && ((i < COMP_CWORD - 2)); then
            _fsbench_db=${COMP_WORDS[i + 2]}
        elif [[ $w == --db ]] && ((i < COMP_CWORD - 1)); then
            _fsbench_db=${COMP_WORDS[i + 1]}
        elif [[ $w == --db=* ]]; then
            _fsbench_db=${w#--db=}
        fi
        [[ -z $cmd && $w != -* && $w != "=" ]] && ((i < COMP_CWORD)) && cmd=$w
    done

    if [[ -z $cmd ]]; then
        if [[ $cur == -* ]]; then
            _fsbench_add --help --version
        else
            _fsbench_add $(_fsbench_words commands)
        fi
        return 0
    fi

    # --opt=value: complete the value as if it were the next word ('=' is a word of its
    # own where COMP_WORDBREAKS holds it, as it does by default)
    if [[ $cur == "=" ]]; then
        cur=""
    elif [[ $prev == "=" && $COMP_CWORD -gt 1 ]]; then
        prev=${COMP_WORDS[COMP_CWORD - 2]}
    elif [[ $cur == --*=* ]]; then
        prev=${cur%%=*}
        cur=${cur#*=}
    fi

    # run's options with values, and its numbers: from the table (the block above)
    if [[ $cmd == run ]] && _fsbench_run_value "$prev"; then
        return 0
    fi

    case $prev in
    --tree)
        _fsbench_add $(_fsbench_words profiles) tar:
        [[ $cur == tar:* ]] || _fsbench_files '*.ini'
        [[ $cur == tar: ]] && compopt -o nospace 2>/dev/null
        return 0 ;;
    --phases | --phase | --bisect-phase)
        if [[ $prev == --phases ]]; then
            _fsbench_add_list $(_fsbench_words phases)
        else
            _fsbench_add $(_fsbench_words phases)
        fi
        return 0 ;;
    --engine) _fsbench_add $(_fsbench_words engines); return 0 ;;
    --extract-calls) _fsbench_add tar create; return 0 ;;
    --age-profile)
        # run: a built-in aging profile or a profile file; tree capture: the file to write
        [[ $cmd == run ]] && _fsbench_add agrawal smallfiles tiny
        _fsbench_files '*.ini'
        return 0 ;;
    --names) _fsbench_add scenarios phases profiles engines; return 0 ;;
    --fs) _fsbench_add_list ext4 xfs btrfs ext2 ext3; return 0 ;;
    --job) _fsbench_add $(_fsbench_words scenarios); _fsbench_files '*.ini'; return 0 ;;
    --format)
        case $cmd in
        compare) _fsbench_add text ministat ;;
        run) _fsbench_add table seeds compilebench ;;
        *) _fsbench_add table seeds ;;
        esac
        return 0 ;;
    --metric)
        _fsbench_add wall user sys cpu ops mbps dev-writes dev-reads dev-write-mb
        return 0 ;;
    --confidence | --bisect-confidence) _fsbench_add 90 95 99; return 0 ;;
    --by) _fsbench_add created given kernel; return 0 ;;
    --fail-on) _fsbench_add regression regression=; return 0 ;;
    --good | --bad | --history | --bisect-good | --bisect-bad)
        _fsbench_add $(_fsbench_words labels); return 0 ;;
    --bisect-metric) _fsbench_add wall user sys cpu ops mbps dev-writes dev-reads dev-write-mb
        return 0 ;;
    --runs) [[ $cmd == run ]] && _fsbench_add auto; return 0 ;;
    --size) _fsbench_add auto; return 0 ;;
    --ranks-dir) _fsbench_add unique shared; return 0 ;;
    --db | --json | -o | --output | --device) _fsbench_files; return 0 ;;
    --csv) # compare --csv FILE; history's --csv takes no value
        if [[ $cmd == compare ]]; then _fsbench_files; return 0; fi ;;
    --dir | --image-dir | --cb-dataset) _fsbench_dirs; return 0 ;;
    --scale | --seed | --precision | --max-runs | --warmup | --queue-depth | -j | --threads | \
        --label | --interval | --stall | --image | --mkfs-opts | --mount-opts | -i | \
        --initial | -r | --random | --fsync-rounds | --age-written | --age-fullness | --age-converge | \
        --rank-shift | --stonewall | --min-effect | --negligible | --points | --cmd | --prepare | \
        --cb-buffer-size | --cb-program-cpu | --meta | --alpha | --min-segment)
        return 0 ;;
    esac

    if [[ $cur == -* ]]; then
        _fsbench_add --help $(_fsbench_options)
        return 0
    fi

    case $cmd in
    help) _fsbench_add $(_fsbench_words commands) ;;
    list) ;;
    run) _fsbench_add $(_fsbench_words scenarios); _fsbench_files '*.ini' ;;
    compare | report) _fsbench_add $(_fsbench_words labels); _fsbench_files '*.json' ;;
    show | export | forget | history) _fsbench_add $(_fsbench_words labels) ;;
    bisect)
        if [[ ${COMP_WORDS[*]} == *verdict* ]]; then
            _fsbench_add $(_fsbench_words labels)
        else
            _fsbench_add verdict
        fi ;;
    import) _fsbench_files '*.json' ;;
    tree)
        local n=0
        for ((i = 1; i < COMP_CWORD; i++)); do [[ ${COMP_WORDS[i]} != -* ]] && ((n++)); done
        if [[ $n -eq 1 ]]; then
            _fsbench_add make stats capture
        elif [[ $n -eq 2 && ${COMP_WORDS[*]} != *capture* ]]; then
            _fsbench_add $(_fsbench_words profiles) tar:
            _fsbench_files '*.ini'
        else
            _fsbench_dirs
        fi ;;
    layout) _fsbench_dirs ;;
    *) _fsbench_files ;;
    esac
    return 0
}
complete -F _fsbench fsbench fsbench-mpi
