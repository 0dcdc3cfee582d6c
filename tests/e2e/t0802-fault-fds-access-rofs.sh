#!/bin/bash
# Faults while a run goes on (issue 11): too few fds (ulimit -n), a directory made
# read-only mid-run (EACCES, as an unprivileged user: root ignores modes), and the target
# remounted read-only mid-run (EROFS). Each: the exit status, one line saying what
# happened, the runs finished before it in the store (integrity_check ok), nothing beside
# the run directory touched, no mount left.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd sqlite3
need_cmd jq
need_cmd setpriv
. "$(dirname "$0")/../lib/fault.sh"

FS="$SCRATCH/fs"
mount_tmpfs "$FS" 256m || skip_all "cannot mount a tmpfs"
sentinel_make "$FS/outside"
DB="$SCRATCH/results.db"

# --- EMFILE: 32 fds are enough for every phase of basic at -j1 and -j2 (the walkers keep
# a window of open directories); 12 are not: one line, exit 1.
for j in 1 2; do
    mkdir "$FS/run$j"
    (ulimit -n 32 && run_fsbench run --dir "$FS/run$j" --tree tiny -j "$j" --db "$DB" \
        --json "$SCRATCH/e$j.json" && exit "$RC")
    is "$?" 0 "ulimit -n 32, basic -j$j: exit 0"
    is "$(jq -r '[.runs[0].phases[] | select(.name == "copy" or .name == "walk") | "\(.files)/\(.dirs)"] | join(" ")' "$SCRATCH/e$j.json" 2>&1)" \
        "1000/96 1000/96" "ulimit -n 32, -j$j: walk and copy count the whole tree"
done
(ulimit -n 12 && run_fsbench run --dir "$FS/run1" --tree tiny -j 2 --db "$DB" &&
    printf '%s\n%s\n' "$RC" "$ERR" >"$SCRATCH/emfile")
is "$(head -1 "$SCRATCH/emfile")" 1 "ulimit -n 12: exit 1"
ERR=$(tail -n +2 "$SCRATCH/emfile")
one_line "ulimit -n 12" "^fsbench: run 1, phase [a-z]+: .*Too many open files$"
is "$(ls -A "$FS/run1")" "" "ulimit -n 12: the run directory is emptied"
store_check "$DB" 2 "ulimit -n 12"
sentinel_check "$FS/outside" "EMFILE"

# background RUNDIR DB ARGS...: starts fsbench (as $AS, a setpriv prefix, if set) with
# many runs; PID.
background() {
    local dir=$1 db=$2
    shift 2
    $AS "$FSBENCH" run --dir "$dir" --db "$db" --tree tiny --runs 200 \
        --phases extract,sync,walk,statwalk,delete "$@" >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null &
    PID=$!
}
# finish: waits up to 60 s for $PID; RC and ERR.
finish() {
    local i
    for i in $(seq 1 600); do
        kill -0 "$PID" 2>/dev/null || break
        sleep 0.1
    done
    kill -0 "$PID" 2>/dev/null && { kill -KILL "$PID"; diag "fsbench did not stop"; }
    wait "$PID"
    RC=$?
    ERR=$(cat "$SCRATCH/err")
}

# --- EACCES: the run directory made read-only once a run is saved.
NOBODY=$(id -u nobody 2>/dev/null || echo 65534)
U="$FS/user"
chmod 0711 "$SCRATCH" # the unprivileged run must reach its directories
mkdir -p "$U/run" && chown -R "$NOBODY" "$U" && chmod 0755 "$U"
AS="setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups"
background "$U/run" "$U/results.db"
if wait_runs "$U/results.db" 1 60 "$PID"; then
    chmod 0555 "$U/run"
    finish
    is "$RC" 1 "EACCES mid-run: exit 1"
    one_line "EACCES mid-run" "^fsbench: run [0-9]+, phase [a-z]+: .*Permission denied$|^fsbench: .*$U/run.*Permission denied$"
    store_check "$U/results.db" 1 "EACCES mid-run"
else
    kill -KILL "$PID" 2>/dev/null
    skip "no run saved within 60 s as an unprivileged user: $(head -1 "$SCRATCH/err")" 5
fi
chmod 0755 "$U/run"
sentinel_check "$FS/outside" "EACCES"
AS=""

# --- EROFS: the target remounted read-only once a run is saved.
mkdir "$FS/ro"
background "$FS/ro" "$DB" --label rofs
wait_runs "$DB" 5 60 "$PID"
# a tmpfs refuses to go read-only while a file is open for writing: retry
for _ in $(seq 1 200); do
    mount -o remount,ro "$FS" 2>/dev/null && break
    sleep 0.02
done
finish
mount -o remount,rw "$FS"
is "$RC" 1 "remounted read-only mid-run: exit 1"
one_line "read-only remount" "Read-only file system$"
store_check "$DB" 3 "read-only remount"
sentinel_check "$FS/outside" "read-only remount"
is "$(awk -v s="$SCRATCH" 'index($5, s) == 1 { print $5 }' /proc/self/mountinfo)" "$FS" \
    "no mount left but the test's own tmpfs"

done_testing
