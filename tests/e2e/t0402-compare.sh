#!/bin/bash
# fsbench compare of two labels run as batches: per phase the groups' n, median, mean and
# sd and a verdict; the report says the runs were not interleaved. Metrics, confidence
# levels, a JSON file as an input, and the usage errors.
. "$(dirname "$0")/../lib/tap.sh"

DB=$SCRATCH/c.db
PHASES="extract statwalk delete"
mkdir "$SCRATCH/w"
for l in a b; do
    run_fsbench run --db "$DB" --label $l --runs 5 --phases extract,statwalk,delete \
        --tree tiny --scale 0.3 --dir "$SCRATCH/w"
    is "$RC" 0 "run --label $l --runs 5 exits 0"
done
lines() { if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l; fi; }
num='[0-9][0-9.e+-]*'
VERDICT='(faster|slower|no difference shown|below the)'

# The section of the report for one phase: from its heading ("PHASE (metric, unit)" at the
# start of a line; an indented "PHASE (all)" under outliers is not one) to the next blank line.
section() { printf '%s\n' "$OUT" | awk -v p="$1" 'index($0, p " (") == 1 {on = 1} on && /^$/ {exit} on'; }

run_fsbench compare --verbose --db "$DB" a b
is "$RC" 0 "compare a b exits 0"
like "$OUT" '^compare wall \(s, lower is better\), 95% confidence, .*baseline a$' "report header"
for p in $PHASES; do
    S=$(section "$p")
    like "$S" "^$p \\(wall, s\\)\$" "$p: heading"
    like "$S" '^  group +n +geo-mean +median +mean +sd$' "$p: column header (both figures named)"
    like "$S" "^  a +5 +$num +$num +$num +$num\$" "$p: a with n 5, geometric mean, median, mean, sd"
    like "$S" "^  b +5 +$num +$num +$num +$num\$" "$p: b with n 5, geometric mean, median, mean, sd"
    like "$S" "^  b vs a: .*$VERDICT" "$p: a verdict"
    like "$S" '^  b vs a: .*batches, not interleaved$' "$p: verdict says batches, not interleaved"
done
is "$(printf '%s\n' "$OUT" | grep -cE "^  b vs a: .*$VERDICT")" 3 "exactly one verdict per phase"
like "$OUT" '^note: runs compared as batches were not interleaved' "report says the runs were not interleaved"
like "$OUT" 'run A and B interleaved' "and what to do about it"
ROWS_B=$(printf '%s\n' "$OUT" | grep -E '^  b +5 ' | sed 's/^  b  */ /')

# Other metrics.
run_fsbench compare --verbose --db "$DB" --metric user a b
is "$RC" 0 "--metric user exits 0"
like "$OUT" '^compare user \(s, lower is better\)' "--metric user: header names user"
is "$(printf '%s\n' "$OUT" | grep -cE '^(extract|statwalk|delete) \(user, s\)$')" 3 "--metric user: every phase"
is "$(printf '%s\n' "$OUT" | grep -c '^  b vs a: ')" 3 "--metric user: a line per phase for b vs a"
run_fsbench compare --verbose --db "$DB" --metric ops a b
is "$RC" 0 "--metric ops exits 0"
like "$OUT" '^compare ops \(ops/s, higher is better\)' "--metric ops: header names ops/s, higher is better"
is "$(printf '%s\n' "$OUT" | grep -cE '^(extract|statwalk|delete) \(ops, ops/s\)$')" 3 "--metric ops: every phase"
is "$(printf '%s\n' "$OUT" | grep -cE "^  b vs a: .*$VERDICT")" 3 "--metric ops: a verdict per phase"
run_fsbench compare --verbose --db "$DB" --metric nope a b
is "$RC" 2 "--metric nope exits 2"
like "$ERR" "^fsbench: .*--metric.*'nope'" "--metric nope: message names the option and value"
is "$(lines "$ERR")" 1 "--metric nope: one line on stderr"
is "$OUT" "" "--metric nope: nothing on stdout"

# Confidence levels.
for c in 90 99; do
    run_fsbench compare --verbose --db "$DB" --confidence $c a b
    is "$RC" 0 "--confidence $c exits 0"
    like "$OUT" "^compare wall .*, $c% confidence," "--confidence $c: header says $c%"
    if [ $c = 99 ]; then # the minimum at 99%: 6 runs a group as batches; a and b have 5
        is "$(printf '%s\n' "$OUT" | grep -cE "^  b vs a: no verdict: 5 runs a group, 6 needed")" 3 \
            "--confidence 99: 5 runs a group, under the minimum of 6: no verdict, said why"
    else
        is "$(printf '%s\n' "$OUT" | grep -cE "^  b vs a: .*$VERDICT")" 3 "--confidence $c: a verdict per phase"
    fi
done
run_fsbench compare --verbose --db "$DB" --confidence 42 a b
is "$RC" 2 "--confidence 42 exits 2"
like "$ERR" "^fsbench: .*--confidence.*'42'" "--confidence 42: message names the option"
is "$(lines "$ERR")" 1 "--confidence 42: one line on stderr"

# A label against an exported JSON file: the file's figures are b's.
run_fsbench export b --db "$DB" --json -o "$SCRATCH/b.json"
is "$RC" 0 "export b --json exits 0"
BJ=$SCRATCH/b.json
run_fsbench compare --verbose --db "$DB" a "$BJ"
is "$RC" 0 "compare label a with b.json exits 0"
is "$(printf '%s\n' "$OUT" | grep -cE "^  $BJ vs a: .*$VERDICT")" 3 "compare with JSON: a verdict per phase"
is "$(printf '%s\n' "$OUT" | grep -E "^  $BJ +5 " | sed "s|^  $BJ  *| |")" "$ROWS_B" \
    "the JSON file's n/median/mean/sd equal label b's"

# Nothing to compare; unknown label.
run_fsbench compare --verbose --db "$DB" a
is "$RC" 2 "compare of one label with one configuration exits 2"
like "$ERR" "^fsbench: compare: .*'a'" "one label: message names it"
is "$(lines "$ERR")" 1 "one label: one line on stderr"
run_fsbench compare --verbose --db "$DB" a zzz
is "$RC" 2 "compare with an unknown label exits 2"
like "$ERR" "^fsbench: compare: .*'zzz'" "unknown label: message names it"
is "$(lines "$ERR")" 1 "unknown label: one line on stderr"
is "$OUT" "" "unknown label: nothing on stdout"

# compare only reads: a store that does not exist is not created (as runs/show/export do).
run_fsbench compare --verbose --db "$SCRATCH/none.db" a b
is "$RC" 2 "compare against a missing --db exits 2 (no such labels)"
ok $([ -e "$SCRATCH/none.db" ] && echo 1 || echo 0) "compare created no database at the missing --db path"
done_testing
