#!/bin/bash
# ENOSPC in every writing phase (issue 11): a small tmpfs (by inodes, or by size) fills
# during extract, copy, createsync, fsyncstorm, cb_initial, cb_random; age stops by design
# when the file system is full. Each: exit 1 and one line naming the phase and "No space
# left on device", the run directory emptied, the store intact with the earlier run,
# nothing beside the run directory touched.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd sqlite3
need_cmd jq
. "$(dirname "$0")/../lib/fault.sh"

DB="$SCRATCH/results.db"
mkdir "$SCRATCH/first"
run_fsbench run --dir "$SCRATCH/first" --tree tiny --phases extract,delete --db "$DB" --label before
is "$RC" 0 "a first run is saved in the store"

# fault_enospc NAME TMPFS-OPTIONS PHASE-REGEX FSBENCH-ARGS...: one case (7 assertions).
fault_enospc() {
    local name=$1 opts=$2 want=$3
    shift 3
    local fs="$SCRATCH/fs-$name"
    mkdir -p "$fs" && mount -t tmpfs -o "$opts" fsbench-test "$fs" || { skip "no tmpfs" 7; return; }
    sentinel_make "$fs/outside"
    mkdir "$fs/run"
    run_fsbench run --dir "$fs/run" --db "$DB" --label "enospc-$name" "$@"
    is "$RC" 1 "$name: exit status 1"
    one_line "$name" "^fsbench: run 1, phase $want: .*No space left on device$"
    is "$(ls -A "$fs/run")" "" "$name: the run directory is emptied"
    store_check "$DB" 1 "$name"
    sentinel_check "$fs/outside" "$name"
    umount "$fs"
}

# The pre-flight refuses a tmpfs smaller than the tree (and its copy) before any run, so the
# file systems are sized to pass it and run out of inodes instead: the tiny tree has 1,101
# entries, its copy as many again.
fault_enospc extract size=64m,nr_inodes=300 extract --tree tiny
fault_enospc copy size=64m,nr_inodes=1500 copy --tree tiny --phases extract,copy,delete
fault_enospc createsync size=64m,nr_inodes=300 createsync --tree tiny createsync
fault_enospc cb_initial size=400m,nr_inodes=300 cb_initial compilebench -i 1 -r 5 --cb-no-sync
fault_enospc cb_random size=400m cb_random compilebench -i 1 -r 30 --scale 0.05 --cb-no-sync

# fsyncstorm writes each new version beside the old one: an inode limit just above what
# extract needs lets extract finish and the storm fail. Found by trying (fsbench's own
# entries in the run directory count too).
FILES=$("$FSBENCH" tree stats tiny | awk '$1 == "files" { print $2 }')
for n in $(seq $((FILES + 90)) $((FILES + 130))); do
    fs="$SCRATCH/fs-probe"
    mkdir -p "$fs" && mount -t tmpfs -o "size=64m,nr_inodes=$n" fsbench-test "$fs" &&
        sentinel_make "$fs/outside" && mkdir "$fs/run"
    "$FSBENCH" run cvs --dir "$fs/run" --tree tiny --no-save >/dev/null 2>"$SCRATCH/probe" </dev/null
    umount "$fs"
    grep -q "phase extract" "$SCRATCH/probe" || break
done
fault_enospc fsyncstorm "size=64m,nr_inodes=$n" fsyncstorm --tree tiny cvs

# age: ENOSPC is one of its planned ends (a full file system is aged), not a failure.
fs="$SCRATCH/fs-age"
mkdir -p "$fs" && mount -t tmpfs -o size=64m,nr_inodes=60 fsbench-test "$fs"
sentinel_make "$fs/outside"
mkdir "$fs/run"
run_fsbench run age --dir "$fs/run" --age-host-fs --db "$DB" --tree tiny --json "$SCRATCH/age.json"
is "$RC" 0 "age: a full file system ends aging normally (exit 0)"
like "$(jq -r '.runs[0].phases[0].note' "$SCRATCH/age.json" 2>&1)" "ENOSPC" "age: its note says it ended on ENOSPC"
is "$(ls -A "$fs/run")" "" "age: the run directory is emptied"
store_check "$DB" 2 "age"
sentinel_check "$fs/outside" "age"
umount "$fs"

done_testing
