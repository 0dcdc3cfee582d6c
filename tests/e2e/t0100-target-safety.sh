#!/bin/bash
# Safety of --device targets, with loop devices standing in for disks: nothing without
# --destroy-data; a device carrying a signature only with --force; a mounted device, or one
# backing a loop device, never; and with --destroy-data --force on an unmounted device the run
# goes ahead, leaving the device attached and nothing mounted.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd losetup
need_cmd blkid
need_cmd mkfs.ext4

# Where fsbench puts its mount points: below $SCRATCH, so the cleanup sees any leftover.
export TMPDIR="$SCRATCH/tmp"
mkdir -p "$TMPDIR"

# attach IMAGE: attaches IMAGE to a free loop device, sets DEV and registers it for the
# cleanup (not in a subshell, so that LOOPS keeps it).
attach() {
    DEV=$(losetup --show -f "$1") || return 1
    LOOPS="$LOOPS $DEV"
}

# detach DEV: detaches DEV now and drops it from the cleanup's list.
detach() {
    local l keep=""
    losetup -d "$1"
    for l in $LOOPS; do [ "$l" = "$1" ] || keep="$keep $l"; done
    LOOPS=$keep
}

# mounted DEV: true if DEV is the source of a mount here.
mounted() {
    awk -v d="$1" '{ for (i = 7; i <= NF; i++) if ($i == "-") { if ($(i + 2) == d) f = 1; break } }
                   END { exit !f }' /proc/self/mountinfo
}

RUN=(run --fs ext4 --no-save --tree tiny --phases extract)

# 1. No --destroy-data: refused as a usage error, the device untouched.
truncate -s 64M "$SCRATCH/empty.img" && attach "$SCRATCH/empty.img" ||
    skip_all "cannot attach a loop device"
EMPTY=$DEV
run_fsbench "${RUN[@]}" --device "$EMPTY"
is "$RC" 2 "without --destroy-data: exit 2"
like "$ERR" "--destroy-data" "without --destroy-data: the message names --destroy-data"
like "$ERR" "$EMPTY" "without --destroy-data: the message names the device"
is "$(blkid -p -o value -s TYPE "$EMPTY")" "" "without --destroy-data: no file system written"

# 2. A device with an ext4 signature: refused without --force, the file system intact.
truncate -s 64M "$SCRATCH/signed.img"
mkfs.ext4 -q -F "$SCRATCH/signed.img" && attach "$SCRATCH/signed.img" ||
    skip_all "cannot make an ext4 image"
SIGNED=$DEV
UUID=$(blkid -p -o value -s UUID "$SIGNED")
run_fsbench "${RUN[@]}" --device "$SIGNED" --destroy-data
like "$RC" '^[12]$' "ext4 signature without --force: refused (exit $RC)"
like "$ERR" "signature" "ext4 signature: the message names the signature"
like "$ERR" "ext4" "ext4 signature: the message names its type"
like "$ERR" "--force" "ext4 signature: the message names --force"
is "$(blkid -p -o value -s UUID "$SIGNED")" "$UUID" "ext4 signature: the file system is intact"

# 3. Mounted: refused even with --force.
mkdir -p "$SCRATCH/m"
if mount -t ext4 "$SIGNED" "$SCRATCH/m"; then
    run_fsbench "${RUN[@]}" --device "$SIGNED" --destroy-data --force
    like "$RC" '^[12]$' "mounted, with --force: refused (exit $RC)"
    like "$ERR" "mounted" "mounted: the message says it is mounted"
    like "$ERR" "$SIGNED" "mounted: the message names the device"
    mounted "$SIGNED"
    ok $? "mounted: still mounted where it was"
    umount "$SCRATCH/m"
    is "$(blkid -p -o value -s UUID "$SIGNED")" "$UUID" "mounted: the file system is intact"
else
    skip "cannot mount ext4" 5
fi

# 4. Backing another loop device: refused even with --force.
if attach "$SIGNED"; then
    STACKED=$DEV
    run_fsbench "${RUN[@]}" --device "$SIGNED" --destroy-data --force
    like "$RC" '^[12]$' "backing a loop device, with --force: refused (exit $RC)"
    like "$ERR" "loop device" "backing a loop device: the message says so"
    detach "$STACKED"
else
    skip "cannot stack a loop device" 2
fi

# 5. Not a block device.
run_fsbench "${RUN[@]}" --device "$SCRATCH/signed.img" --destroy-data --force
like "$RC" '^[12]$' "a regular file: refused (exit $RC)"
like "$ERR" "not a block device" "a regular file: the message says it is not a block device"

# 6. --destroy-data --force on the unmounted ext4 device: it runs, and releases the device.
run_fsbench "${RUN[@]}" --device "$SIGNED" --destroy-data --force
is "$RC" 0 "--destroy-data --force on an unmounted device: exit 0"
[ "$RC" -eq 0 ] || diag "$ERR"
mounted "$SIGNED"
ok $((!$?)) "after the run: the device is not mounted"
losetup "$SIGNED" 2>/dev/null | grep -qF "$SCRATCH/signed.img"
ok $? "after the run: the user's loop device is still attached"
is "$(ls -A "$TMPDIR")" "" "after the run: no fsbench-target directory left"
done_testing
