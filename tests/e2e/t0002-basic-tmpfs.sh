#!/bin/bash
# The basic scenario on a small real tmpfs mount: counts agree, the target is described as
# tmpfs with no block device, and the mount is left empty.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd jq

mount_tmpfs "$SCRATCH/mnt" 256m || skip_all "cannot mount tmpfs"
run_fsbench run --dir "$SCRATCH/mnt" --tree tiny --scale 2 --json "$SCRATCH/r.json" --no-save
is "$RC" 0 "basic on tmpfs exits 0"
jq -e . "$SCRATCH/r.json" >/dev/null
ok $? "JSON is valid"
is "$(jq -r '.target.fstype' "$SCRATCH/r.json")" tmpfs "target file system is tmpfs"
is "$(jq -r '.runs[0].phases[0].device' "$SCRATCH/r.json")" null "no block device: device is null"
like "$OUT" 'device n/a' "table says device n/a"
files=$(jq -r '.tree.files' "$SCRATCH/r.json")
for p in extract walk statwalk read copy; do
    is "$(jq -r --arg p $p '.runs[0].phases[] | select(.name == $p) | .files' "$SCRATCH/r.json")" \
        "$files" "$p handled all $files files"
done
is "$(jq -r '.runs[0].phases[] | select(.name == "dropcaches") | .status' "$SCRATCH/r.json")" \
    ok "dropcaches ran as root"
is "$(jq -r '.runs[0].phases[] | select(.name == "extract") | .ops.create' "$SCRATCH/r.json")" \
    "$files" "extract counted one create per file"
n=$(jq -r '.runs[0].phases[] | select(.name == "extract") | .timeline | length' "$SCRATCH/r.json")
ok $([ "$n" -ge 2 ] && echo 0 || echo 1) "extract has a time line ($n points)"
is "$(ls -A "$SCRATCH/mnt")" "" "tmpfs is empty afterwards"
done_testing
