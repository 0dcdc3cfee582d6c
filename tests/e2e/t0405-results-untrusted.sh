#!/bin/bash
# Imported results, labels and the results store are data, never orders (issue 19), and
# output files are written by a temporary and a rename (issue 18): times in an import are
# finite and >= 0 (a zero-length phase is shown as such); labels hold no control
# character, bidirectional control or invalid UTF-8 and do not start with '-'; what is
# printed from a store is escaped; read-only commands read a database they may not write;
# a full file system, a foreign SQLite database and --db /dev/null each get one clear
# line; no output replaces the database; report -o never removes what it did not create
# (tested on a device node of its own, never on /dev/full: a failing build would remove it);
# `run --json -` keeps standard output for the JSON; CSV cells cannot be formulas.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd jq
need_cmd sqlite3

cd "$SCRATCH" || exit 1
export TMPDIR="$SCRATCH/tmp"
mkdir -p "$TMPDIR"
DB="$SCRATCH/r.db"
lines() { if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l; fi; }
QUICK=(--engine null --tree tiny --phases extract,delete)

for l in a b; do
    "$FSBENCH" run "${QUICK[@]}" --runs 3 --label $l --db "$DB" >/dev/null 2>&1
done
"$FSBENCH" export a --json --db "$DB" -o a.json
ok $? "export a as JSON"

# --- times in an import ---------------------------------------------------------------
jq '.label = "neg" | .runs[].phases[].wall_s = -1' a.json >neg.json
jq '.label = "den" | .runs[].phases[].wall_s = 5e-324' a.json >den.json
jq '.label = "huge" | .runs[].phases[].wall_s = 1e300' a.json >huge.json
jq '.label = "zero" | .runs[].phases[].wall_s = 0' a.json >zero.json
for f in neg den huge; do
    run_fsbench import $f.json --db "$DB"
    is "$RC" 1 "import of a $f time: refused"
    like "$ERR" "^fsbench: $f\.json: runs\[0\]\.phases\[0\]\.wall_s: " "import of a $f time: names the member"
    is "$(lines "$ERR")" 1 "import of a $f time: one line"
    diag "$f.json | $ERR"
done
run_fsbench report den.json -o den.html --db "$DB"
is "$RC" 1 "report of a denormal time: refused when read"
like "$ERR" "below the clock's resolution" "report of a denormal time: says why, never 'out of memory'"
run_fsbench import zero.json --db "$DB"
is "$RC" 0 "a zero-length phase imports"
run_fsbench show zero --db "$DB" --wide
like "$OUT" "^extract +3 +0\.000 \[0\.000-0\.000\] +[0-9.]+ +[0-9.]+ +[0-9]+ +- +- " \
    "show: a zero-length phase has no rate ('-'), not 0 or inf"
run_fsbench compare b zero --db "$DB"
is "$RC" 0 "compare with a zero-length phase: exit 0"
ok $(printf '%s\n' "$OUT" | grep -q inf && echo 1 || echo 0) "compare: no infinite ratio"

# --- labels ----------------------------------------------------------------------------------
names=("a line break" "an escape sequence" "a leading -" "Latin-1" "U+202E")
bads=($'two\nlines' $'\e[31mred' -rf $'caf\xe9' $'safe\xe2\x80\xaetxt.exe')
for i in 0 1 2 3 4; do
    run_fsbench run "${QUICK[@]}" --label "${bads[$i]}" --db "$DB"
    is "$RC" 2 "run --label with ${names[$i]}: refused"
    is "$(lines "$ERR")" 1 "run --label with ${names[$i]}: one line"
    diag "--label with ${names[$i]} | $ERR"
done
like "$ERR" "holds a bidirectional-text control \(U\+202E\)" "U+202E named"
jq '.label = "x\nfsbench: forged \u001b[2J"' a.json >esc.json
run_fsbench import esc.json --db "$DB"
is "$RC" 2 "import of a label with a line break and ESC: refused"
like "$ERR" "^fsbench: import: esc\.json: label 'x\\\\nfsbench: forged \\\\x1b\[2J' holds a line break: give another with --label NAME$" \
    "import: the label shown escaped, one line"
run_fsbench import esc.json --label rescued --db "$DB"
is "$RC" 0 "import --label NEW rescues it"
run_fsbench import a.json --label -x --db "$DB"
is "$RC" 2 "import --label -x: refused"
jq '.label = "cfg" | .runs[0].config = "a\u202eb"' a.json >cfg.json
run_fsbench import cfg.json --db "$DB"
is "$RC" 1 "a configuration holding U+202E: refused"
like "$ERR" "runs\[0\]\.config: holds a bidirectional-text control" "the configuration named"

