#!/bin/bash
# age on a --dir ages the whole file system holding it (up to 4x its size written, filled to
# 80%): without --age-host-fs on the command line that is refused with one line saying what it
# would take, and --age-host-fs in a job file is no key. --dry-run states the real footprint
# (what age writes and the space it takes at its peak) for a --dir, an image and a device, and
# a real run stays within it. The host file system here is a small tmpfs, so that even a build
# that ages it unasked writes 128 MiB at most.
. "$(dirname "$0")/../lib/tap.sh"
need_root
. "$(dirname "$0")/../lib/target.sh"

T=$SCRATCH/host
mount_tmpfs "$T" 32M || skip_all "cannot mount a tmpfs"
mkdir "$T/run"
MIB=1048576
read -r SIZE AVAIL < <(df -B1 --output=size,avail "$T" | tail -1)

# 1. Refused without --age-host-fs: exit 2, one line naming the phase, the directory, what it
#    would write and the way out; nothing written.
run_fsbench run age --dir "$T/run" --no-save --tree tiny
is "$RC" 2 "age --dir without --age-host-fs: a usage error"
like "$ERR" "^fsbench: phase age ages the whole file system holding $T/run" \
    "the refusal names the phase and the directory"
like "$ERR" "writes up to 128 MiB \(4x its 32 MiB\) and fills it to 80% full" \
    "the refusal says what it would write and how full it would fill it"
like "$ERR" "--age-host-fs" "the refusal names --age-host-fs"
is "$(printf '%s\n' "$ERR" | wc -l)" 1 "one line on stderr"
is "$(ls -A "$T/run")" "" "nothing written"
run_fsbench run --phases extract,age,delete --dir "$T/run" --no-save --tree tiny
is "$RC" 2 "age among other phases: refused as well"
run_fsbench run age --dir "$T/run" --dry-run
is "$RC" 2 "--dry-run without --age-host-fs: refused, with the footprint"
like "$ERR" "writes up to 128 MiB" "--dry-run refusal: the footprint"

# 2. Consent from a job file is no consent.
printf '[global]\nphases = age\ndir = %s\nage-host-fs = 1\n' "$T/run" >"$SCRATCH/consent.ini"
run_fsbench run --no-save "$SCRATCH/consent.ini"
is "$RC" 2 "age-host-fs in a job file: refused"
like "$ERR" "^fsbench: $SCRATCH/consent.ini:4: 'age-host-fs' is not a job key: it is given on the command line only" \
    "age-host-fs in a job file: FILE:LINE, command line only"
printf '[global]\nphases = age\ndir = %s\n' "$T/run" >"$SCRATCH/noconsent.ini"
run_fsbench run --no-save "$SCRATCH/noconsent.ini"
is "$RC" 2 "a job file aging its dir: refused without --age-host-fs"
like "$ERR" "^fsbench: $SCRATCH/noconsent.ini:[0-9]+: .*phase age ages the whole file system" \
    "a job file aging its dir: FILE:LINE and the reason"
is "$(ls -A "$T/run")" "" "nothing written"

# 3. --dry-run --age-host-fs: the real footprint, and the space line counts it.
run_fsbench run age --dir "$T/run" --age-host-fs --dry-run
is "$RC" 0 "--dry-run --age-host-fs: exit 0"
like "$OUT" "  age: ages the file system holding $T/run, not one of its own \(--age-host-fs\): it writes up to 128 MiB \(4x its 32 MiB\) and fills it to 80% full" \
    "--dry-run: what age writes and how full it fills the host file system"
need=$(printf '%s\n' "$OUT" | sed -n 's/^  space: about \([0-9.]*\) MiB needed.*/\1/p')
peak=$(awk -v a="$AVAIL" -v s="$SIZE" 'BEGIN { printf "%.1f", (a - 0.2 * s) / 1048576 }')
is "$need" "$peak" "--dry-run: the space needed is age's peak, ${peak} MiB (not the tree's 10 MiB)"
run_fsbench run age --dir "$T/run" --age-host-fs --dry-run --age-written 0 --age-fullness 0
like "$OUT" "writes up to 1.6 GiB \(50x its 32 MiB: the safety limit, age-written is 0\) and fills it until it is full" \
    "--dry-run, no written or fullness limit: the safety limit and a full file system"
run_fsbench run age --dir "$T/run" --age-host-fs --dry-run --age-written 0.5
like "$OUT" "writes up to 16 MiB \(0.5x its 32 MiB\)" "--dry-run --age-written 0.5: 16 MiB"

# 4. Managed targets: an image (the host pays at most its size) and a device.
run_fsbench run age --image 1G --dry-run
like "$OUT" "  age: ages the file system made on the image: it writes up to 4.0 GiB \(4x its 1.0 GiB\) and fills it to 80% full" \
    "--dry-run --image 1G: 4 GiB written, 80% full"
like "$OUT" "space: about 1.00 GiB needed in .* \(a sparse image of 1.0 GiB\)" \
    "--dry-run --image 1G: the image grows to its size"
truncate -s 256M "$SCRATCH/dev.img"
if DEV=$(losetup --show -f "$SCRATCH/dev.img"); then
    LOOPS="$LOOPS $DEV"
    run_fsbench run age --device "$DEV" --destroy-data --dry-run
    like "$OUT" "  age: ages the file system made on $DEV: it writes up to 1.0 GiB \(4x its 256 MiB\)" \
        "--dry-run --device: what age writes, from the device's size"
    losetup -d "$DEV"
else
    skip "cannot attach a loop device" 1
fi

# 5. A real run with consent stays within what the plan said (and --age-fullness 0 is a value).
run_fsbench run age --dir "$T/run" --age-host-fs --age-written 0.5 --age-fullness 0 --no-save \
    --json "$SCRATCH/age.json"
is "$RC" 0 "age --age-host-fs --age-written 0.5 --age-fullness 0: runs"
[ "$RC" -eq 0 ] || diag "$ERR"
written=$(jq -r '.runs[0].phases[] | select(.name == "age") | .bytes_written' "$SCRATCH/age.json")
ok $(( written >= 15 * MIB && written <= 17 * MIB ? 0 : 1 )) \
    "the run wrote about the 16 MiB the plan said ($written bytes)"
is "$(ls -A "$T/run")" "" "the run directory is emptied"
nothing_left "age"
done_testing
