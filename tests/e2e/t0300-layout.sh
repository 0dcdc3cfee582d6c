#!/bin/bash
# fsbench layout on a small loop ext4 image: a file written in one go has layout score 1.0;
# two files written interleaved (alternating 64 KiB appends, each fsync'ed) score lower
# once ext4's per-file goal blocks are out of the way (mb_stream_req);
# preallocated (unwritten, fallocated) space is scored and counted apart; JSON agrees with the table; on tmpfs the
# command says FIEMAP is not supported and exits 1.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd mkfs.ext4
need_cmd losetup
need_cmd jq
need_cmd taskset
"$FSBENCH" layout --help >/dev/null 2>&1 || skip_all "this fsbench has no layout command"

# score_of TEXT: the layout score from the table ("n/a" stays).
score_of() { printf '%s\n' "$1" | awk '$1 == "layout" && $2 == "score" {print $3}'; }
# lt A B: exit status 0 when A < B (decimals).
lt() { awk -v a="$1" -v b="$2" 'BEGIN {exit !(a + 0 < b + 0)}'; }

truncate -s 64M "$SCRATCH/ext4.img" || skip_all "cannot create an image"
mkfs.ext4 -F -q "$SCRATCH/ext4.img" || skip_all "mkfs.ext4 failed"
LOOP=$(losetup -f --show "$SCRATCH/ext4.img" 2>/dev/null) || skip_all "no loop device"
LOOPS="$LOOPS $LOOP"
mkdir "$SCRATCH/mnt"
mount -t ext4 "$LOOP" "$SCRATCH/mnt" || skip_all "cannot mount ext4 on $LOOP"
M=$SCRATCH/mnt

# 1. One 4 MiB file written in one go.
mkdir "$M/one"
dd if=/dev/urandom of="$M/one/f" bs=1M count=4 conv=fsync status=none
run_fsbench layout "$M/one" --json "$SCRATCH/one.json"
is "$RC" 0 "layout of a single file exits 0"
one=$(score_of "$OUT")
diag "single 4 MiB file: layout score $one"
ok $( ! lt "$one" 0.999; echo $?) "file written in one go scores >= 0.999 ($one)"
like "$OUT" '^layout of .* \(ext4, [0-9]+-byte blocks\)' "table names ext4 and the block size"
jq -e . "$SCRATCH/one.json" >/dev/null
ok $? "JSON is valid"
is "$(jq -r '.files' "$SCRATCH/one.json")" 1 "JSON: one file"
is "$(jq -r '.supported' "$SCRATCH/one.json")" true "JSON: supported"
is "$(jq -r '.fstype' "$SCRATCH/one.json")" ext4 "JSON: fstype ext4"
is "$(jq -r '.score * 10000 | round' "$SCRATCH/one.json")" \
    "$(awk -v s="$one" 'BEGIN {printf "%d", s * 10000 + 0.5}')" "JSON score equals the table's"
bs=$(jq -r '.fs_block_size' "$SCRATCH/one.json")
is "$(jq -r '.blocks' "$SCRATCH/one.json")" $((4 * 1024 * 1024 / bs)) "JSON: 4 MiB of blocks"
like "$(jq -r '.group_source' "$SCRATCH/one.json")" '^(superblock|mke2fs default)$' \
    "ext4 group size from the superblock or the mke2fs default"

# interleave DIR: two 4 MiB files a and b written by alternating 64 KiB appends, each
# fsync'ed, on one CPU (so ext4's per-CPU allocation pool is shared by both).
interleave() {
    mkdir "$1" || return 1
    for i in $(seq 64); do
        for f in a b; do
            taskset -c 0 dd if=/dev/urandom of="$1/$f" bs=64K count=1 oflag=append \
                conv=notrunc,fsync status=none || return 1
        done
    done
}

# 2a. With ext4's defaults each file's next block is aimed right after its last one (the
# goal block), so interleaved appends mostly stay contiguous: reported, not asserted.
interleave "$M/two"
is "$(stat -c %s "$M/two/a"):$(stat -c %s "$M/two/b")" "4194304:4194304" "interleaved files are 4 MiB"
run_fsbench layout "$M/two" --json "$SCRATCH/two.json"
is "$RC" 0 "layout of the interleaved files exits 0"
dflt=$(score_of "$OUT")
diag "two interleaved 4 MiB files, ext4 defaults: layout score $dflt, $(jq -r '.extents' \
    "$SCRATCH/two.json") extents"