# --- printed escaped (a store written before the rules) ------------------------------------
sqlite3 "$DB" "UPDATE run_sets SET label = 'old' || char(27) || '[2J' || char(10) || 'forged' WHERE label = 'b'"
jq '.label = "noted" | .runs[0].phases[0].note = "disk full\n\u001b]0;owned\u0007"' a.json >note.json
"$FSBENCH" import note.json --db "$DB" >/dev/null
run_fsbench runs --db "$DB"
ok $(printf '%s' "$OUT" | grep -q $'\e' && echo 1 || echo 0) "runs: no raw ESC"
like "$OUT" 'old\\x1b\[2J\\nforged' "runs: the label shown escaped"
run_fsbench show noted --db "$DB"
ok $(printf '%s' "$OUT" | grep -q $'\e' && echo 1 || echo 0) "show: no raw ESC from a note"
like "$OUT" 'note in run 1: disk full\\n\\x1b\]0;owned\\x07' "show: the note escaped on its line"

# never a false "out of memory": a directory whose name is not UTF-8 (a Latin-1 path is a
# valid path), and a label stored before the rules held
mkdir "$SCRATCH/caf"$'\xe9'
"$FSBENCH" run "${QUICK[@]}" --dir "$SCRATCH/caf"$'\xe9' --label latin --db "$DB" >/dev/null 2>&1
run_fsbench report latin -o latin.html --db "$DB"
is "$RC" 0 "report of a run in a directory named in Latin-1: the page is written"
ok $(grep -q 'caf\\\\xe9' latin.html && echo 0 || echo 1) "the path shown escaped in the page"
sqlite3 "$DB" "UPDATE run_sets SET label = 'bad' || X'ff' WHERE label = 'latin'"
run_fsbench report "bad"$'\xff' -o bad.html --db "$DB"
is "$RC" 0 "report of a label that is not UTF-8 (an old store): the page is written"
like "$ERR" "^$" "no 'out of memory'"

# --- the store -------------------------------------------------------------------------------
sqlite3 foreign.db 'CREATE TABLE people(name TEXT); INSERT INTO people VALUES ("x");'
run_fsbench import a.json --db foreign.db
is "$RC" 1 "a foreign SQLite database: refused"
like "$ERR" "^fsbench: foreign\.db: not an fsbench results database \(it holds tables people\)" "foreign: named"
is "$(sqlite3 foreign.db .tables)" people "foreign: no table added"
run_fsbench runs --db foreign.db
is "$RC" 1 "runs on a foreign database: refused too"
had_journal=$([ -e /dev/null-journal ] && echo 1 || echo 0)
run_fsbench runs --db /dev/null
is "$RC" 1 "--db /dev/null: refused"
like "$ERR" "^fsbench: /dev/null: not a regular file: the results database must be a regular file" "--db /dev/null: said"
ok $([ "$had_journal" = 1 ] || [ ! -e /dev/null-journal ] && echo 0 || echo 1) "no /dev/null-journal made"
[ "$had_journal" = 0 ] && rm -f /dev/null-journal
cp "$DB" victim.db
V="$SCRATCH/victim.db"
for out in "$V" "$V-wal" "$SCRATCH/./victim.db"; do
    run_fsbench export a --json -o "$out" --db "$V"
    is "$RC" 2 "export -o $out (the database): refused"
    like "$ERR" "that is the results database" "export -o the database: says so"
done
run_fsbench report a -o "$V" --db "$V"
is "$RC" 2 "report -o the database: refused"
is "$(sqlite3 "$V" 'PRAGMA integrity_check')" ok "the database is intact"
run_fsbench runs --db "$V"
like "$OUT" " a  " "its runs are still there"

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null &&
    setpriv --reuid=nobody --regid=nogroup --clear-groups "$FSBENCH" --help >/dev/null 2>&1; then
    mkdir ro && cp "$DB" ro/r.db && chmod 0755 ro && chmod 0644 ro/r.db && chmod 0711 "$SCRATCH"
    sqlite3 ro/r.db 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
    rm -f ro/r.db-wal ro/r.db-shm
    nobody() { (cd ro && setpriv --reuid=nobody --regid=nogroup --clear-groups "$FSBENCH" "$@" \
        >"$SCRATCH/out" 2>"$SCRATCH/err"); RC=$?; ERR=$(cat "$SCRATCH/err"); }
    for c in "runs" "show a" "export a --json" "export a --csv" "compare a zero" "report a -o -"; do
        # shellcheck disable=SC2086
        nobody $c --db r.db
        is "$RC" 0 "a read-only results.db, not ours: $c"
        is "$ERR" "" "$c: nothing on stderr"
    done
    ok $([ -z "$(ls -A ro | grep -v '^r.db$')" ] && echo 0 || echo 1) "nothing made beside it"
    chmod 0700 "$SCRATCH"

    mkdir full && mount -t tmpfs -o size=256k fsbench-t0405 full
    "$FSBENCH" import a.json --db full/r.db >/dev/null
    echo "old page" >full/page.html
    dd if=/dev/zero of=full/fill bs=4k 2>/dev/null
    run_fsbench import a.json --label more --db full/r.db
    is "$RC" 1 "a store on a full file system: exit 1"
    like "$ERR" "no space left on fsbench-t0405 \(tmpfs on $SCRATCH/full\)" "it says no space left on DEVICE"
    is "$(lines "$ERR")" 1 "one line"
    diag "full | $ERR"
    run_fsbench report a -o full/page.html --db "$DB"
    is "$RC" 1 "report onto a full file system: exit 1"
    like "$ERR" "No space left on device" "report: the reason"
    is "$(cat full/page.html)" "old page" "the old page is left whole"
    is "$(ls -A full | grep -c '^\.')" 0 "no temporary left behind"
    umount full
