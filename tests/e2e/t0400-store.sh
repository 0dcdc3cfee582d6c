#!/bin/bash
# The results store end to end: runs saved under a label, listed, shown, accumulated,
# exported as JSON and CSV, imported under a new label, forgotten; the default store path,
# --no-save, and a database that passes SQLite's integrity check.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd jq
need_cmd sqlite3

DB=$SCRATCH/r.db
mkdir "$SCRATCH/w"
quick() { # quick ARGS...: a small run in $SCRATCH/w
    run_fsbench run --dir "$SCRATCH/w" --tree tiny --scale 0.3 --phases extract,walk,delete "$@"
}
lines() { if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l; fi; }
phase_rows() { printf '%s\n' "$1" | grep -E '^(extract|walk|delete) '; }

quick --db "$DB" --label a --runs 2
is "$RC" 0 "run --label a --runs 2 exits 0"
like "$OUT" "^saved as 'a' \(2 runs\)$" "run says it saved 2 runs as 'a'"
quick --db "$DB" --label b --runs 3
is "$RC" 0 "run --label b --runs 3 exits 0"
ok $([ -f "$DB" ] && echo 0 || echo 1) "--db file was created"

# runs: one row per run set, the run count last.
run_fsbench runs --db "$DB"
is "$RC" 0 "runs exits 0"
like "$OUT" '^ *id +label +date +scenario +tree +target +runs$' "runs prints a header"
like "$OUT" '^ *[0-9]+ +a +.* 2$' "runs lists label a with 2 runs"
like "$OUT" '^ *[0-9]+ +b +.* 3$' "runs lists label b with 3 runs"
is "$(lines "$OUT")" 3 "runs: a header and two run sets"

# show: the table as run prints it, and the seeds' form.
run_fsbench show a --db "$DB"
is "$RC" 0 "show a exits 0"
like "$OUT" 'label a, tree tiny x0\.3' "show a names label and tree"
like "$OUT" 'engine posix, 2 runs$' "show a: 2 runs"
like "$OUT" '^extract +2 ' "show a: extract row over 2 runs"
like "$OUT" '^walk +2 ' "show a: walk row over 2 runs"
like "$OUT" '^delete +2 ' "show a: delete row over 2 runs"
run_fsbench show a --db "$DB" --format seeds
is "$RC" 0 "show a --format seeds exits 0"
is "$(printf '%s\n' "$OUT" | grep -cE '^extract: [0-9]+\.[0-9]{2} real [0-9]+\.[0-9]{2} user [0-9]+\.[0-9]{2} sys$')" 2 \
    "seeds form: two 'extract: N real N user N sys' lines"
is "$(printf '%s\n' "$OUT" | grep -cE '^(walk|delete): [0-9.]+ real')" 4 "seeds form: walk and delete of both runs"

# A label names one set: a second run under it is refused, and says what to do.
quick --db "$DB" --label a --runs 1
is "$RC" 2 "a second run --label a: refused (exit 2)"
like "$ERR" "^fsbench: --label: a run set labelled 'a' exists already: finish it with 'fsbench run --resume a', or choose another label" \
    "and names --resume a, or another label"
run_fsbench show a --db "$DB"
like "$OUT" 'engine posix, 2 runs$' "show a: still its 2 runs"
run_fsbench show b --db "$DB" --format seeds
is "$(printf '%s\n' "$OUT" | grep -c '^extract: ')" 3 "seeds form of b: 3 runs"
SEEDS_A=$OUT
run_fsbench show b --db "$DB"
ROWS_A=$(phase_rows "$OUT")

# export --json
F=$SCRATCH/b.json
run_fsbench export b --db "$DB" --json -o "$F"
is "$RC" 0 "export b --json -o F exits 0"
jq -e . "$F" >/dev/null 2>&1
ok $? "exported JSON is valid"
is "$(jq -r '.schema_version' "$F")" 1 "exported JSON: schema_version 1"
is "$(jq -r '.label' "$F")" b "exported JSON: label b"
is "$(jq '.runs | length' "$F")" 3 "exported JSON: 3 runs"
is "$(jq -r '[.runs[] | [.phases[].name] | join(",")] | unique | join(" ")' "$F")" \
    "extract,walk,delete" "exported JSON: every run has phases extract,walk,delete"
is "$(jq -r '[.runs[] | .phases[] | .status] | unique | join(",")' "$F")" ok "exported JSON: every phase ok"
is "$(jq -r '[.runs[].phases[] | select(.name == "extract") | .files] | unique | join(",")' "$F")" \
    "$(jq -r '.tree.files' "$F")" "exported JSON: extract created every file of the tree in each run"

