#!/bin/bash
# mkfs and mount options are data: a word that names a device or path, or that mkfs would take
# as another device (mkfs.btrfs takes several), is refused with one line naming the word and
# the file system, exit 2, before anything is made. A loop device carrying an ext4 file system
# labelled PRECIOUS (256 MiB: big enough for mkfs.btrfs to take it) stands in for the user's
# disk: after every attempt (btrfs, ext4 and xfs, mkfs and mount options, the command line and
# a job file) its bytes are unchanged. Allowed options still reach mkfs.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd losetup
need_cmd blkid
need_cmd md5sum
need_cmd mkfs.ext4
. "$(dirname "$0")/../lib/target.sh"

PIMG=$SCRATCH/precious.img
# precious: (re)makes PRECIOUS when it is not as first made, so that each attempt is judged
# on its own (on a build that lets one through, the next still starts from PRECIOUS).
precious() {
    if [ -n "${P:-}" ] && [ "$(md5sum <"$P")" = "${SUM:-}" ]; then return 0; fi
    [ -n "${P:-}" ] && losetup -d "$P" 2>/dev/null
    rm -f "$PIMG" && truncate -s 256M "$PIMG" && mkfs.ext4 -q -F -L PRECIOUS "$PIMG" || return 1
    P=$(losetup --show -f "$PIMG") || return 1
    LOOPS="$LOOPS $P"
    SUM=$(md5sum <"$P")
}
precious || skip_all "cannot attach a loop device"

intact() { # intact NAME: PRECIOUS is byte for byte what it was, and still ext4 PRECIOUS
    is "$(md5sum <"$P")" "$SUM" "$1: PRECIOUS unchanged (md5 of the whole device)"
    is "$(blkid -p -o value -s LABEL "$P")" PRECIOUS "$1: still labelled PRECIOUS"
}

RUN=(run --no-save --image 320M --tree tiny --phases extract)

# refused FS WHAT NAME [DIR] -- ARGS: fsbench run ... --fs FS ARGS, from DIR, is refused.
refused() {
    local fs=$1 what=$2 name=$3 dir=$SCRATCH; shift 3
    if [ "$1" != "--" ]; then dir=$1; shift; fi
    shift
    precious
    (cd "$dir" && "$FSBENCH" "${RUN[@]}" --fs "$fs" "$@" >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null)
    RC=$?
    ERR=$(cat "$SCRATCH/err")
    is "$RC" 2 "$name: refused as a usage error"
    like "$ERR" "^fsbench: $what.* is refused for $fs: " "$name: the message names the word and $fs"
    is "$(printf '%s\n' "$ERR" | wc -l)" 1 "$name: one line on stderr"
    intact "$name"
}

B=$(basename "$P")
# 1. mkfs.btrfs takes every word that is no option as another device.
refused btrfs "--mkfs-opts: '$P'" "btrfs: the device as an option" -- --mkfs-opts "$P"
refused btrfs "--mkfs-opts: '$P'" "btrfs: after a label" -- --mkfs-opts "-L x $P"
refused btrfs "--mkfs-opts: '$B'" "btrfs: a bare name, run from /dev" /dev -- --mkfs-opts "$B"
refused btrfs "--mkfs-opts: '--label=$P'" "btrfs: a device as a value" -- --mkfs-opts "--label=$P"
refused btrfs "--mkfs-opts: '--rootdir'" "btrfs: --rootdir" -- --mkfs-opts "--rootdir $SCRATCH"
refused btrfs "--mkfs-opts: '--'" "btrfs: -- then the device" -- --mkfs-opts "-- $P"
refused btrfs "--mkfs-opts: '-f'" "btrfs: -f again" -- --mkfs-opts "-f"
# 2. mkfs.ext4 takes a device and a size; -z, -d and -J device= name files and devices.
refused ext4 "--mkfs-opts: '$P'" "ext4: the device as an option" -- --mkfs-opts "$P"
refused ext4 "--mkfs-opts: '-z'" "ext4: an undo file on the device" -- --mkfs-opts "-z $P"
refused ext4 "--mkfs-opts: '-J device=$P'" "ext4: an external journal" -- --mkfs-opts "-J device=$P"
refused ext4 "--mkfs-opts: '-d'" "ext4: a directory to copy in" -- --mkfs-opts "-d"
refused ext4 "--mkfs-opts: '-F'" "ext4: -F again (mounted devices)" -- --mkfs-opts "-F"
refused ext4 "--mkfs-opts: '4096'" "ext4: a size operand" -- --mkfs-opts "-L x 4096"
# 3. mkfs.xfs: an external log or real-time section on the device, -d name=.
if command -v mkfs.xfs >/dev/null; then
    refused xfs "--mkfs-opts: '-l logdev=$P'" "xfs: an external log" -- --mkfs-opts "-l logdev=$P"
    refused xfs "--mkfs-opts: '-r'" "xfs: a real-time device" -- --mkfs-opts "-r rtdev=$P"
    refused xfs "--mkfs-opts: '-d name=$P'" "xfs: -d name=" -- --mkfs-opts "-d name=$P"
    refused xfs "--mkfs-opts: '-l size=64m,logdev=x'" "xfs: logdev= among sub-options" -- \
        --mkfs-opts "-l size=64m,logdev=x"
    refused xfs "--mkfs-opts: '$P'" "xfs: the device as an option" -- --mkfs-opts "$P"