else
    skip "needs root and setpriv" 20
fi

# --- output files -----------------------------------------------------------------------------
# A device that is always full: a node of our own where we may make one (root), so that a
# build that removes its output on failure removes nothing of the system's.
if [ "$(id -u)" -eq 0 ] && mknod fulldev c 1 7 2>/dev/null; then FULL=$SCRATCH/fulldev; else FULL=/dev/full; fi
ln -s "$FULL" full-link
run_fsbench report a -o full-link --db "$DB"
is "$RC" 1 "report -o a symlink to a full device: the failure said"
ok $([ -L full-link ] && echo 0 || echo 1) "the symlink is not removed"
if [ "$FULL" != /dev/full ]; then
    run_fsbench report a -o "$FULL" --db "$DB"
    is "$RC" 1 "report -o the full device itself: exit 1"
    ok $([ -c "$FULL" ] && echo 0 || echo 1) "the device is not removed"
else
    skip "needs root to make a device node of our own" 2
fi
echo old >page.html
ino=$(stat -c %i page.html)
run_fsbench report a -o page.html --db "$DB"
is "$RC" 0 "report -o an existing page"
ok $([ "$(stat -c %i page.html)" != "$ino" ] && grep -q '<html' page.html && echo 0 || echo 1) \
    "the page replaced by a rename, never rewritten in place"
for how in --json --csv; do
    echo old >exp.out
    ino=$(stat -c %i exp.out)
    run_fsbench export a $how -o exp.out --db "$DB"
    ok $([ "$RC" = 0 ] && [ "$(stat -c %i exp.out)" != "$ino" ] && echo 0 || echo 1) \
        "export $how -o: replaced by a rename"
done
mkdir -p capture/d && echo x >capture/d/f
echo old >shape.ini
ino=$(stat -c %i shape.ini)
run_fsbench tree capture capture -o shape.ini
ok $([ "$RC" = 0 ] && [ "$(stat -c %i shape.ini)" != "$ino" ] && echo 0 || echo 1) \
    "tree capture -o: replaced by a rename"
echo old >run.json
ino=$(stat -c %i run.json)
run_fsbench run "${QUICK[@]}" --no-save --json run.json
ok $([ "$RC" = 0 ] && [ "$(stat -c %i run.json)" != "$ino" ] && echo 0 || echo 1) \
    "run --json: replaced by a rename"
is "$(ls -a | grep -c '^\.[^.]')" 0 "no temporary files left anywhere"

label=$("$FSBENCH" run "${QUICK[@]}" --no-save --json - 2>/dev/null | jq -r .scenario)
is "$label" custom "run --json - | jq: the JSON alone on standard output"
run_fsbench run "${QUICK[@]}" --no-save --json - -q
is "$ERR" "" "run --json - -q: no table anywhere"

# --- CSV cells are never formulas ----------------------------------------------------------
jq '.label = "=HYPERLINK(\"http://x\")" | .runs[0].config = "@SUM(A1)" | .runs[1].config = "-5"
    | .runs[2].config = "-2+3"' a.json >csv.json
"$FSBENCH" import csv.json --db "$DB" >/dev/null
run_fsbench export '=HYPERLINK("http://x")' --csv --db "$DB"
row() { printf '%s\n' "$OUT" | sed -n "$1p"; }
like "$(row 2)" "^\"'=HYPERLINK\(\"\"http://x\"\"\)\",\"'@SUM\(A1\)\"," "a formula label and configuration: prefixed"
like "$(row 4)" ",-5,2,2,0,extract," "a negative number stays a number"
like "$(row 6)" ",\"'-2\+3\",3,3,0,extract," "'-2+3' is not a number: prefixed"
done_testing
