#!/bin/bash
# compare --format ministat prints, byte for byte, what Debian's ministat prints for the same
# samples (ministat -A: the statistics without the plot; newer versions call it -q). The
# samples are taken from `fsbench export LABEL --csv` (wall_s of the phase, warm-up runs
# left out) and written to files named like the labels, so that the set names match.
. "$(dirname "$0")/../lib/tap.sh"
[ -x /usr/bin/ministat ] || skip_all "needs /usr/bin/ministat"

DB=$SCRATCH/m.db
mkdir "$SCRATCH/w" "$SCRATCH/ms"
# a, b and c: the same small tree; big: a tree fifteen times larger, slower to extract even
# on a loaded machine (five times larger was lost in the noise of a busy 2-CPU machine).
for l in a b c big; do
    scale=0.2
    [ $l = big ] && scale=3
    run_fsbench run --db "$DB" --label $l --runs 5 --phases extract,delete --tree tiny \
        --scale $scale --dir "$SCRATCH/w"
    is "$RC" 0 "run --label $l --runs 5 exits 0"
    # Column 5 warmup, 6 phase, 8 wall_s (labels and configs here hold no commas).
    for p in extract delete; do
        mkdir -p "$SCRATCH/ms/$p"
        "$FSBENCH" export $l --db "$DB" --csv |
            awk -F, -v p=$p 'NR > 1 && $5 == 0 && $6 == p && $7 == "ok" {print $8}' \
                >"$SCRATCH/ms/$p/$l"
    done
done
is "$(wc -l <"$SCRATCH/ms/extract/a")" 5 "5 extract samples of a from the CSV"

# same PHASE CONFIDENCE LABELS...: fsbench's ministat format against ministat's own.
same() {
    local p=$1 c=$2; shift 2
    run_fsbench compare --db "$DB" --format ministat --phase "$p" --confidence "$c" "$@"
    is "$RC" 0 "compare --format ministat --phase $p --confidence $c $*: exits 0"
    [ "$RC" -eq 0 ] || diag "$ERR"
    cp "$SCRATCH/out" "$SCRATCH/got"   # the raw bytes, trailing newlines included
    (cd "$SCRATCH/ms/$p" && /usr/bin/ministat -A -c "$c" "$@") >"$SCRATCH/want" 2>&1
    if cmp -s "$SCRATCH/got" "$SCRATCH/want"; then
        ok 0 "$p, $c%, $*: byte for byte what ministat -A -c $c prints"
    else
        ok 1 "$p, $c%, $*: byte for byte what ministat -A -c $c prints"
        diag "diff -u ministat fsbench:" "$(diff -u "$SCRATCH/want" "$SCRATCH/got")"
    fi
    LAST=$(cat "$SCRATCH/want")
}

same extract 95 a b
like "$LAST" '^x   5 ' "ministat saw the 5 samples of a (the comparison is not vacuous)"
same extract 99 a b
same delete 95 a b
same extract 95 a big
like "$LAST" '^Difference at 95\.0% confidence$' "a vs big: ministat finds a difference"
same extract 99 a big
same extract 90 big a
same extract 95 a b c
like "$LAST" '^\*   5 ' "three sets: the third is '*'"
same delete 99 a b c big
done_testing
