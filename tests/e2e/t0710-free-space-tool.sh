#!/bin/bash
# Issue 34: the free-space histogram from the file system's own tool where GETFSMAP is not
# taken (forced here with the test-only FSBENCH_FREE_SPACE_TOOL=1: this kernel has GETFSMAP
# for ext4 and xfs). On one fragmented ext4 loop image GETFSMAP and e2freefrag give the
# same histogram, count, bytes and largest extent, and e2freefrag's own scan of the
# unmounted image's bitmaps agrees too; the source is named in the text and the JSON; a
# device the file system is not on is refused; a run on its own image uses the image's
# loop device (the age and layout notes name e2freefrag); on xfs, xfs_db agrees with
# GETFSMAP on every extent of 8 KiB and more (it counts the allocation groups' free lists
# as free one-block extents, GETFSMAP does not). Aging toward a free-space target
# (--age-free-target) stops there and says so. Nothing stays mounted or attached.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd mkfs.ext4
need_cmd e2freefrag
need_cmd losetup
need_cmd jq
losetup -f >/dev/null 2>&1 || skip_all "no free loop device"

# make_fs FS SIZE: an image with FS on a loop device ($DEV), mounted at $SCRATCH/m, a
# tree written and every other file removed (free space in pieces), then remounted so
# that what is on the device is what the kernel holds.
make_fs() {
    truncate -s "$2" "$SCRATCH/$1.img"
    "mkfs.$1" -q "$SCRATCH/$1.img" >/dev/null 2>&1 || "mkfs.$1" -q -f "$SCRATCH/$1.img"
    DEV=$(losetup -f --show "$SCRATCH/$1.img")
    LOOPS="$LOOPS $DEV"
    mkdir -p "$SCRATCH/m"
    mount "$DEV" "$SCRATCH/m"
    for i in $(seq 1 300); do
        head -c $(((i * 7919) % 90000 + 1)) /dev/urandom >"$SCRATCH/m/f$i"
    done
    rm -f "$SCRATCH"/m/f*[13579]
    umount "$SCRATCH/m"
    mount "$DEV" "$SCRATCH/m"
}
release_fs() {
    mountpoint -q "$SCRATCH/m" && umount "$SCRATCH/m"
    losetup -d "$DEV"
    LOOPS=${LOOPS/ $DEV/}
}
hist() { jq -c '.free_space | {extents, bytes, largest, histogram}' "$1"; }

# 1. ext4: GETFSMAP, then e2freefrag on the same mounted file system.
make_fs ext4 128M
run_fsbench layout "$SCRATCH/m" --json "$SCRATCH/a.json"
is "$RC" 0 "ext4 GETFSMAP: exits 0"
like "$OUT" 'free space +[0-9]+ free extents, .*\(source: GETFSMAP\)' "text names GETFSMAP"
is "$(jq -r .free_space.source "$SCRATCH/a.json")" GETFSMAP "JSON source GETFSMAP"
FSBENCH_FREE_SPACE_TOOL=1 run_fsbench layout "$SCRATCH/m" --device "$DEV" --json "$SCRATCH/b.json"
is "$RC" 0 "ext4 e2freefrag: exits 0"
like "$OUT" 'free space +[0-9]+ free extents, .*\(source: e2freefrag\)' "text names e2freefrag"
is "$(jq -r .free_space.source "$SCRATCH/b.json")" e2freefrag "JSON source e2freefrag"
A=$(hist "$SCRATCH/a.json")
diag "GETFSMAP:   $A"
ok "$([ "$(jq '.free_space.extents' "$SCRATCH/a.json")" -gt 3 ]; echo $?)" \
    "the free space is in pieces (more than 3 extents)"
is "$(hist "$SCRATCH/b.json")" "$A" "e2freefrag: the same histogram, count, bytes, largest"
# the wrong device, or none that is one: refused before anything is read
FSBENCH_FREE_SPACE_TOOL=1 run_fsbench layout "$SCRATCH/m" --device /dev/null
is "$RC" 2 "a device the file system is not on: usage exit"
like "$ERR" "layout: --device /dev/null is not the block device .* is on" "says which"
# e2freefrag's scan of the bitmaps of the unmounted image: the same count and largest
umount "$SCRATCH/m"
OFF=$(e2freefrag "$DEV")
is "$(printf '%s\n' "$OFF" | sed -n 's/^Num. free extent: //p')" \
    "$(jq .free_space.extents "$SCRATCH/a.json")" "unmounted bitmaps: the same count"
is "$(($(printf '%s\n' "$OFF" | sed -n 's/^Max. free extent: \([0-9]*\) KB.*/\1/p') * 1024))" \
    "$(jq .free_space.largest "$SCRATCH/a.json")" "unmounted bitmaps: the same largest"
release_fs

# 2. A run on its own image: the tool reads the image's loop device, and says so.
mkdir "$SCRATCH/img"
FSBENCH_FREE_SPACE_TOOL=1 run_fsbench run age --image 96M --image-dir "$SCRATCH/img" --fs ext4 \
    --no-save --phases age,layout --age-profile tiny --seed 3 --json "$SCRATCH/r.json"
