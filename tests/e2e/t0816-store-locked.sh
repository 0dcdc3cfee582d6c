#!/bin/bash
# A results store that another process holds locked (issue 18). Before, a lock held past the
# wait stopped the set, lost the finished run and still printed "saved as 'X' (2 runs)".
# Now a run the store cannot take waits in DB.spool/ beside it and the set goes on; the
# spool joins the store before the next run, at the end, or when fsbench next opens the
# store to write; nothing is said to be saved that is not; every run is stored once.
# FSBENCH_LOCK_WAIT=1 makes the wait for a lock one second instead of sixty.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd sqlite3
need_cmd strace
need_cmd jq
cd "$SCRATCH" || exit 1
export FSBENCH_LOCK_WAIT=1
DB=$SCRATCH/r.db

# locked_set LABEL RUNS HOLD: a set of RUNS runs (each syncfs held 0.5 s, so a run takes a
# while); once its first run is stored, a sqlite3 client holds the write lock HOLD seconds.
locked_set() {
    local label=$1 runs=$2 hold=$3
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -f -o /dev/null -e trace=syncfs -e inject=syncfs:delay_enter=500000 \
        "$FSBENCH" run --tree tiny --phases extract,sync,delete --runs "$runs" --db "$DB" \
        --label "$label" -q >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null &
    local pid=$! n=0
    for _ in $(seq 1 300); do
        n=$(sqlite3 "$DB" "SELECT count(*) FROM runs r JOIN run_sets s ON s.id = r.set_id WHERE s.label = '$label'" 2>/dev/null)
        [ "${n:-0}" -ge 1 ] && break
        sleep 0.05
    done
    (echo "BEGIN IMMEDIATE;"; sleep "$hold"; echo "COMMIT;") | sqlite3 "$DB" &
    LOCKER=$!
    wait "$pid"
    RC=$?
    OUT=$(cat "$SCRATCH/out")
    ERR=$(cat "$SCRATCH/err")
}
stored() { # stored LABEL: runs of LABEL in the store, and their indexes
    "$FSBENCH" export "$1" --json --db "$DB" 2>/dev/null | jq -c '[.runs[].index] | sort'
}

# the lock outlasts the set: 2 of 3 runs wait in the spool
locked_set L 3 9
is "$RC" 1 "lock held past the end: exit 1"
like "$ERR" "warning: the results store $DB is locked by another process \(waited 1 s\): run 2 waits in $DB.spool until it is free; the set goes on" \
    "the first run the store cannot take is said once, and the set goes on"
like "$ERR" "fsbench: the results store $DB stayed locked by another process: 2 runs of 'L' wait in $DB.spool and join the set when fsbench next opens the store to write \(1 saved\)" \
    "the end says what waits, where, and what is saved"
like "$OUT" "^saved as 'L' \(1 run\)$" "'saved as' counts only what is in the store"
wait "$LOCKER"
is "$(stored L)" "[0]" "the store holds run 1 only"
run_fsbench runs --db "$DB"
like "$ERR" "2 runs wait in $DB.spool \(the store was locked when they finished\)" \
    "runs says that runs wait"
# the next fsbench that opens the store to write adds them
run_fsbench run --tree tiny --phases extract --db "$DB" --label M -q
is "$RC" 0 "the next run: exit 0"
like "$ERR" "2 runs that waited in $DB.spool while the store was locked have joined their sets" \
    "it adds the waiting runs and says so"
is "$(stored L)" "[0,1,2]" "the set now holds its 3 runs, each once"
ok "$([ ! -e "$DB.spool" ]; echo $?)" "the spool is gone"

# the lock is released before the set ends: the waiting runs join at once
locked_set N 4 1.5
is "$RC" 0 "lock released during the set: exit 0"
like "$OUT" "^saved as 'N' \(4 runs\)$" "all 4 runs saved"
is "$(stored N)" "[0,1,2,3]" "each stored once"
ok "$([ ! -e "$DB.spool" ]; echo $?)" "nothing left in the spool"
wait "$LOCKER"

# a run kept twice (a flush killed between commit and unlink) is stored once
mkdir -p "$DB.spool" && chmod 700 "$DB.spool"
"$FSBENCH" export N --json --db "$DB" | jq '.runs = [.runs[0]]' >"$DB.spool/x.json"
id=$(sqlite3 "$DB" "SELECT id FROM run_sets WHERE label = 'N'")
mv "$DB.spool/x.json" "$DB.spool/set$id-run0.json"
run_fsbench forget NOPE --db "$DB"
is "$(stored N)" "[0,1,2,3]" "a spooled run already in its set is not added again"
ok "$([ ! -e "$DB.spool/set$id-run0.json" ]; echo $?)" "and its file is removed"
done_testing
