#!/bin/bash
# Resume (issue 22): a matrix on loop images stopped by SIGINT (delivered by strace inside a
# chosen system call, so the same run is hit every time) and by kill -9 is finished with
# `fsbench run --resume LABEL`: `runs` shows it as "N of M runs (interrupted; fsbench run
# --resume LABEL)" meanwhile; afterwards every configuration has each of its rounds exactly
# once, the run that was stopped is made again and no other, the runs come in the round
# order of a set that ran straight through (the same seed), and compare pairs the rounds.
# (A job file's set, and what --resume refuses: t1205.)
. "$(dirname "$0")/../lib/tap.sh"
tap_alone # it leaves what a killed run leaves, and looks at it
need_root
need_cmd losetup
need_cmd mkfs.ext4
need_cmd sqlite3
need_cmd strace
. "$(dirname "$0")/../lib/target.sh"
. "$(dirname "$0")/../lib/fault.sh"

DB="$SCRATCH/r.db"
M=(testdisk --image 128M --fs ext4 --mount-opts defaults --mount-opts noatime
    --mount-opts nodiratime --runs 2 --tree tiny --seed 5 --db "$DB")
# "config round" of every run kept for a label, in the order they are stored
order() {
    sqlite3 "$DB" "select r.config || ' ' || r.round from runs r join run_sets s on s.id = r.set_id
                   where s.label = '$1' order by r.idx, r.id"
}
# each (config, round) exactly once, 3 configurations x 2 rounds
once_each() {
    is "$(sqlite3 "$DB" "select count(*) from (select config, round, count(*) n from runs r
             join run_sets s on s.id = r.set_id where s.label = '$1' group by config, round
             having n = 1)")" 6 "$2: each configuration has each round exactly once"
    is "$(sqlite3 "$DB" "select count(*) from runs r join run_sets s on s.id = r.set_id
             where s.label = '$1'")" 6 "$2: 6 runs, none twice"
}
runs_line() { "$FSBENCH" runs -v --db "$DB" | awk -v l="$1" '$2 == l'; }

# A set that ran straight through: the order to keep.
run_fsbench run "${M[@]}" --label straight
is "$RC" 0 "the uninterrupted set: exit 0"
STRAIGHT=$(order straight)

# ---- SIGINT in the 4th run's extract (each extract of the tiny tree makes 97 directories)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -o /dev/null -e trace=mkdirat -e inject=mkdirat:signal=SIGINT:when=340 \
    "$FSBENCH" run "${M[@]}" --label sig >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null
is "$?" 130 "SIGINT: exit 130 (128 + 2)"
diag "$(grep -v '^strace' "$SCRATCH/err")"
like "$(cat "$SCRATCH/err")" "phase extract: interrupted by SIGINT" "SIGINT: the run is named as interrupted"
like "$(cat "$SCRATCH/out")" "^interrupted: run 4 of .* \(round 2\), phase extract: interrupted by SIGINT; fsbench run --resume sig$" \
    "SIGINT: the summary says how to finish the set"
like "$(cat "$SCRATCH/out")" "^saved as 'sig' \(3 runs, and the phases of the one interrupted\)$" \
    "SIGINT: the finished runs are counted apart from the interrupted one"
is "$(runs_line sig | sed 's/.*  //')" "3 of 6 runs (interrupted; fsbench run --resume sig)" \
    "runs: 3 of 6 runs (interrupted; fsbench run --resume sig)"
nothing_left "SIGINT"

run_fsbench run --resume sig --db "$DB"
is "$RC" 0 "resume after SIGINT: exit 0"
diag "$ERR"
like "$ERR" "^fsbench: resuming 'sig' \(interrupted\): 3 of 6 runs made; making the rest" \
    "resume says what it does"
once_each sig "after SIGINT"
is "$(order sig)" "$STRAIGHT" "after SIGINT: the runs in the order of the uninterrupted set"
is "$(sqlite3 "$DB" "select count(*) from runs where interrupted = 1")" 0 "the interrupted run is gone"
is "$(runs_line sig | sed 's/.*  //')" 6 "runs: the set is complete"
nothing_left "resume after SIGINT"
run_fsbench compare sig --db "$DB" --verbose
is "$RC" 0 "compare of the resumed set: exit 0"
ok $(printf '%s\n' "$OUT" | grep -q 'not interleaved' && echo 1 || echo 0) \
    "compare pairs its rounds (nothing compared as batches)"
run_fsbench run --resume sig --db "$DB"
is "$RC" 0 "resume of a complete set: exit 0"
like "$ERR" "'sig' is complete: 6 of 6 runs; nothing to do" "and nothing to do"

# ---- kill -9 while a run is under way: the mount and loop device stay; resume finishes it
# (a bigger tree, so that a run lasts long enough to be killed in)
M=("${M[@]}" --scale 4)
run_fsbench run "${M[@]}" --label straight4
STRAIGHT=$(order straight4)
"$FSBENCH" run "${M[@]}" --label killed >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null &
PID=$!
wait_runs "$DB" $(($(sqlite3 "$DB" "select count(*) from runs") + 2)) 60 "$PID"
sleep 0.1
{
    kill -KILL "$PID"
    wait "$PID"
} 2>/dev/null
is "$?" 137 "kill -9: killed"
N=$(sqlite3 "$DB" "select count(*) from runs r join run_sets s on s.id = r.set_id where s.label = 'killed'")
like "$(runs_line killed)" "$N of 6 runs \(interrupted; fsbench run --resume killed\)$" \
    "runs after kill -9: $N of 6 runs (interrupted; ...)"
# what a kill -9 cannot clean: the mount, loop device and image, released by hand
for m in $(our_mounts); do umount "$m"; done
rescue_loops
for l in $LOOPS; do losetup -d "$l" 2>/dev/null; done
LOOPS=""
rm -rf "$TMPDIR"/fsbench-target.*
run_fsbench run --resume killed --db "$DB"
is "$RC" 0 "resume after kill -9: exit 0"
diag "$ERR"
once_each killed "after kill -9"
is "$(order killed)" "$STRAIGHT" "after kill -9: the runs in the order of the uninterrupted set"
nothing_left "resume after kill -9"
done_testing
