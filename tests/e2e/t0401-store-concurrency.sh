#!/bin/bash
# The store under stress: two fsbench processes saving into one database at once lose
# nothing; a kill -9 in the middle of a run set loses at most the run under way, the
# database passes PRAGMA integrity_check, and the next run cleans the killed run's workspace.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd sqlite3

lines() { if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l; fi; }
runs_of() { # runs_of DB LABEL: stored runs under LABEL
    sqlite3 "$1" "select count(*) from runs r join run_sets s on s.id = r.set_id where s.label = '$2'"
}

# Two writers at once.
DB=$SCRATCH/same.db
mkdir "$SCRATCH/D1" "$SCRATCH/D2"
for i in 1 2; do
    "$FSBENCH" run --db "$DB" --label "x$i" --runs 4 --phases extract,delete --tree tiny \
        --scale 0.2 --dir "$SCRATCH/D$i" >"$SCRATCH/out$i" 2>"$SCRATCH/err$i" </dev/null &
    eval "pid$i=\$!"
done
wait "$pid1"; rc1=$?
wait "$pid2"; rc2=$?
is "$rc1" 0 "writer x1 exits 0"
[ "$rc1" -eq 0 ] || diag "$(cat "$SCRATCH/err1")"
is "$rc2" 0 "writer x2 exits 0"
[ "$rc2" -eq 0 ] || diag "$(cat "$SCRATCH/err2")"
like "$(cat "$SCRATCH/out1")" "^saved as 'x1' \(4 runs\)$" "x1 says it saved 4 runs"
like "$(cat "$SCRATCH/out2")" "^saved as 'x2' \(4 runs\)$" "x2 says it saved 4 runs"
is "$(runs_of "$DB" x1)" 4 "store holds 4 runs of x1"
is "$(runs_of "$DB" x2)" 4 "store holds 4 runs of x2"
for i in 1 2; do
    run_fsbench export "x$i" --db "$DB" --csv
    is "$RC" 0 "export x$i --csv exits 0"
    is "$(printf '%s\n' "$OUT" | tail -n +2 | grep -c "^x$i,")" 8 "export x$i: 4 runs x 2 phases rows"
done
# The two run sets really overlapped in time: each began before the other's last run.
overlap=$(sqlite3 "$DB" "select (select min(started) from runs r join run_sets s on s.id = r.set_id
        where s.label = 'x1') < (select max(started) from runs r join run_sets s on s.id = r.set_id
        where s.label = 'x2') and (select min(started) from runs r join run_sets s on s.id = r.set_id
        where s.label = 'x2') < (select max(started) from runs r join run_sets s on s.id = r.set_id
        where s.label = 'x1')")
is "$overlap" 1 "the two writers ran at the same time"
is "$(sqlite3 "$DB" 'PRAGMA integrity_check')" ok "integrity_check after two writers: ok"
is "$(ls -A "$SCRATCH/D1" "$SCRATCH/D2" | grep -v -e '^$' -e ':$')" "" "both work directories are empty"

# kill -9 in the middle of a run set.
KDB=$SCRATCH/k.db
DK=$SCRATCH/Dk
mkdir "$DK"
"$FSBENCH" run --db "$KDB" --label k --runs 50 --tree tiny --scale 0.5 --phases extract,delete \
    --dir "$DK" >"$SCRATCH/outk" 2>"$SCRATCH/errk" </dev/null &
pidk=$!
n=0
deadline=$((SECONDS + 20))
while [ "$SECONDS" -lt "$deadline" ] && kill -0 "$pidk" 2>/dev/null; do
    [ -e "$KDB" ] && n=$(sqlite3 "$KDB" "select count(*) from runs" 2>/dev/null)
    [ "${n:-0}" -ge 2 ] && break
    sleep 0.05
done
alive=1
kill -0 "$pidk" 2>/dev/null && alive=0
ok "$alive" "fsbench still running when killed (had saved ${n:-0} runs)"
kill -9 "$pidk" 2>/dev/null
{ wait "$pidk"; } 2>/dev/null
rck=$?
is "$rck" 137 "the run was killed by SIGKILL"
is "$(sqlite3 "$KDB" 'PRAGMA integrity_check' 2>&1)" ok "integrity_check after kill -9: ok"
stored=$(runs_of "$KDB" k)
ok $([ "${stored:-0}" -ge 2 ] && [ "${stored:-0}" -lt 50 ] && echo 0 || echo 1) \
    "store holds the completed runs ($stored, at least 2)"
is "$(sqlite3 "$KDB" "select count(*) from phases p join runs r on r.id = p.run_id
        join run_sets s on s.id = r.set_id where s.label = 'k'")" "$((2 * stored))" \
    "every stored run is whole: 2 phases each"
run_fsbench show k --db "$KDB"
is "$RC" 0 "show k after kill -9 exits 0"
like "$OUT" "engine posix, $stored runs?\$" "show k shows the $stored completed runs"
like "$OUT" "^extract +$stored " "show k: extract row over $stored runs"
left=$(ls -A "$DK" | grep -vxE '\.fsbench-workspace|tree|copy')
is "$left" "" "Dk holds only what the killed run left (marker, tree, copy)"

# The next run in Dk cleans the killed run's workspace.
run_fsbench run --db "$KDB" --label k2 --runs 1 --tree tiny --scale 0.2 --phases extract,delete \
    --dir "$DK"
is "$RC" 0 "a later run in Dk exits 0"
[ "$RC" -eq 0 ] || diag "$ERR"
is "$(ls -A "$DK")" "" "Dk is empty after the later run"
is "$(runs_of "$KDB" k2)" 1 "the later run was saved"
is "$(sqlite3 "$KDB" 'PRAGMA integrity_check')" ok "integrity_check after the later run: ok"
done_testing
