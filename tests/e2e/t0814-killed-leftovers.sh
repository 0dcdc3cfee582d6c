#!/bin/bash
# What a run killed with SIGKILL leaves, and two runs on one directory (issue 18).
# - A second `fsbench run --dir D` while the first runs is refused, naming the first's pid,
#   and touches nothing: the first finishes and exits 0 (before, it took the live run's
#   tree for an interrupted run's leftovers and deleted it, and both failed).
# - After kill -9 on a managed target, the next run releases what it left (unmount, loop
#   device, image), saying so, even from another image directory; `fsbench cleanup` does
#   the same, and for the temporary run directories and --dir trees; a live run's target
#   and directory are left alone.
. "$(dirname "$0")/../lib/tap.sh"
tap_alone # it leaves what a killed run leaves, and looks at it
need_root
need_cmd losetup
need_cmd mkfs.ext4
need_cmd strace
. "$(dirname "$0")/../lib/target.sh"

# held COMMAND...: runs fsbench ARGS with every syncfs held 4 s (strace), in the background;
# FS_PID is fsbench's own pid (strace's child), S_PID strace's.
held() {
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -f -o /dev/null -e trace=syncfs -e inject=syncfs:delay_enter=4000000 \
        "$FSBENCH" "$@" >"$SCRATCH/held.out" 2>"$SCRATCH/held.err" </dev/null &
    S_PID=$!
    FS_PID=""
    for _ in $(seq 1 1000); do
        FS_PID=$(pgrep -P "$S_PID" | head -n 1)
        [ -n "$FS_PID" ] && break
        sleep 0.02
    done
}

# run_mounted PREFIX: a file system is mounted below PREFIX with a run's directory in it (the
# pre-flight's mount of the same image, before the runs, holds none)
run_mounted() {
    local m
    for m in $(awk -v p="$1" 'index($5, p) == 1 { print $5 }' /proc/self/mountinfo); do
        [ -d "$m/fsbench" ] && return 0
    done
    return 1
}

# --- two runs, one directory
D=$SCRATCH/d
mkdir "$D"
held run --dir "$D" --tree tiny --phases extract,sync,delete --no-save -q
for _ in $(seq 1 1000); do [ -d "$D/tree" ] && break; sleep 0.02; done
sleep 0.3
run_fsbench run --dir "$D" --tree tiny --no-save -q
is "$RC" 1 "a second run on a directory in use: exit 1"
like "$ERR" "^fsbench: $D is in use by fsbench pid $FS_PID \(a run in progress\)" \
    "it names the live run's pid"
is "$(printf '%s\n' "$ERR" | grep -c .)" 1 "in one line"
ok "$([ -d "$D/tree" ]; echo $?)" "the live run's tree is still there"
wait "$S_PID"
is "$?" 0 "the first run finishes: exit 0"
is "$(cat "$SCRATCH/held.err")" "" "and says nothing"
is "$(ls -A "$D")" "" "and leaves the directory empty"

# --- a killed run's run directory: the next run cleans it; fsbench cleanup --dir too
held run --dir "$D" --tree tiny --phases extract,sync,delete --no-save -q
for _ in $(seq 1 1000); do [ -d "$D/tree" ] && break; sleep 0.02; done
sleep 0.3
kill -KILL "$FS_PID"
wait "$S_PID" 2>/dev/null
ok "$([ -d "$D/tree" ]; echo $?)" "kill -9 leaves the tree in the run directory"
run_fsbench cleanup --dir "$D" --dry-run
like "$ERR" "would remove what fsbench pid $FS_PID \(no longer running\) left in $D" \
    "cleanup --dry-run says what it would remove"
ok "$([ -d "$D/tree" ]; echo $?)" "and removes nothing"
run_fsbench cleanup --dir "$D"
is "$RC" 0 "cleanup --dir: exit 0"
like "$ERR" "removed what fsbench pid $FS_PID \(no longer running\) left in $D" "it says what it removed"
like "$OUT" "^cleanup: released 0 targets and 1 run directory left by killed runs" "and counts it"
is "$(ls -A "$D")" "" "the directory is empty again"

# leftovers that cannot be removed (an immutable file): the run fails in one line, not two
mkdir -p "$D/tree/x" && touch "$D/.fsbench-workspace" "$D/tree/x/f"
if chattr +i "$D/tree/x/f" 2>/dev/null; then
    run_fsbench run --dir "$D" --tree tiny --no-save -q
    is "$RC" 1 "leftovers that cannot be removed: exit 1"
    is "$(printf '%s\n' "$ERR" | grep -c "cannot clean $D: unlink tree/x/f: Operation not permitted")" 1 \
        "the failure is said once (it was said twice)"
    chattr -i "$D/tree/x/f"
else
    skip "chattr +i is not supported here" 2