else
    skip "no mkfs.xfs" 20
fi
# 4. Mount options that name a device or path, or smuggle in a source.
refused ext4 "--mount-opts: 'journal_path=$P'" "mount ext4 journal_path=" -- \
    --mount-opts "noatime,journal_path=$P"
refused ext4 "--mount-opts: 'source=x'" "mount source=" -- --mount-opts "source=x"
refused ext4 "--mount-opts: 'loop=x'" "mount loop=" -- --mount-opts "loop=x"
refused ext4 "--mount-opts: 'journal_dev=7'" "mount ext4 journal_dev=" -- --mount-opts "journal_dev=7"
if command -v mkfs.xfs >/dev/null; then
    refused xfs "--mount-opts: 'logdev=$P'" "mount xfs logdev=" -- --mount-opts "logdev=$P"
    refused xfs "--mount-opts: 'rtdev=x'" "mount xfs rtdev=" -- --mount-opts "rtdev=x"
else
    skip "no mkfs.xfs" 8
fi
refused btrfs "--mount-opts: 'device=$P'" "mount btrfs device=" -- --mount-opts "device=$P"
refused btrfs "--mount-opts: 'subvol=x'" "mount btrfs subvol=" -- --mount-opts "subvol=x"
nothing_left "after the refusals"

# 5. mkfs-opts from a job file: refused at the key's FILE:LINE, before anything runs.
precious
printf '[global]\nimage = 320M\nfs = btrfs\nphases = extract\nmkfs-opts = -L x %s\n' "$P" \
    >"$SCRATCH/wipe.ini"
run_fsbench run --no-save "$SCRATCH/wipe.ini"
is "$RC" 2 "job file: refused as a usage error"
like "$ERR" "^fsbench: $SCRATCH/wipe.ini:5: .*--mkfs-opts: '$P' is refused for btrfs" \
    "job file: FILE:LINE of the key, the word and the file system"
is "$(printf '%s\n' "$ERR" | wc -l)" 1 "job file: one line on stderr"
intact "job file"
precious
printf '[global]\nimage = 320M\nfs = ext4\nphases = extract\n[j]\nmount-opts = journal_path=%s\n' \
    "$P" >"$SCRATCH/mnt.ini"
run_fsbench run --no-save "$SCRATCH/mnt.ini"
is "$RC" 2 "job file mount-opts: refused"
like "$ERR" "^fsbench: $SCRATCH/mnt.ini:6: .*journal_path=$P' is refused for ext4" \
    "job file mount-opts: FILE:LINE, the word and the file system"
intact "job file mount-opts"

# 6. Allowed options still reach mkfs and mount: a run with them succeeds, and a value mkfs
#    itself refuses comes back as mkfs's message.
precious
run_fsbench "${RUN[@]}" --fs ext4 --mkfs-opts "-L FSB -b 4096 -O ^metadata_csum -E lazy_itable_init=1" \
    --mount-opts "noatime,commit=30,data=writeback"
is "$RC" 0 "ext4 with allowed mkfs and mount options: the run succeeds"
[ "$RC" -eq 0 ] || diag "$ERR"
run_fsbench "${RUN[@]}" --fs ext4 --mkfs-opts "-I 100"
is "$RC" 1 "ext4 -I 100: passed to mkfs, which refuses it (a run failure)"
like "$ERR" "mkfs.ext4 on /dev/loop[0-9]+ failed" "ext4 -I 100: mkfs.ext4's own message"
if command -v mkfs.btrfs >/dev/null; then
    run_fsbench "${RUN[@]}" --fs btrfs --mkfs-opts "--label FSB --nodesize 16k -m single"
    is "$RC" 0 "btrfs with allowed options: the run succeeds"
else
    skip "no mkfs.btrfs" 1
fi
intact "after the allowed runs"
nothing_left "after the allowed runs"
done_testing