is "$RC" 0 "run with the tool: exits 0"
[ "$RC" -eq 0 ] || diag "$ERR"
N=$(jq -r '[.runs[0].phases[] | select(.name == "age")][0].note' "$SCRATCH/r.json")
like "$N" 'free space before: [0-9]+ free extents.*\(source: e2freefrag\); after: [0-9]+ free extents.*\(source: e2freefrag\)' \
    "age note: before and after from e2freefrag"
L=$(jq -r '[.runs[0].phases[] | select(.name == "layout")][0].note' "$SCRATCH/r.json")
like "$L" 'free space: [0-9]+ free extents.*\(source: e2freefrag\)' "layout note: from e2freefrag"
is "$(awk -v s="$SCRATCH/img" 'index($5, s) == 1' /proc/self/mountinfo)$(losetup -a | grep -F "$SCRATCH/img")" \
    "" "run: no mount or loop device left"

# 3. Aging toward a free-space target: with a profile and with the plain churn, the stop is
# named and the note gives the last measure, at or above the target; a target that cannot
# be measured (tmpfs: no GETFSMAP, no tool) fails the phase saying so; a bad value is one
# line, exit 2.
note_of() { jq -r "[.runs[0].phases[] | select(.name == \"$2\")][0].note" "$1"; }
run_fsbench run age --image 96M --image-dir "$SCRATCH/img" --fs ext4 --no-save --phases age \
    --age-profile tiny --age-converge 0 --age-free-target 5 --seed 3 --json "$SCRATCH/t1.json"
is "$RC" 0 "free-space target, profile: exits 0"
N=$(note_of "$SCRATCH/t1.json" age)
diag "$N"
like "$N" '^profile tiny: free-space target reached after [0-9]+ ops' "profile: the stop is named"
p=$(printf '%s\n' "$N" | sed -nE 's/.*free-space target: ([0-9]+)% of free space in extents under 1.0 MiB \(target 5%\)$/\1/p')
ok "$([ -n "$p" ] && [ "$p" -ge 5 ]; echo $?)" "profile: the last measure ($p %) meets the target"
run_fsbench run age --image 96M --image-dir "$SCRATCH/img" --fs ext4 --no-save --phases age \
    --age-free-target 10:256K --seed 3 --json "$SCRATCH/t2.json"
is "$RC" 0 "free-space target, churn: exits 0"
N=$(note_of "$SCRATCH/t2.json" age)
diag "$N"
p=$(printf '%s\n' "$N" | sed -nE 's/.*; free-space target reached; free-space target: ([0-9]+)% of free space in extents under 256.0 KiB \(target 10%\)$/\1/p')
ok "$([ -n "$p" ] && [ "$p" -ge 10 ]; echo $?)" "churn: the stop is named, the measure ($p %) meets it"
mount_tmpfs "$SCRATCH/tmpfs" 64M
run_fsbench run age --dir "$SCRATCH/tmpfs" --age-host-fs --no-save --phases age \
    --age-free-target 5 --json "$SCRATCH/t3.json"
is "$RC" 1 "no free-space measure: the run fails"
like "$(note_of "$SCRATCH/t3.json" age)" \
    '^--age-free-target: the free space cannot be measured here: unknown \(GETFSMAP: ' \
    "no free-space measure: says why"
run_fsbench run age --image 96M --age-free-target 5:3M
is "$RC" 2 "a bad target: usage exit"
like "$ERR" "^fsbench: --age-free-target: '5:3M' is not PCT\[:SIZE\]" "a bad target: says what"
is "$(awk -v s="$SCRATCH/img" 'index($5, s) == 1' /proc/self/mountinfo)$(losetup -a | grep -F "$SCRATCH/img")" \
    "" "targets: no mount or loop device left"

# 4. xfs: xfs_db beside GETFSMAP.
if command -v mkfs.xfs >/dev/null && command -v xfs_db >/dev/null; then
    make_fs xfs 300M
    run_fsbench layout "$SCRATCH/m" --json "$SCRATCH/xa.json"
    FSBENCH_FREE_SPACE_TOOL=1 run_fsbench layout "$SCRATCH/m" --device "$DEV" \
        --json "$SCRATCH/xb.json"
    is "$RC" 0 "xfs_db: exits 0"
    is "$(jq -r .free_space.source "$SCRATCH/xb.json")" xfs_db "JSON source xfs_db"
    big() { jq -c '[.free_space.histogram[] | select(.from >= 8192)], .free_space.largest' "$1"; }
    diag "GETFSMAP: $(hist "$SCRATCH/xa.json")" "xfs_db:   $(hist "$SCRATCH/xb.json")"
    is "$(big "$SCRATCH/xb.json")" "$(big "$SCRATCH/xa.json")" \
        "xfs_db: the same extents from 8 KiB up, the same largest"
    small() { jq '[.free_space.histogram[] | select(.from == 0) | .extents] | add // 0' "$1"; }
    ok "$([ "$(small "$SCRATCH/xb.json")" -ge "$(small "$SCRATCH/xa.json")" ]; echo $?)" \
        "xfs_db: at least GETFSMAP's small extents (plus the free lists')"
    release_fs
else
    skip "no mkfs.xfs / xfs_db" 4
fi

done_testing
