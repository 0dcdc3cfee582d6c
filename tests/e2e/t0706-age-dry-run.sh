#!/bin/bash
# run age --dry-run sizes the age phase by what it writes: the tree (--tree kernel, 1.25 GiB
# on disk) is laid down by no phase of the age scenario, so it is not in the space needed,
# and a 64 MiB file system is enough for aging to 80 % full. With extract among the phases
# the tree counts again.
. "$(dirname "$0")/../lib/tap.sh"
need_root
mount_tmpfs "$SCRATCH/fs" 64m || skip_all "cannot mount tmpfs"

# need_mib OUT: the "space: about X needed" figure in MiB.
need_mib() {
    printf '%s\n' "$1" | awk '$1 == "space:" {
        v = $3; u = $4; sub(/needed/, "", u)
        if (u == "GiB") v *= 1024; else if (u == "KiB") v /= 1024; else if (u == "B") v /= 1048576
        printf "%d", v + 0.5 }'
}

run_fsbench run age --dir "$SCRATCH/fs" --age-host-fs --tree kernel --dry-run
is "$RC" 0 "run age --dry-run exits 0"
like "$OUT" 'tree: kernel x1 .* about 1\.25 GiB on disk' "the plan names the kernel tree"
like "$OUT" 'no phase lays this tree down: it takes no space' "and says no phase writes it"
like "$OUT" 'age: ages the file system holding .*: it writes up to 256 MiB \(4x its 64 MiB\)' \
    "age: what it writes of the 64 MiB file system"
n=$(need_mib "$OUT")
ok $([ -n "$n" ] && [ "$n" -ge 40 ] && [ "$n" -le 64 ]; echo $?) \
    "space needed is what aging takes ($n MiB), not the tree's 1.25 GiB"
unlike=$(printf '%s\n' "$OUT" | grep -c 'NOT ENOUGH')
is "$unlike" 0 "the 64 MiB file system is enough"

# The tree laid down by extract: it counts again.
run_fsbench run --phases extract,age --dir "$SCRATCH/fs" --age-host-fs --tree kernel --dry-run
is "$RC" 0 "extract,age --dry-run exits 0"
n=$(need_mib "$OUT")
ok $([ -n "$n" ] && [ "$n" -ge 1200 ]; echo $?) "with extract the tree is needed ($n MiB)"
like "$OUT" 'space: .*: NOT ENOUGH' "and 64 MiB is not enough"
done_testing