# export --csv
run_fsbench export b --db "$DB" --csv
is "$RC" 0 "export b --csv exits 0"
HDR=$(printf '%s\n' "$OUT" | head -n 1)
like "$HDR" '^label,config,run,round,warmup,phase,status,wall_s,user_s,sys_s,' "CSV header"
BODY=$(printf '%s\n' "$OUT" | tail -n +2)
is "$(lines "$BODY")" 9 "CSV: 3 runs x 3 phases rows"
is "$(printf '%s\n' "$BODY" | cut -d, -f1 | sort -u)" b "CSV: column 1 is the label on every row"
is "$(printf '%s\n' "$BODY" | cut -d, -f3 | sort -u | tr '\n' ' ')" "1 2 3 " "CSV: runs 1, 2 and 3 (counted from 1, as the table does)"
is "$(printf '%s\n' "$BODY" | cut -d, -f4 | sort -n | head -1)" 1 "CSV: rounds count from 1 too"
is "$(printf '%s\n' "$BODY" | awk -F, '$2 == ""' | wc -l)" 0 "CSV: config is filled for a single-configuration set"
is "$(printf '%s\n' "$BODY" | cut -d, -f8-10,12,15 | tr ',' '\n' | grep -cE '\.[0-9]{10,}')" 0 \
    "CSV: no figure carries more than 9 decimals (no binary noise like 0.05227699999999999)"
is "$(printf '%s\n' "$BODY" | cut -d, -f6 | sort | uniq -c | awk '{print $2 "=" $1}' | tr '\n' ' ')" \
    "delete=3 extract=3 walk=3 " "CSV: each phase in each run"
is "$(printf '%s\n' "$BODY" | awk -F, '$8 == "" || $8 + 0 <= 0' | wc -l)" 0 "CSV: every wall_s is positive"

# import under a new label: the same figures.
run_fsbench import "$F" --label c --db "$DB"
is "$RC" 0 "import F --label c exits 0"
like "$OUT" "imported 3 runs as 'c'" "import says 3 runs as 'c'"
run_fsbench show c --db "$DB" --format seeds
is "$RC" 0 "show c exits 0"
is "$OUT" "$SEEDS_A" "show c --format seeds equals show b"
run_fsbench show c --db "$DB"
is "$(phase_rows "$OUT")" "$ROWS_A" "show c's table rows equal show b's"

# forget
run_fsbench forget c --db "$DB"
is "$RC" 0 "forget c exits 0"
like "$OUT" "forgot 1 run set labelled 'c'" "forget says what it removed"
run_fsbench runs --db "$DB"
ok $(printf '%s\n' "$OUT" | grep -qE '^ *[0-9]+ +c ' && echo 1 || echo 0) "runs no longer lists c"
like "$OUT" '^ *[0-9]+ +a ' "runs still lists a"
run_fsbench show c --db "$DB"
is "$RC" 2 "show c after forget exits 2"
is "$(lines "$ERR")" 1 "show c: one line on stderr"
like "$ERR" "^fsbench: .*'c'" "show c: the message names the label"
run_fsbench forget nope --db "$DB"
is "$RC" 2 "forget nope exits 2"
like "$ERR" "^fsbench: forget: .*'nope'" "forget nope: message names the label"
is "$(lines "$ERR")" 1 "forget nope: one line on stderr"

# The default store: $XDG_DATA_HOME/fsbench/results.db, else ~/.local/share/fsbench.
DEF=$XDG_DATA_HOME/fsbench/results.db
ok $([ -e "$DEF" ] && echo 1 || echo 0) "no default store before a run without --db"
quick --label dflt --runs 1
is "$RC" 0 "run without --db exits 0"
ok $([ -f "$DEF" ] && echo 0 || echo 1) "run saved under \$XDG_DATA_HOME/fsbench/results.db"
run_fsbench runs
like "$OUT" '^ *[0-9]+ +dflt +.* 1$' "runs without --db lists the default store's label"
run_fsbench runs --db "$DB"
ok $(printf '%s\n' "$OUT" | grep -qE '^ *[0-9]+ +dflt ' && echo 1 || echo 0) "--db store untouched by the default-path run"
mkdir -p "$SCRATCH/home"
HOME=$SCRATCH/home XDG_DATA_HOME='' quick --label homedflt --runs 1
is "$RC" 0 "run with XDG_DATA_HOME empty exits 0"
ok $([ -f "$SCRATCH/home/.local/share/fsbench/results.db" ] && echo 0 || echo 1) \
    "without XDG_DATA_HOME: saved under ~/.local/share/fsbench/results.db"

# --no-save saves nothing.
export XDG_DATA_HOME=$SCRATCH/xdg-nosave
quick --no-save --label ns --runs 1
is "$RC" 0 "run --no-save exits 0"
ok $([ -e "$XDG_DATA_HOME/fsbench/results.db" ] && echo 1 || echo 0) "--no-save created no default store"
ok $(printf '%s\n' "$OUT" | grep -q '^saved as' && echo 1 || echo 0) "--no-save does not say 'saved as'"
export XDG_DATA_HOME=$SCRATCH/xdg
quick --no-save --db "$SCRATCH/ns.db" --label ns --runs 1
ok $([ -e "$SCRATCH/ns.db" ] && echo 1 || echo 0) "--no-save with --db creates no database"
quick --no-save --label ns --runs 1
run_fsbench runs
ok $(printf '%s\n' "$OUT" | grep -qE '^ *[0-9]+ +ns ' && echo 1 || echo 0) "--no-save added nothing to the existing default store"
is "$(ls -A "$SCRATCH/w")" "" "work directory is empty afterwards"

is "$(sqlite3 "$DB" 'PRAGMA integrity_check')" ok "integrity_check of --db store: ok"
is "$(sqlite3 "$DEF" 'PRAGMA integrity_check')" ok "integrity_check of default store: ok"
is "$(sqlite3 "$DB" 'PRAGMA user_version')" 4 "store schema version 4"
done_testing