is "$(jq -r '.dirs_measured' "$SCRATCH/two.json")" 1 "one directory with 2+ files measured"

# 2b. With mb_stream_req raised, files this small share the per-CPU group pool (as small
# files do by default) and the appends interleave on disk.
knob=/sys/fs/ext4/$(basename "$LOOP")/mb_stream_req
if [ -w "$knob" ] && echo 65536 >"$knob"; then
    interleave "$M/shared"
    ok $? "interleaved writes with a shared pool"
    run_fsbench layout "$M/shared" --json "$SCRATCH/shared.json"
    is "$RC" 0 "layout of the shared-pool interleaved files exits 0"
    two=$(score_of "$OUT")
    diag "two interleaved 4 MiB files, shared pool: layout score $two, $(jq -r '.extents' \
        "$SCRATCH/shared.json") extents"
    ok $(lt "$two" 0.99; echo $?) "interleaved files score < 0.99 ($two)"
    ok $(lt "$two" "$one"; echo $?) "interleaved ($two) scores lower than one go ($one)"
    n=$(jq -r '.extents_hist["5-16"] + .extents_hist[">16"]' "$SCRATCH/shared.json")
    is "$n" 2 "both interleaved files have 5 or more extents"
else
    skip "$knob not writable" 5
fi

# 3. Preallocated space is unwritten: located, in the score, counted apart, so a tree of
# fallocated files (as an aging tool that writes no data leaves) gets a number.
mkdir "$M/pre"
if command -v fallocate >/dev/null && fallocate -l 1M "$M/pre/p" 2>/dev/null; then
    for i in 1 2 3; do fallocate -l 256K "$M/pre/q$i"; done
    sync
    run_fsbench layout "$M/pre" --json "$SCRATCH/pre.json"
    is "$RC" 0 "layout of preallocated files exits 0"
    is "$(jq -r '.files' "$SCRATCH/pre.json")" 4 "four fallocated files counted"
    is "$(jq -r '.files_excluded' "$SCRATCH/pre.json")" 0 "no file dropped as not located"
    is "$(jq -r '.files_unwritten' "$SCRATCH/pre.json")" 4 "all four have unwritten extents"
    ok $(jq -e '.extents_unwritten >= 4 and .extents_unwritten == .extents' \
        "$SCRATCH/pre.json" >/dev/null; echo $?) "every extent is reported unwritten"
    is "$(jq -r '.blocks_unwritten == .blocks' "$SCRATCH/pre.json")" true \
        "all located blocks are unwritten ones"
    is "$(jq -r '.score | type' "$SCRATCH/pre.json")" number "the score is a number"
    pre=$(score_of "$OUT")
    like "$pre" '^[01]\.[0-9]{4}$' "table shows a score ($pre), not n/a"
    like "$OUT" 'unwritten +[0-9]+ +extents \(4 files, [0-9]+ blocks; preallocated\)' \
        "table reports the unwritten extents"
else
    skip "fallocate unavailable" 9
fi

# 4. A tree crossing into another mount: not entered.
mkdir "$M/cross" "$M/cross/sub"
echo data >"$M/cross/x"
if mount -t tmpfs -o size=1m fsbench-test "$M/cross/sub"; then
    echo data >"$M/cross/sub/y"
    run_fsbench layout "$M/cross" --json "$SCRATCH/cross.json"
    is "$RC" 0 "layout of a tree with a mount below exits 0"
    is "$(jq -r '"\(.files) \(.mounts_skipped)"' "$SCRATCH/cross.json")" "1 1" \
        "the tmpfs below is skipped, its file not counted"
    umount "$M/cross/sub"
else
    skip "cannot mount tmpfs" 2
fi

umount "$M"
ok $? "ext4 image unmounted"
losetup -d "$LOOP"
ok $? "loop device detached"
LOOPS=""

# 5. tmpfs has no FIEMAP.
mount_tmpfs "$SCRATCH/tmp" 16m || skip_all "cannot mount tmpfs"
echo hello >"$SCRATCH/tmp/f"
run_fsbench layout "$SCRATCH/tmp"
is "$RC" 1 "layout on tmpfs exits 1"
like "$ERR" "layout: FIEMAP is not supported by tmpfs at $SCRATCH/tmp" "says FIEMAP is unsupported"
is "$OUT" "" "prints no table"

run_fsbench layout
is "$RC" 2 "no directory: usage error"
run_fsbench layout "$SCRATCH/nonexistent"
is "$RC" 1 "missing directory exits 1"
like "$ERR" "nonexistent" "names the missing directory"
done_testing
