#!/bin/bash
# Every command's options but run's (t0013 holds run's): each command's getopt_long reads
# one table (src/cli/cli_options.c lists them), and its --help, its part of the man page
# and the bash completion are held to that table here, so that any drift fails naming the
# command and the option: every option the command accepts is named in its --help and in
# its man page part (its SYNOPSIS entry and its section); the options its --help names in
# its usage and option lines, which the completion offers, are the table's, no more and no
# fewer; a .TP entry of a command's own man section heads only options of its commands.
# The checks catch a drift made on purpose in a scratch copy of the man page and of the
# completion.
. "$(dirname "$0")/../lib/tap.sh"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PRINT=$FSBENCH_BUILD/tests/cli_options_print
[ -x "$PRINT" ] || skip_all "no $PRINT (make $PRINT)"
COMPLETION=$ROOT/completion/fsbench.bash
MAN=$ROOT/docs/fsbench.1

"$PRINT" >"$SCRATCH/table"
"$PRINT" commands >"$SCRATCH/commands"
ok $([ "$(wc -l <"$SCRATCH/commands")" -ge 17 ] && echo 0 || echo 1) \
    "a table for every command but run ($(wc -l <"$SCRATCH/commands"))"
is "$(sort -u "$SCRATCH/commands" | cut -d' ' -f1 | sort -u | tr '\n' ' ')" \
    "$("$FSBENCH" --help | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' | grep -vx run | sort | tr '\n' ' ')" \
    "the tables are those of the commands fsbench --help lists"

# options CMD: the options of CMD's table, one a line
options() { awk -F'\t' -v c="$1" '$1 == c {print $2}' "$SCRATCH/table" | sort -u; }
# roff OPT: OPT as the man page writes it (\-\-name)
roff() { printf '%s' "$1" | sed 's/-/\\-/g'; }
# named TEXTFILE OPT: whether TEXTFILE names OPT as an option (a word of its own)
named() { grep -qE -- "(^|[^a-zA-Z0-9-])$1(\$|[^a-zA-Z0-9-])" "$2"; }
# named_roff TEXTFILE OPT: the same in roff (\-\-name, not \-\-name\-more)
named_roff() {
    local re
    re=$(roff "$1" | sed 's/\\/\\\\/g')
    grep -qE -- "(^|[^a-zA-Z0-9\\\\-]|\\\\f[BIR]|\\\\-\\\\-\\[)$re(\$|[^a-zA-Z0-9\\\\]|\\\\f|\\\\-[^a-z])" "$2"
}

# man_part MANFILE CMD: CMD's part of the man page: its SYNOPSIS entry and its section
man_section() { awk -v s="$2" '/^\.SH/ {on = ($0 == ".SH \"" s "\"" || $0 == ".SH " s); next} on' "$1"; }
man_section_of() {
    case $1 in
    cmd) echo "RUN OPTIONS" ;;
    record | trace) echo "RECORD AND REPLAY" ;;
    compare) echo "COMPARE OPTIONS" ;;
    history | "bisect verdict") echo "SERIES: HISTORY AND BISECT" ;;
    report) echo "REPORT OPTIONS" ;;
    runs | show | export | import | forget) echo "RESULTS, IMPORTS AND OUTPUT FILES" ;;
    cleanup) echo "CLEANUP" ;;
    esac
}
man_part() {
    local first=${2%% *}
    case $first in show | export | import | forget) first=runs ;; esac
    man_section "$1" SYNOPSIS | awk -v b=".B fsbench $first" \
        'index($0, b) == 1 {on = 1} on && /^\.br/ {on = 0} on'
    [ -n "$(man_section_of "$2")" ] && man_section "$1" "$(man_section_of "$2")"
}

# complete_words WORD...: what the completion offers for the last word
mkdir "$SCRATCH/empty"
complete_words() {
    (cd "$SCRATCH/empty" && bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        _fsbench; printf "%s\n" "${COMPREPLY[@]}"' _ "$1" "$FSBENCH" "${@:2}" 2>/dev/null)
}

# drift MANFILE COMPLETION: one line for each disagreement, naming the command and option
drift() {
    local cmd o
    while IFS= read -r cmd; do
        # shellcheck disable=SC2086 # the command's words
        "$FSBENCH" $cmd --help >"$SCRATCH/help" 2>&1 || echo "$cmd: --help fails"
        man_part "$1" "$cmd" >"$SCRATCH/man"
        # shellcheck disable=SC2086
        complete_words "$2" $cmd - | sort -u >"$SCRATCH/offered"
        options "$cmd" >"$SCRATCH/accepted"
        for o in $(grep -vxE -- '-h|--help' "$SCRATCH/accepted"); do
            named "$o" "$SCRATCH/help" || echo "$cmd: $o is not in its --help"
            named_roff "$o" "$SCRATCH/man" || echo "$cmd: $o is not in the man page"
        done
        comm -23 "$SCRATCH/accepted" "$SCRATCH/offered" | grep -vx -- -h |
            sed "s/^/$cmd: not offered by the completion (nor in --help's option lines): /"
        comm -13 "$SCRATCH/accepted" "$SCRATCH/offered" |
            sed "s/^/$cmd: --help or the completion offers an option it does not accept: /"
    done <"$SCRATCH/commands"
    # a command's own section heads only its commands' options
    for s in "COMPARE OPTIONS:compare" "REPORT OPTIONS:report" "CLEANUP:cleanup" \
        "SERIES: HISTORY AND BISECT:history|bisect verdict"; do
        man_section "$1" "${s%:*}" | awk '/^\.TP/ {getline; print}' |
            grep -oE -- '(^|[ "(])\\-(\\-)?[a-z][a-z0-9]*(\\-[a-z0-9]+)*' |
            sed 's/^[ "(]//; s/\\-/-/g' | sort -u | while IFS= read -r o; do
            awk -F'\t' -v c="${s##*:}" -v o="$o" '$1 ~ "^(" c ")$" && $2 == o {f = 1} END {exit !f}' \
                "$SCRATCH/table" || echo "${s%:*}: heads $o, an option of none of its commands"
        done
    done
}

drift "$MAN" "$COMPLETION" >"$SCRATCH/drift"
is "$(cat "$SCRATCH/drift")" "" "help, man page and completion agree with every command's table"

# the checks themselves: a man page without report's --history, a completion offering
# compare's options for layout
grep -v '^\.BI \\-\\-history ' "$MAN" >"$SCRATCH/drift.1"
like "$(drift "$SCRATCH/drift.1" "$COMPLETION")" "report: --history is not in the man page" \
    "a man page without report's --history entry: found, naming report and --history"
sed 's/_fsbench_add --help \$(_fsbench_options)/_fsbench_add --help --bogus $(_fsbench_options)/' \
    "$COMPLETION" >"$SCRATCH/drift.bash"
like "$(drift "$MAN" "$SCRATCH/drift.bash")" \
    "layout: --help or the completion offers an option it does not accept: --bogus" \
    "a completion offering an option no command has: found, naming the command"
done_testing
