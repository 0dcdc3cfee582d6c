#!/bin/bash
# The one table of run's options (issue 31, src/run/run_request_table.c): `run --help`, the man
# page's RUN OPTIONS and the bash completion's run values are checked against it, so that
# any drift fails here: the help is the table's (and names each option), every option is
# named in the man page (and every option a RUN OPTIONS entry heads is one), every value of
# an option with values is in the man page, the completion's generated block is what the
# table makes now (make completion-run) and offers exactly those values; the checks
# themselves catch a drift made on purpose (a man page without an option, a completion
# without a value). A consent option (kind consent) is refused as a job key, from the table.
. "$(dirname "$0")/../lib/tap.sh"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PRINT=$FSBENCH_BUILD/tests/run_options_print
[ -x "$PRINT" ] || skip_all "no $PRINT (make $PRINT)"
COMPLETION=$ROOT/completion/fsbench.bash
MAN=$ROOT/docs/fsbench.1

"$PRINT" table >"$SCRATCH/table"
ok $([ "$(wc -l <"$SCRATCH/table")" -ge 60 ] && echo 0 || echo 1) \
    "the table has every option ($(wc -l <"$SCRATCH/table") rows)"
is "$(cut -f4 "$SCRATCH/table" | sort -u | grep -cvxE 'flag|number|duration|size|enum|list|path|text|consent')" 0 \
    "every row has a kind"
is "$(awk -F'\t' '$4 == "consent" {print $1}' "$SCRATCH/table" | tr '\n' ' ')" \
    "--destroy-data --force --age-host-fs " "the consent rows: --destroy-data, --force, --age-host-fs"

# ---- help: made from the table, every visible option on a line of its own
run_fsbench run --help
is "$OUT" "$("$PRINT" help)" "run --help is the table's help"
missing=""
for o in $(awk -F'\t' '$7 != "hidden" {print $1}' "$SCRATCH/table"); do
    printf '%s\n' "$OUT" | grep -qE -- "^  (-[a-zA-Z]( [A-Z]+)?, )?$o( |\\[|=|\$)" || missing="$missing $o"
done
is "$missing" "" "run --help has a line for every option of the table"
extra=""
for o in $(printf '%s\n' "$OUT" | grep -oE -- '^  (-[a-zA-Z][ ,] *[A-Z]*,? *)?--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z][a-z0-9-]*$'); do
    grep -q -- "^$o	" "$SCRATCH/table" || extra="$extra $o"
done
is "$extra" "" "run --help lists no option that the table lacks"

# ---- man page: RUN OPTIONS names every option; its entries head only options of the table
# man_drift MANFILE: the options missing from RUN OPTIONS, the headed ones not in the table,
# the values not named, one a line
man_drift() {
    awk '/^\.SH "RUN OPTIONS"/ {on = 1; next} /^\.SH/ {on = 0} on' "$1" >"$SCRATCH/runman"
    grep -E '^\.(B|BI|BR|RB|IR) ' "$SCRATCH/runman" >"$SCRATCH/bold"
    awk '/^\.TP/ {getline; print}' "$SCRATCH/runman" >"$SCRATCH/heads"
    "$PRINT" man >"$SCRATCH/man-names"
    while IFS= read -r o; do
        re=$(printf '%s' "$o" | sed 's/\\/\\\\/g')
        grep -qE -- "(^|[ \"(])$re(\$|[^a-z\\\\]|\\\\f|\\\\-[^a-z])" "$SCRATCH/bold" ||
            echo "not named: $o"
    done <"$SCRATCH/man-names"
    grep -oE -- '(^|[ "(])\\-(\\-)?[a-z][a-z0-9]*(\\-[a-z0-9]+)*' "$SCRATCH/heads" |
        sed 's/^[ "(]//' | sort -u | while IFS= read -r w; do
        grep -qxF -- "$w" "$SCRATCH/man-names" || echo "not an option: $w"
    done
    "$PRINT" values | while IFS=$'\t' read -r o vals; do
        for v in $vals; do
            grep -qF -- "$(printf '%s' "$v" | sed 's/-/\\-/g')" "$SCRATCH/runman" ||
                echo "value not named: $o $v"
        done
    done
}
is "$(man_drift "$MAN")" "" "the man page's RUN OPTIONS agree with the table"
grep -v '^\.BI \\-\\-stall ' "$MAN" | sed 's/afap/AFAP/g' >"$SCRATCH/drift.1"
got=$(man_drift "$SCRATCH/drift.1")
like "$got" 'not named: \\-\\-stall' "a man page without --stall's entry: found"
like "$got" 'value not named: --replay-timing afap' "a man page without afap: found"

# ---- completion: its generated block is the table's; it offers exactly each option's values
block() { awk '/^# BEGIN run.s option values/ {on = 1} on {print} /^# END run.s option values/ {on = 0}' "$1"; }
is "$(block "$COMPLETION")" "$("$PRINT" completion)" \
    "the completion's block of run values is the table's (else: make completion-run)"
mkdir "$SCRATCH/empty"
complete_words() {
    (cd "$SCRATCH/empty" && bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        _fsbench; printf "%s\n" "${COMPREPLY[@]}"' _ "$1" "$FSBENCH" "${@:2}" 2>/dev/null)
}
wrong=""
while IFS=$'\t' read -r o vals; do
    got=$(complete_words "$COMPLETION" run "$o" "" | tr '\n' ' ')
    [ "$got" = "$vals " ] || wrong="$wrong $o($got)"
done < <("$PRINT" values)
is "$wrong" "" "run OPTION <Tab> offers exactly the table's values, for every option with values"
is "$(complete_words "$COMPLETION" run --format "" | tr '\n' ' ')" "table seeds compilebench " \
    "run --format <Tab>: table seeds compilebench (as run --help says)"
is "$(complete_words "$COMPLETION" run --runs u)" "until-verdict" "run --runs u -> until-verdict"
sed 's/_fsbench_add table seeds compilebench ;;/_fsbench_add table seeds ;;/' "$COMPLETION" >"$SCRATCH/drift.bash"
ok $([ "$(block "$SCRATCH/drift.bash")" != "$("$PRINT" completion)" ] && echo 0 || echo 1) \
    "a completion without --format compilebench: found"

# ---- consent, by its kind: no job file sets it
for o in $(awk -F'\t' '$4 == "consent" {print substr($1, 3)}' "$SCRATCH/table"); do
    printf '[global]\ntree = tiny\n%s = 1\n' "$o" >"$SCRATCH/c.ini"
    run_fsbench run "$SCRATCH/c.ini" --dry-run
    is "$RC" 2 "a job file with $o = 1: exit 2"
    like "$ERR" "^fsbench: $SCRATCH/c.ini:3: .*$o.*command line" "$o: refused at its line, for the command line"
done

done_testing
