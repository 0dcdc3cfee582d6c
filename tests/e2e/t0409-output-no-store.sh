#!/bin/bash
# Outputs never replace results (issue 30): report -o, export -o and run --json refuse a file
# that begins with SQLite's header (another results store, not only the one --db names), a
# store's -wal file, or a run waiting in a store's spool, unless --force; and every output
# path is checked before the first run (--json into a directory that is not there fails at
# once, nothing run).
. "$(dirname "$0")/../lib/tap.sh"
need_cmd sqlite3

cd "$SCRATCH" || exit 1
run_fsbench run --phases extract,delete --tree tiny --db a.db --label L -q
is "$RC" 0 "a set in a.db: exit 0"
run_fsbench run --phases extract,delete --tree tiny --db b.db --label M -q
is "$RC" 0 "a second store, b.db: exit 0"

run_fsbench report L --db a.db -o b.db
is "$RC" 2 "report -o over another store: exit 2"
is "$ERR" "fsbench: report: -o: b.db is a SQLite database (a results store?): refusing to replace it (every run it holds would be lost); give --force to replace it" \
    "report -o over another store: refused in one line"
run_fsbench runs --db b.db
is "$RC" 0 "the other store is still a store"
like "$OUT" "M" "and still holds its set"

run_fsbench export L --db a.db --json -o b.db
is "$RC" 2 "export -o over another store: exit 2"
like "$ERR" "^fsbench: export: -o: b.db is a SQLite database" "export -o: refused"
printf 'x' >c.db-wal
cp b.db c.db
run_fsbench export L --db a.db --csv -o c.db-wal
is "$RC" 2 "export -o over a store's -wal file: exit 2"
is "$ERR" "fsbench: export: -o: c.db-wal is the wal file of the SQLite database c.db: refusing to replace it (every run it holds would be lost); give --force to replace it" \
    "export -o over a -wal file: refused, naming the store"
mkdir -p a.db.spool && printf '{}' >a.db.spool/set1-run2.json
run_fsbench export L --db b.db --json -o a.db.spool/set1-run2.json
is "$RC" 2 "export -o over a spooled run: exit 2"
like "$ERR" "a\.db\.spool/set1-run2\.json is in the spool a\.db\.spool, where runs wait for their results store" \
    "export -o over a spooled run: refused, saying so"
rm -r a.db.spool

run_fsbench run --phases extract,delete --tree tiny --no-save --json b.db
is "$RC" 2 "run --json over a store: exit 2"
like "$ERR" "^fsbench: --json: b\.db is a SQLite database" "run --json over a store: refused"
is "$OUT" "" "run --json over a store: nothing ran"

run_fsbench run --phases extract,delete --tree tiny --no-save --json /nonexistent/dir/out.json
is "$RC" 2 "--json into a directory that is not there: exit 2"
is "$ERR" "fsbench: --json: cannot write /nonexistent/dir/out.json: its directory /nonexistent/dir: No such file or directory" \
    "--json into no directory: one line, before the run"
is "$OUT" "" "--json into no directory: nothing ran"
run_fsbench run --phases extract,delete --tree tiny --db /nonexistent/dir/r.db
is "$RC" 2 "--db in a directory that is not there: exit 2"
is "$OUT" "" "--db in no directory: nothing ran"

run_fsbench report L --db a.db -o b.db --force
is "$RC" 0 "report -o over a store with --force: exit 0"
like "$(head -c 64 b.db)" "<!DOCTYPE html>|<html" "with --force the file is replaced"
done_testing
