#!/bin/bash
# Resume and the spool (issues 18, 22): a set whose store another process held locked keeps
# its finished runs in DB.spool/ beside it; when the set is then stopped by SIGTERM (strace
# sends it inside the third run's extract, which makes directories 195 to 291; a background
# job ignores SIGINT), `fsbench run --resume` first lets the waiting runs join the set, then
# makes only the run that was stopped; when that run too must wait in the spool, it joins
# the resumed set later. Every round is stored exactly once, the spool is emptied, the set
# is complete.
# FSBENCH_LOCK_WAIT=1 makes the wait for a lock one second instead of sixty.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd sqlite3
need_cmd strace
need_cmd jq
cd "$SCRATCH" || exit 1
export FSBENCH_LOCK_WAIT=1
DB=$SCRATCH/r.db
ARGS=(--tree tiny --phases extract,sync,delete --runs 3 --seed 7 --db "$DB" -j 1)
stored() { # the indexes of LABEL's runs in the store, sorted
    "$FSBENCH" export "$1" --json --db "$DB" 2>/dev/null | jq -c '[.runs[].index] | sort'
}
runs_line() { "$FSBENCH" runs -v --db "$DB" 2>/dev/null | awk -v l="$1" '$2 == l' | sed 's/.*  //'; }

# each syncfs held 0.5 s, so that a run lasts; SIGTERM at the 240th mkdirat (run 3)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -o /dev/null -e trace=syncfs,mkdirat -e inject=syncfs:delay_enter=500000 \
    -e inject=mkdirat:signal=SIGTERM:when=240 \
    "$FSBENCH" run "${ARGS[@]}" --label L >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null &
PID=$!
for _ in $(seq 1 300); do
    n=$(sqlite3 "$DB" "SELECT count(*) FROM runs" 2>/dev/null)
    [ "${n:-0}" -ge 1 ] && break
    sleep 0.05
done
# the write lock held from the first run's storing to past the set's end
(echo "BEGIN IMMEDIATE;"; sleep 8; echo "COMMIT;") | sqlite3 "$DB" &
LOCKER=$!
wait "$PID"
is "$?" 143 "SIGTERM with runs waiting in the spool: exit 143 (128 + 15)"
ERR=$(grep -v '^strace: ' "$SCRATCH/err")
diag "$ERR"
like "$ERR" "run 2 waits in $DB.spool until it is free; the set goes on" "run 2 waited in the spool"
like "$ERR" "phase extract: interrupted by SIGTERM" "run 3 was stopped by SIGTERM"
like "$ERR" "stayed locked by another process: 2 runs of 'L' wait in $DB.spool" \
    "the stopped run waits too, and the end says so"
wait "$LOCKER"
is "$(stored L)" "[0]" "the store holds run 1 only"
is "$(runs_line L)" "1 of 3 runs (interrupted; fsbench run --resume L)" \
    "runs: the set is interrupted (its state could not be written while the store was locked)"

# the resume, with the store locked again while it makes run 3: that run waits in the spool
# too, and joins the resumed set (found by the set's stored creation time) when the store is
# next opened to write
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -o /dev/null -e trace=syncfs -e inject=syncfs:delay_enter=500000 \
    "$FSBENCH" run --resume L --db "$DB" >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null &
PID=$!
for _ in $(seq 1 300); do # the spool joined (3 runs), the stopped run dropped: run 3 is under way
    n=$(sqlite3 "$DB" "SELECT count(*) FROM runs WHERE interrupted = 0" 2>/dev/null)
    m=$(sqlite3 "$DB" "SELECT count(*) FROM runs WHERE interrupted = 1" 2>/dev/null)
    [ "${n:-0}" -eq 2 ] && [ "${m:-1}" -eq 0 ] && break
    sleep 0.05
done
(echo "BEGIN IMMEDIATE;"; sleep 5; echo "COMMIT;") | sqlite3 "$DB" &
LOCKER=$!
wait "$PID"
RC=$?
ERR=$(grep -v '^strace: ' "$SCRATCH/err")
diag "$ERR"
like "$ERR" "2 runs that waited in $DB.spool while the store was locked have joined their sets" \
    "resume lets the waiting runs join first"
like "$ERR" "resuming 'L' \(interrupted\): 2 of 3 runs made; making the rest" \
    "then makes the one that was stopped, and only it"
like "$ERR" "stayed locked by another process: 1 run of 'L' waits in $DB.spool" \
    "the remade run waits in the spool"
is "$RC" 1 "resume with the store locked at its end: exit 1"
wait "$LOCKER"
run_fsbench forget NOPE --db "$DB"
like "$ERR" "1 run that waited in $DB.spool while the store was locked has joined its set" \
    "the next fsbench to write adds it to the resumed set"
is "$(stored L)" "[0,1,2]" "every round stored exactly once"
is "$(sqlite3 "$DB" "SELECT count(*) FROM runs WHERE interrupted = 1")" 0 "the stopped run is gone"
ok "$([ ! -e "$DB.spool" ] || [ -z "$(ls -A "$DB.spool")" ]; echo $?)" "the spool is empty"
is "$(runs_line L)" "3 of 3 runs (interrupted; fsbench run --resume L)" \
    "runs: every run is there; the state waits for a resume to write it"
run_fsbench run --resume L --db "$DB"
is "$RC" 0 "a last resume: exit 0"
is "$(stored L)" "[0,1,2]" "it made nothing"
is "$(runs_line L)" 3 "runs: the set is complete"
done_testing
