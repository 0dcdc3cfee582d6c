#!/bin/bash
# The basic scenario on the tiny tree in a plain directory: the table is printed, the JSON
# is valid, every phase handled the same number of files, and nothing is left behind.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd jq

mkdir "$SCRATCH/work"
run_fsbench run --dir "$SCRATCH/work" --tree tiny --runs 2 --json "$SCRATCH/r.json" --no-save
is "$RC" 0 "run basic on tiny exits 0"
like "$OUT" '^extract +2 ' "table has an extract row over 2 runs"
like "$OUT" '^delete +2 ' "table has a delete row"
jq -e . "$SCRATCH/r.json" >/dev/null
ok $? "JSON is valid"
is "$(jq -r '.schema_version' "$SCRATCH/r.json")" 1 "JSON carries schema_version 1"
is "$(jq '.runs | length' "$SCRATCH/r.json")" 2 "JSON has both runs"

count() { jq -r --arg p "$1" --arg f "$2" --argjson r "$3" \
    '.runs[$r].phases[] | select(.name == $p) | .[$f]' "$SCRATCH/r.json"; }
files=$(jq -r '.tree.files' "$SCRATCH/r.json")
ok $([ "$files" -gt 500 ] && echo 0 || echo 1) "tree has $files files"
for r in 0 1; do
    is "$(count extract files $r)" "$files" "run $r: extract created every file"
    is "$(count walk files $r)" "$files" "run $r: walk saw every file"
    is "$(count statwalk files $r)" "$files" "run $r: statwalk stat'ed every file"
    is "$(count read files $r)" "$files" "run $r: read read every file"
    is "$(count copy files $r)" "$files" "run $r: copy copied every file"
    is "$(count delete files $r)" "$((2 * files))" "run $r: delete removed tree and copy"
    is "$(count extract dirs $r)" "$(count walk dirs $r)" "run $r: walk saw every directory"
    is "$(count read bytes_read $r)" "$(jq -r '.tree.bytes' "$SCRATCH/r.json")" \
        "run $r: read read every byte"
done
is "$(ls -A "$SCRATCH/work")" "" "work directory is empty afterwards"

# Default target: a new temporary directory, removed afterwards.
mkdir "$SCRATCH/tmp"
TMPDIR="$SCRATCH/tmp" run_fsbench run --tree tiny --phases extract,delete --no-save
is "$RC" 0 "run in the default temporary directory exits 0"
like "$OUT" "target $SCRATCH/tmp/fsbench\." "it ran under \$TMPDIR"
is "$(ls -A "$SCRATCH/tmp")" "" "temporary directory removed afterwards"

# The seeds' compact form.
run_fsbench run --dir "$SCRATCH/work" --tree tiny --format seeds --no-save
is "$RC" 0 "--format seeds exits 0"
like "$OUT" '^extract: [0-9]+\.[0-9]{2} real [0-9]+\.[0-9]{2} user [0-9]+\.[0-9]{2} sys$' \
    "seeds form: 'extract: N real N user N sys'"
like "$OUT" '^statwalk: [0-9.]+ real' "seeds form has statwalk"

# The null engine touches nothing but counts the same files.
run_fsbench run --dir "$SCRATCH/work" --tree tiny --engine null --phases extract \
    --json "$SCRATCH/n.json" --no-save
is "$RC" 0 "null engine run exits 0"
is "$(jq -r '.runs[0].phases[0].files' "$SCRATCH/n.json")" "$files" "null engine counts every file"
is "$(ls -A "$SCRATCH/work")" "" "null engine wrote nothing"
done_testing
