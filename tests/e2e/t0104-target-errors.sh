#!/bin/bash
# Errors with managed targets: one line on stderr naming the problem, the right exit status
# (2 bad usage, 1 a failed run), the runs made so far saved, and after each no mount, loop
# device, image or directory left behind (issue 4, "Safety and cleanup").
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd losetup
need_cmd mkfs.ext4

. "$(dirname "$0")/../lib/target.sh"

# nothing_left WHAT: no mount under $TMPDIR, no loop device on an fsbench-target image, and
# $TMPDIR empty: no image, mount point or run directory (3 assertions).
nothing_left() {
    is "$(our_mounts)" "" "$1: nothing mounted under \$TMPDIR"
    is "$(our_loops)" "" "$1: no loop device backed by an fsbench-target image"
    is "$(ls -A "$TMPDIR")" "" "$1: nothing left in \$TMPDIR (image, mount point, run directory)"
}

# bad STATUS REGEX NAME -- ARGS...: exit status, the one-line message, nothing left
# (6 assertions).
bad() {
    local want=$1 re=$2 name=$3; shift 4
    run_fsbench "$@"
    is "$RC" "$want" "$name: exit status $want"
    like "$ERR" "^fsbench: .*$re" "$name: the message names the problem"
    is "$(printf '%s\n' "$ERR" | wc -l)" 1 "$name: one line on stderr"
    nothing_left "$name"
}

RUN=(run --no-save --tree tiny)

# A file system without its mkfs: a failed run (the environment, not the command line).
bad 1 "mkfs\.nosuchfs" "--fs nosuchfs" -- "${RUN[@]}" --image 64M --fs nosuchfs

# A mount option the kernel refuses (ext4 takes journal_async_commit, but not with data=ordered,
# its default): the pre-flight mounts every configuration before the first run, so both the
# basic scenario (fsbench mounts it) and testdisk (whose mount phase would) are refused then,
# with the kernel's reason. An option off the allow-list never reaches the kernel (t0106).
bad 1 "(cannot mount|mount.* failed).*journal_async_commit" "bad mount option, basic" \
    -- "${RUN[@]}" --image 64M --fs ext4 --mount-opts journal_async_commit
like "$ERR" "journal_async_commit.*(Invalid argument|dmesg)|(Invalid argument|dmesg).*journal_async_commit" \
    "bad mount option, basic: the message gives the kernel's answer"
bad 1 "(cannot mount|mount.* failed).*journal_async_commit" "bad mount option, testdisk" \
    -- "${RUN[@]}" testdisk --image 64M --fs ext4 --mount-opts journal_async_commit
like "$ERR" "^fsbench: pre-flight: ext4:journal_async_commit: .*Invalid argument; the kernel said: EXT4-fs \(loop[0-9]+\): .*journal_async_commit" \
    "bad mount option, testdisk: the pre-flight names the configuration and the kernel's line"
bad 2 "--mount-opts: 'bogus_option=1' is refused for ext4" "mount option off the list" \
    -- "${RUN[@]}" --image 64M --fs ext4 --mount-opts bogus_option=1

# Usage errors: nothing is set up.
bad 2 "--image: '0'" "--image 0" -- "${RUN[@]}" --image 0
bad 2 "--image: 'abc'" "--image abc" -- "${RUN[@]}" --image abc
# an image too small for its file system (issue 30): said at once, with the minimum; before,
# mkfs's last line with a literal \t
bad 2 "--image 1K: too small for ext4: mkfs\.ext4 needs at least 128 KiB \(give --image 128K or more\)$" \
    "--image 1K" -- "${RUN[@]}" --image 1K --phases extract
bad 2 "--image 200M: too small for xfs: mkfs\.xfs needs at least 300 MiB \(give --image 300M or more\)$" \
    "--image 200M --fs ext4,xfs" -- "${RUN[@]}" --image 200M --fs ext4,xfs --phases extract --dry-run
# mkfs's reason wrapped over lines (mke2fs indents the rest with a tab): one line, no \t
bad 1 "mkfs\.ext4 on /dev/loop[0-9]+ failed \(exit 1\): mkfs\.ext4: inode_size \(256\) \* inodes_count \(99999\) too big for a filesystem with 200 blocks, specify higher inode_ratio \(-i\) or lower inode count \(-N\)\.$" \
    "mkfs's wrapped reason" -- "${RUN[@]}" --image 200K --fs ext4 --mkfs-opts "-N 99999" --phases extract
mkdir "$SCRATCH/X"
bad 2 "--dir.*--image|--image.*--dir" "--image with --dir" -- "${RUN[@]}" --image 64M --dir "$SCRATCH/X"
is "$(ls -A "$SCRATCH/X")" "" "--image with --dir: the directory is left empty"
bad 2 "--fs.*--image" "--fs without --image" -- "${RUN[@]}" --fs ext4
bad 2 "umount.*--image" "--phases umount without --image" -- "${RUN[@]}" --phases umount

# ENOSPC on the image: 16 MiB cannot hold the tiny tree at scale 4 (4,000 files, 34 MB).
DB="$SCRATCH/results.db"
for scen in extract testdisk; do
    if [ $scen = extract ]; then args=(--phases extract); else args=(testdisk); fi
    run_fsbench run --db "$DB" --label "full-$scen" --tree tiny --scale 4 --image 16M --fs ext4 \
        "${args[@]}"
    is "$RC" 1 "ENOSPC ($scen): exit 1"
    like "$ERR" "^fsbench: run 1.*phase extract: .*No space left on device" \
        "ENOSPC ($scen): the message names the run, the phase and 'No space left on device'"
    is "$(printf '%s\n' "$ERR" | wc -l)" 1 "ENOSPC ($scen): one line on stderr"
    nothing_left "ENOSPC ($scen)"
    "$FSBENCH" runs --db "$DB" >"$SCRATCH/runs" 2>&1
    like "$(cat "$SCRATCH/runs")" "^ *[0-9]+ +full-$scen .* 1\$" \
        "ENOSPC ($scen): the run is saved (fsbench runs --db lists full-$scen with 1 run)"
done
done_testing
