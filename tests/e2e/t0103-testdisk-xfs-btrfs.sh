#!/bin/bash
# The testdisk scenario on xfs (defaults, noatime) and btrfs (defaults, compress=zstd) images,
# and ext4 and btrfs in one run: each configuration named fs:opts, every phase ok, extract
# made the whole tree, and nothing left mounted or attached (issue 4). A file system whose
# mkfs is not installed, or that the kernel cannot mount, is skipped with the reason.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd jq
need_cmd losetup

. "$(dirname "$0")/../lib/target.sh"

# unavailable FS: prints why FS cannot be tested here, or nothing.
unavailable() {
    command -v "mkfs.$1" >/dev/null 2>&1 || [ -x "/usr/sbin/mkfs.$1" ] || [ -x "/sbin/mkfs.$1" ] ||
        { echo "mkfs.$1 not installed"; return; }
}
# in_kernel FS: true if the running kernel lists FS (a module may still load on mount).
in_kernel() { grep -qw "$1" /proc/filesystems; }
# mount_refused FS: true if the last run failed because the kernel cannot mount FS.
mount_refused() {
    ! in_kernel "$1" && [ "$RC" -ne 0 ] &&
        printf '%s\n' "$ERR" | grep -Eq 'cannot mount|does not support|modprobe'
}

N_TESTDISK=11
# testdisk_on FS SIZE OPTS2: testdisk with --mount-opts defaults and OPTS2, 2 runs
# ($N_TESTDISK assertions, or as many skips).
testdisk_on() {
    local fs=$1 size=$2 opts2=$3 j="$SCRATCH/$1.json" why
    why=$(unavailable "$fs")
    if [ -n "$why" ]; then
        skip "$why" $N_TESTDISK
        return
    fi
    run_fsbench run testdisk --image "$size" --fs "$fs" --mount-opts defaults \
        --mount-opts "$opts2" --runs 2 --tree tiny --no-save --json "$j" --wide
    if mount_refused "$fs"; then
        skip "the kernel cannot mount $fs: $ERR" $((N_TESTDISK - 3))
        nothing_left "$fs (refused)"
        return
    fi
    is "$RC" 0 "$fs testdisk, defaults and $opts2: exit 0"
    [ "$RC" -eq 0 ] || diag "$ERR"
    is "$(jq -r '[.runs[].config] | unique | join(" ")' "$j")" \
        "$(printf '%s\n' "$fs:defaults" "$fs:$opts2" | LC_ALL=C sort | paste -sd' ')" \
        "$fs: configurations named $fs:defaults and $fs:$opts2"
    is "$(jq '.runs | length' "$j")" 4 "$fs: 4 runs"
    is "$(jq -r '[.runs[] | [.phases[].name] | join(",")] | unique | join(" | ")' "$j")" \
        mount,extract,sync,umount,mount,delete,sync,umount "$fs: testdisk's phases in order"
    is "$(jq -r '[.runs[].phases[].status] | unique | join(",")' "$j")" ok \
        "$fs: every phase of every run ok"
    local files
    files=$(jq '.tree.files' "$j")
    is "$(jq -r '[.runs[].phases[] | select(.name == "extract") | .files] | unique | join(",")' \
        "$j")" "$files" "$fs: every extract made all $files files of the tree"
    is "$(jq -r '[.runs[].phases[] | select(.name == "delete") | .files] | unique | join(",")' \
        "$j")" "$files" "$fs: every delete removed all $files files"
    like "$OUT" "^Mode: $fs:$opts2\$" "$fs: the matrix has a 'Mode: $fs:$opts2' block"
    nothing_left "$fs"
}

testdisk_on xfs 320M noatime
testdisk_on btrfs 256M compress=zstd

# ext4 and btrfs in one run: the file system changes between configurations.
N_MIXED=11
why=""
for fs in ext4 btrfs; do
    [ -n "$why" ] || why=$(unavailable $fs)
done
if [ -n "$why" ]; then
    skip "$why" $N_MIXED
else
    J="$SCRATCH/mixed.json"
    run_fsbench run testdisk --image 256M --fs ext4,btrfs --runs 1 --tree tiny --no-save \
        --json "$J"
    if mount_refused btrfs; then
        skip "the kernel cannot mount btrfs: $ERR" 4
        nothing_left "--fs ext4,btrfs"
        skip "the kernel cannot mount btrfs" 4
    else
        is "$RC" 0 "--fs ext4,btrfs: exit 0"
        [ "$RC" -eq 0 ] || diag "$ERR"
        is "$(jq -r '[.runs[].config] | sort | join(" ")' "$J")" "btrfs:defaults ext4:defaults" \
            "--fs ext4,btrfs: 2 configurations, ext4:defaults and btrfs:defaults"
        is "$(jq -r '[.runs[].phases[].status] | unique | join(",")' "$J")" ok \
            "--fs ext4,btrfs: every phase of both configurations ok"
        files=$(jq '.tree.files' "$J")
        is "$(jq -r '[.runs[].phases[] | select(.name == "extract") | .files] | unique | join(",")' \
            "$J")" "$files" "--fs ext4,btrfs: both extracts made all $files files"
        nothing_left "--fs ext4,btrfs"

        # --keep-fs with two file systems in interleaved rounds: one image cannot keep both,
        # so fsbench must either refuse the combination as bad usage or keep one file system
        # each (one mkfs per file system), not silently mkfs before every run.
        mkdir -p "$SCRATCH/bin"
        for fs in ext4 btrfs; do
            printf '#!/bin/sh\necho "%s $*" >>"%s"\nexec "%s" "$@"\n' "$fs" \
                "$SCRATCH/mkfs.log" "$(command -v mkfs.$fs || echo /usr/sbin/mkfs.$fs)" \
                >"$SCRATCH/bin/mkfs.$fs"
            chmod +x "$SCRATCH/bin/mkfs.$fs"
        done
        PATH="$SCRATCH/bin:$PATH" run_fsbench run testdisk --image 256M --fs ext4,btrfs \
            --keep-fs --runs 2 --tree tiny --no-save
        n=$([ -f "$SCRATCH/mkfs.log" ] && wc -l <"$SCRATCH/mkfs.log" | tr -d ' ' || echo 0)
        if [ "$RC" -eq 2 ]; then
            ok 0 "--keep-fs --fs ext4,btrfs: refused as bad usage"
        else
            is "$RC/$n" "0/2" \
                "--keep-fs --fs ext4,btrfs, 2 rounds: exit 0 and one mkfs per file system"
            diag "mkfs calls:" "$(cat "$SCRATCH/mkfs.log" 2>/dev/null)"
        fi
        nothing_left "--keep-fs --fs ext4,btrfs"
    fi
fi
done_testing
