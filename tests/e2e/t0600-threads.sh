#!/bin/bash
# Threads (-j N): the basic scenario on 2 threads handles exactly what it handles on 1 —
# every phase's files, dirs, symlinks, bytes and operations by kind — in a plain directory
# and on a tmpfs (root); the workspace is left empty; -j outside 1..64 is a usage error.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd jq

# Per phase: name, status, counts, bytes and ops by kind (all invariant in the thread
# count). Not readdir: how getdents batches a directory depends on its on-disk layout, which
# can differ between two creations of the same tree whatever the threads.
summary() {
    jq -c '[.runs[0].phases[] | {name, status, files, dirs, symlinks, bytes_read,
            bytes_written, ops: (.ops | del(.readdir))}]' "$1"
}

compare_j() { # compare_j DIR WHERE
    local dir=$1 where=$2
    run_fsbench run --dir "$dir" --tree tiny --scale 3 -j 1 --json "$SCRATCH/j1.json" --no-save
    is "$RC" 0 "$where: -j 1 exits 0"
    run_fsbench run --dir "$dir" --tree tiny --scale 3 -j 2 --json "$SCRATCH/j2.json" --no-save
    is "$RC" 0 "$where: -j 2 exits 0"
    files=$(jq -r '.tree.files' "$SCRATCH/j2.json")
    for p in extract walk statwalk read copy delete; do
        want=$files
        [ $p = delete ] && want=$((2 * files))
        is "$(jq -r --arg p $p '.runs[0].phases[] | select(.name == $p) | .files' \
            "$SCRATCH/j2.json")" "$want" "$where: -j 2 $p handled every file"
    done
    for p in $(jq -r '.runs[0].phases[].name' "$SCRATCH/j1.json" | sort -u); do
        is "$(summary "$SCRATCH/j2.json" | jq -c --arg p $p '[.[] | select(.name == $p)]')" \
            "$(summary "$SCRATCH/j1.json" | jq -c --arg p $p '[.[] | select(.name == $p)]')" \
            "$where: $p counts and ops equal for -j 2 and -j 1"
    done
    is "$(ls -A "$dir")" "" "$where: workspace empty afterwards"
}

mkdir "$SCRATCH/work"
compare_j "$SCRATCH/work" "directory"

# --threads is the long form; a single phase list works too.
run_fsbench run --dir "$SCRATCH/work" --tree tiny --threads 3 --phases extract,walk,delete \
    --json "$SCRATCH/t3.json" --no-save
is "$RC" 0 "--threads 3 exits 0"
is "$(jq -r '.runs[0].phases[1].files' "$SCRATCH/t3.json")" \
    "$(jq -r '.tree.files' "$SCRATCH/t3.json")" "--threads 3 walk saw every file"

for bad in 0 65 x -1; do
    run_fsbench run --dir "$SCRATCH/work" --tree tiny -j "$bad" --no-save
    is "$RC" 2 "-j $bad is rejected with exit 2"
    like "$ERR" "threads" "-j $bad: the message names --threads"
done
run_fsbench run --dir "$SCRATCH/work" --tree tiny --threads 65 --no-save
is "$RC" 2 "--threads 65 is rejected with exit 2"

if [ "$(id -u)" -ne 0 ]; then
    skip "tmpfs needs root" 17
elif ! mount_tmpfs "$SCRATCH/mnt" 256m; then
    skip "cannot mount tmpfs" 17
else
    compare_j "$SCRATCH/mnt" "tmpfs"
fi
done_testing
