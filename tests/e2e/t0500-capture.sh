#!/bin/bash
# Trees shaped like the user's own: tree capture records a real tree's shape (no names),
# --tree FILE.ini synthesises trees like it at any scale, a broken shape file is refused
# with FILE:LINE, --size picks the scale for a byte total, --size auto explains its choice
# in one line on stderr.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd jq

D="$SCRATCH/D"
run_fsbench tree make kernel "$D" --scale 0.05
is "$RC" 0 "tree make kernel x0.05 exits 0"
files=$(find "$D" -type f | wc -l)
dirs=$(find "$D" -mindepth 1 -type d | wc -l)

run_fsbench tree capture "$D" -o "$SCRATCH/s.ini"
is "$RC" 0 "tree capture exits 0"
like "$OUT" "^captured .*: $files files, $dirs dirs" "capture reports the files and dirs find counts"
like "$OUT" "max depth [0-9]+" "capture reports the depth"
grep -q '^\[file_sizes\]$' "$SCRATCH/s.ini"
ok $? "the shape file has [file_sizes]"
grep -q "^files = $files$" "$SCRATCH/s.ini"
ok $? "the shape file counts the files"
# no name of the tree appears in the file (every generated name has a '_' + index)
name=$(find "$D" -type f -name '*_*' | head -1 | xargs basename)
! grep -qF "$name" "$SCRATCH/s.ini"
ok $? "no file name in the shape file"

run_fsbench tree stats "$SCRATCH/s.ini" --scale 2
is "$RC" 0 "tree stats of a shape file exits 0"
like "$OUT" "^files +$((2 * files))$" "at --scale 2 it has twice the files"

run_fsbench run --tree "$SCRATCH/s.ini" --no-save --phases extract,walk,delete \
    --json "$SCRATCH/r.json"
is "$RC" 0 "run --tree s.ini exits 0"
got=$(jq '[.runs[0].phases[] | select(.name == "extract") | .files][0]' "$SCRATCH/r.json" \
      2>/dev/null)
is "$got" "$files" "extract made as many files as were captured"

cp "$SCRATCH/s.ini" "$SCRATCH/bad.ini"
sed -i 's/^\[depth\]$/[depth]\nseven = 3/' "$SCRATCH/bad.ini"
line=$(grep -n '^seven' "$SCRATCH/bad.ini" | cut -d: -f1)
run_fsbench run --tree "$SCRATCH/bad.ini" --no-save --phases extract,delete
is "$RC" 2 "a broken shape file is a usage error"
like "$ERR" "bad.ini:$line: " "the message names the file and line"
is "$(printf '%s\n' "$ERR" | wc -l)" 1 "in one line"

run_fsbench run --size 20M --tree pkgsrc --phases extract,delete --no-save --json "$SCRATCH/j.json"
is "$RC" 0 "run --size 20M exits 0"
bytes=$(jq '.tree.bytes' "$SCRATCH/j.json" 2>/dev/null)
ok $(awk -v b="${bytes:-0}" 'BEGIN {t = 20 * 1048576; exit !(b > 0.9 * t && b < 1.1 * t)}'; echo $?) \
   "tree.bytes ($bytes) within 10% of 20 MiB"

run_fsbench run --size auto --tree tiny --phases extract,delete --no-save
is "$RC" 0 "run --size auto exits 0"
like "$ERR" '^fsbench: --size auto: RAM [0-9.]+ [GM]iB, .*tree of' "it explains its choice"
is "$(printf '%s\n' "$ERR" | grep -c -- '--size auto')" 1 "in one line on stderr"

run_fsbench run --size 10Q --tree pkgsrc --phases extract,delete --no-save
is "$RC" 2 "a bad --size is a usage error"
done_testing
