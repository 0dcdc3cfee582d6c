#!/bin/bash
# --keep-image: after the set the aged file system stays in place and the run says where.
# On an image: the image is moved beside where it was made as fsbench-LABEL.img, is not
# mounted, no loop device is left on it, the path printed ("kept: ...") and the JSON's
# kept.path are that image, and it holds the aged tree (e2fsck clean, debugfs lists it).
# A second set with the same label does not replace it (-2). On a directory: the last
# run's tree stays in the workspace, unmarked.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd mkfs.ext4
need_cmd losetup
need_cmd jq
need_cmd debugfs
need_cmd e2fsck
losetup -f >/dev/null 2>&1 || skip_all "no free loop device"

mkdir "$SCRATCH/img"
IMG=(--image 128M --image-dir "$SCRATCH/img" --fs ext4)
# attached IMAGE: the loop devices backed by IMAGE (none: empty).
attached() { losetup -j "$1" | cut -d: -f1; }
mounted_below() { awk -v s="$SCRATCH/img" 'index($5, s) == 1' /proc/self/mountinfo; }

# 1. The age scenario, kept.
run_fsbench run age "${IMG[@]}" --tree tiny --age-written 0.5 --age-fullness 0.8 --no-save \
    --label kt --keep-image --json "$SCRATCH/age.json"
is "$RC" 0 "age --keep-image exits 0"
[ "$RC" -eq 0 ] || diag "$ERR"
K=$SCRATCH/img/fsbench-kt.img
like "$OUT" "^kept: the last run's file system \\(ext4[^)]*\\) stays in the image $K, unmounted, no loop device attached$" \
    "the run says where the image is"
is "$(jq -r '.kept.kind' "$SCRATCH/age.json")" image "JSON: kept.kind is image"
is "$(jq -r '.kept.path' "$SCRATCH/age.json")" "$K" "JSON: kept.path is that image"
ok $([ -f "$K" ]; echo $?) "the image exists after the run"
is "$(stat -c %s "$K" 2>/dev/null)" $((128 * 1024 * 1024)) "it is the 128 MiB image"
is "$(mounted_below)" "" "nothing is mounted from the image directory"
L=$(attached "$K")
LOOPS="$LOOPS $L"
is "$L" "" "no loop device is attached to the image"
is "$(ls "$SCRATCH/img" | grep -c '^fsbench-target')" 0 "the target's own directory is gone"
e2fsck -fn "$K" >"$SCRATCH/fsck.out" 2>&1
is "$?" 0 "the kept image is a clean ext4 file system"
debugfs -R 'ls -p /fsbench/tree' "$K" 2>/dev/null >"$SCRATCH/ls.out"
n=$(grep -c '^/' "$SCRATCH/ls.out")
ok $([ "$n" -gt 2 ]; echo $?) "the aged tree is in it (/fsbench/tree holds more than . and ..)"

# 2. The same label again: a second image, the first one untouched.
sum1=$(md5sum <"$K")
run_fsbench run "${IMG[@]}" --phases extract,sync --tree tiny --no-save --label kt --keep-image
is "$RC" 0 "a second set with the same label exits 0"
like "$OUT" "stays in the image $SCRATCH/img/fsbench-kt-2.img," "it is kept as fsbench-kt-2.img"
is "$(md5sum <"$K")" "$sum1" "the first kept image is not replaced"
LOOPS="$LOOPS $(attached "$SCRATCH/img/fsbench-kt-2.img")"
is "$(attached "$SCRATCH/img/fsbench-kt-2.img")" "" "no loop device on the second image"

# 3. Without --keep-image nothing stays.
before=$(ls "$SCRATCH/img" | wc -l)
run_fsbench run "${IMG[@]}" --phases extract,sync --tree tiny --no-save --label kn
is "$RC" 0 "a set without --keep-image exits 0"
is "$(ls "$SCRATCH/img" | wc -l)" "$before" "no image is left by it"
unlike_kept=$(printf '%s\n' "$OUT" | grep -c '^kept:')
is "$unlike_kept" 0 "and it says nothing is kept"

# 4. A directory target: the last run's tree stays, the workspace unmarked.
mkdir "$SCRATCH/dir"
run_fsbench run --dir "$SCRATCH/dir" --phases extract --tree tiny --no-save --keep-image \
    --json "$SCRATCH/dir.json"
is "$RC" 0 "--dir --keep-image exits 0"
like "$OUT" "^kept: the last run's tree stays at $SCRATCH/dir/tree$" "says where the tree is"
is "$(jq -r '.kept.kind + " " + .kept.path' "$SCRATCH/dir.json")" "tree $SCRATCH/dir/tree" \
    "JSON: kept tree and its path"
is "$(find "$SCRATCH/dir/tree" -type f | wc -l)" "$(jq -r '.tree.files' "$SCRATCH/dir.json")" \
    "every file of the tree is still there"
ok $([ ! -e "$SCRATCH/dir/.fsbench-workspace" ]; echo $?) "the workspace marker is gone"

rm -f "$SCRATCH"/img/fsbench-*.img
done_testing