fi
rm -rf "$D/tree" "$D/.fsbench-workspace"

# a killed run's temporary run directory (no --dir): fsbench cleanup removes it
held run --tree tiny --phases extract,sync,delete --no-save -q
for _ in $(seq 1 1000); do ls -d "$TMPDIR"/fsbench.*/tree >/dev/null 2>&1 && break; sleep 0.02; done
sleep 0.3
kill -KILL "$FS_PID"
wait "$S_PID" 2>/dev/null
T=$(ls -d "$TMPDIR"/fsbench.?????? 2>/dev/null)
ok "$([ -n "$T" ] && [ -d "$T/tree" ]; echo $?)" "kill -9 leaves the temporary run directory ($T)"
run_fsbench cleanup
like "$ERR" "removed what fsbench pid $FS_PID \(no longer running\) left in $T, and it" \
    "cleanup removes the temporary run directory"
is "$(ls -d "$TMPDIR"/fsbench.?????? 2>/dev/null)" "" "and it is gone"

# --- a killed run's managed target: the next run releases it
held run --image 128M --fs ext4 --tree tiny --phases extract,sync,delete --no-save -q
for _ in $(seq 1 3000); do run_mounted "$TMPDIR/" && break; sleep 0.02; done
sleep 0.5
kill -KILL "$FS_PID"
wait "$S_PID" 2>/dev/null
TD=$(cd "$TMPDIR" && ls -d fsbench-target.* 2>/dev/null)
ok "$([ -n "$(our_mounts)" ] && [ -n "$(our_loops)" ] && [ -n "$TD" ]; echo $?)" \
    "kill -9 leaves the image mounted and attached ($TD)"
like "$(cat "$TMPDIR/$TD/owner" 2>/dev/null)" "^pid $FS_PID" "its owner record names the killed pid"
run_fsbench run --image 128M --fs ext4 --tree tiny --phases extract --no-save -q
is "$RC" 0 "the next run on an image: exit 0"
like "$ERR" "^fsbench: released what fsbench pid $FS_PID \(no longer running\) left in $TMPDIR/$TD: unmounted $TMPDIR/$TD/mnt, detached /dev/loop[0-9]+, removed its image" \
    "it releases what the killed run left, in one line"
nothing_left "after the next run"

# the same, the killed run's image elsewhere (--image-dir): found by its mount and loop
mkdir "$SCRATCH/elsewhere"
held run --image 128M --fs ext4 --image-dir "$SCRATCH/elsewhere" --tree tiny \
    --phases extract,sync,delete --no-save -q
for _ in $(seq 1 3000); do run_mounted "$SCRATCH/elsewhere/" && break; sleep 0.02; done
sleep 0.5
kill -KILL "$FS_PID"
wait "$S_PID" 2>/dev/null
ok "$(grep -q "$SCRATCH/elsewhere/" /proc/self/mountinfo; echo $?)" "another image directory: left mounted"
run_fsbench cleanup --dry-run
like "$ERR" "would release what fsbench pid $FS_PID \(no longer running\) left in $SCRATCH/elsewhere/fsbench-target" \
    "cleanup --dry-run finds the other directory's leftover by its mount"
like "$OUT" "^cleanup: would release 1 target and 0 run directories" "and counts it"
ok "$(grep -q "$SCRATCH/elsewhere/" /proc/self/mountinfo; echo $?)" "--dry-run releases nothing"
# the next run (its image in the default directory) releases it, and runs
KILLED=$FS_PID
held run --image 128M --fs ext4 --tree tiny --phases extract,sync,delete --no-save -q
LIVE=$FS_PID LIVE_S=$S_PID
for _ in $(seq 1 3000); do run_mounted "$TMPDIR/" && break; sleep 0.02; done
like "$(cat "$SCRATCH/held.err")" "released what fsbench pid $KILLED \(no longer running\) left in $SCRATCH/elsewhere/fsbench-target" \
    "the next run releases the other image directory's leftover"
is "$(grep -c "$SCRATCH/elsewhere/" /proc/self/mountinfo)" 0 "its mount is gone"
is "$(losetup -a | grep -c "$SCRATCH/elsewhere/")" 0 "and its loop device"
is "$(ls -A "$SCRATCH/elsewhere")" "" "and its image and directory"
# a live run's target: left alone
run_fsbench cleanup
is "$RC" 0 "cleanup while a run is live: exit 0"
like "$ERR" "is in use by fsbench pid $LIVE: left alone" "it leaves the live run's target alone"
like "$OUT" "^cleanup: released 0 targets and 0 run directories" "and releases nothing"
ok "$([ -n "$(our_mounts)" ]; echo $?)" "the live run's image is still mounted"
wait "$LIVE_S"
is "$?" 0 "the live run was not disturbed: exit 0"
nothing_left "in the end"

done_testing
