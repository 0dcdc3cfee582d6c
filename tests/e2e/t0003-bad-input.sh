#!/bin/bash
# Bad input: one clear line on stderr naming the problem, exit status 2 (usage) or 1 (run
# failure), and nothing left behind.
. "$(dirname "$0")/../lib/tap.sh"

bad() { # bad STATUS REGEX NAME -- ARGS...
    local want=$1 re=$2 name=$3; shift 4
    run_fsbench "$@"
    is "$RC" "$want" "$name: exit status $want"
    like "$ERR" "^fsbench: .*$re" "$name: message names the problem"
    is "$(printf '%s\n' "$ERR" | wc -l)" 1 "$name: one line on stderr"
}

mkdir "$SCRATCH/empty"
bad 2 "unknown profile 'nope'" "unknown profile" -- run --dir "$SCRATCH/empty" --tree nope
bad 2 "unknown scenario 'nope'" "unknown scenario" -- run --dir "$SCRATCH/empty" nope
bad 2 "unknown phase 'nope'" "unknown phase" -- run --dir "$SCRATCH/empty" --phases extract,nope
bad 2 "--scale: 'abc'" "scale not a number" -- run --dir "$SCRATCH/empty" --scale abc
bad 2 "--scale: '0'" "scale zero" -- run --dir "$SCRATCH/empty" --scale 0
bad 2 "--scale: '-1'" "scale negative" -- run --dir "$SCRATCH/empty" --scale -1
bad 2 "--runs: '0'" "runs zero" -- run --dir "$SCRATCH/empty" --runs 0
bad 2 "--runs: 'x'" "runs not a number" -- run --dir "$SCRATCH/empty" --runs x
bad 2 "--engine: unknown engine" "unknown engine" -- run --dir "$SCRATCH/empty" --engine nope
bad 2 "unknown command" "unknown command" -- frobnicate
bad 1 "does not exist" "missing directory" -- run --no-save --dir "$SCRATCH/missing"
touch "$SCRATCH/afile"
bad 1 "not a directory" "directory is a file" -- run --no-save --dir "$SCRATCH/afile"
mkdir "$SCRATCH/full" && touch "$SCRATCH/full/precious"
bad 1 "not empty" "directory not empty" -- run --no-save --dir "$SCRATCH/full"
is "$(ls -A "$SCRATCH/full")" "precious" "a non-empty directory is left untouched"
is "$(ls -A "$SCRATCH/empty")" "" "bad options leave the directory empty"

if [ "$(id -u)" -eq 0 ]; then
    # Read-only: a tmpfs remounted ro (root may write anywhere else).
    mount_tmpfs "$SCRATCH/ro" 16m && mount -o remount,ro "$SCRATCH/ro"
    bad 1 "not writable" "read-only directory" -- run --no-save --dir "$SCRATCH/ro"
    # Too little space for the tree and its copy: the pre-flight says so before any run.
    mount_tmpfs "$SCRATCH/tight" 2m
    bad 1 "pre-flight: needs about .* MiB free in .*tight.*, and 2.0 MiB are" \
        "too little space, said before any run" -- run --no-save --dir "$SCRATCH/tight" --tree tiny
    # A full disk in the middle of extract: room for the bytes, but a tmpfs of 300 inodes
    # cannot hold the tiny tree's 1100 entries (the pre-flight counts space, not inodes).
    mkdir -p "$SCRATCH/small" && mount -t tmpfs -o size=64m,nr_inodes=300 fsbench-test "$SCRATCH/small"
    bad 1 "phase extract: (create|mkdir) .*No space left on device" "full disk during extract" \
        -- run --no-save --dir "$SCRATCH/small" --tree tiny
    is "$(ls -A "$SCRATCH/small")" "" "full disk: nothing left behind"
else
    skip "needs root to mount tmpfs" 10
fi
done_testing
