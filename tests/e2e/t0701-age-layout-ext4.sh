#!/bin/bash
# Issue 5, must-show 4: the layout score of a fresh ext4 image is higher than that of an aged
# one (fsbench's own images: --image, --fs ext4). Then the age scenario with --keep-fs and
# two runs: the file system is aged once, the second run's age phase is skipped ("already
# aged") and its layout, statwalk and read measure the same aged files again.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd mkfs.ext4
need_cmd losetup
need_cmd jq
losetup -f >/dev/null 2>&1 || skip_all "no free loop device"

# phase J NAME [RUN]: phase NAME of run RUN (0-based, default 0) of JSON file J.
phase() { jq -c --arg p "$2" --argjson r "${3:-0}" \
    '[.runs[$r].phases[] | select(.name == $p)][0]' "$1"; }
field() { printf '%s\n' "$1" | jq -r "$2"; }
# score_of NOTE: the layout score from a layout phase's note ("layout score 0.9871, ...").
score_of() { printf '%s\n' "$1" | sed -nE 's/^layout score ([0-9]+\.[0-9]+),.*/\1/p'; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN {exit !(a != "" && b != "" && a + 0 < b + 0)}'; }
# clean_target WHAT: nothing of fsbench's image is left mounted or attached.
clean_target() {
    local m l
    m=$(awk -v s="$SCRATCH/img" 'index($5, s) == 1' /proc/self/mountinfo)
    l=$(losetup -a | grep -F "$SCRATCH/img")
    # Leave nothing behind for the cleanup to miss.
    LOOPS="$LOOPS $(printf '%s\n' "$l" | cut -d: -f1)"
    is "$m$l" "" "$1: no mount or loop device of the image left"
}
mkdir "$SCRATCH/img"
IMG=(--image 192M --image-dir "$SCRATCH/img" --fs ext4)

# 1. Fresh: the tree written once into a new file system.
run_fsbench run "${IMG[@]}" --phases extract,sync,layout --tree tiny --scale 2 --no-save \
    --json "$SCRATCH/fresh.json"
is "$RC" 0 "fresh: exits 0"
[ "$RC" -eq 0 ] || diag "$ERR"
clean_target fresh
F=$(phase "$SCRATCH/fresh.json" layout)
is "$(field "$F" .status)" ok "fresh: layout phase ok"
is "$(field "$F" .files)" "$(jq -r '.tree.files' "$SCRATCH/fresh.json")" \
    "fresh: layout measured every file of the tree"
fresh=$(score_of "$(field "$F" .note)")
like "$fresh" '^[01]\.[0-9]{4}$' "fresh: layout note has a score ($(field "$F" .note))"

# 2. Aged: churn until 2x the fs is written or it is 85% full; layout measures what is left.
run_fsbench run age "${IMG[@]}" --tree tiny --age-written 2 --age-fullness 0.85 --no-save \
    --json "$SCRATCH/aged.json"
is "$RC" 0 "aged: exits 0"
[ "$RC" -eq 0 ] || diag "$ERR"
clean_target aged
A=$(phase "$SCRATCH/aged.json" age)
is "$(field "$A" .status)" ok "aged: age phase ok"
like "$(field "$A" .note)" '^wrote .* MiB .*; (written target reached|fullness target reached)$' \
    "aged: age reached its written or fullness target"
L=$(phase "$SCRATCH/aged.json" layout)
is "$(field "$L" .status)" ok "aged: layout phase ok"
aged=$(score_of "$(field "$L" .note)")
like "$aged" '^[01]\.[0-9]{4}$' "aged: layout note has a score ($(field "$L" .note))"
diag "fresh ext4: $(field "$F" .note)" \
    "aged ext4:  $(field "$L" .note)" \
    "aging:      $(field "$A" .note)" \
    "layout score fresh $fresh, aged $aged"
ok $(lt "$aged" "$fresh"; echo $?) "the aged file system's layout score ($aged) is lower than the fresh one's ($fresh)"
is "$(field "$(phase "$SCRATCH/aged.json" statwalk)" .files)" "$(field "$L" .files)" \
    "aged: statwalk saw the files layout measured"
is "$(field "$(phase "$SCRATCH/aged.json" read)" .status)" ok "aged: read ok"

# 3. --keep-fs --runs 2: aged once, measured twice.
run_fsbench run age "${IMG[@]}" --tree tiny --age-written 2 --age-fullness 0.85 --keep-fs \
    --runs 2 --no-save --json "$SCRATCH/keep.json"
is "$RC" 0 "keep-fs: exits 0"
[ "$RC" -eq 0 ] || diag "$ERR"
clean_target keep-fs
K=$SCRATCH/keep.json
is "$(jq '.runs | length' "$K")" 2 "keep-fs: two runs"
is "$(field "$(phase "$K" age 0)" .status)" ok "keep-fs: run 1 ages"
A2=$(phase "$K" age 1)
is "$(field "$A2" .status)" skipped "keep-fs: run 2's age phase is skipped"
like "$(field "$A2" .note)" 'already aged' "keep-fs: run 2's age note says already aged"
like "$OUT" 'age skipped in run 2: already aged' "keep-fs: the table says run 2 skipped aging"
for p in layout statwalk read; do
    is "$(field "$(phase "$K" $p 1)" .status)" ok "keep-fs: run 2's $p ran"
    is "$(field "$(phase "$K" $p 1)" .files)" "$(field "$(phase "$K" $p 0)" .files)" \
        "keep-fs: run 2's $p saw the files of run 1's"
done
n2=$(field "$(phase "$K" layout 1)" .files)
ok $([ "$n2" -gt 0 ] 2>/dev/null && echo 0 || echo 1) "keep-fs: run 2 measured aged files ($n2)"
k1=$(score_of "$(field "$(phase "$K" layout 0)" .note)")
k2=$(score_of "$(field "$(phase "$K" layout 1)" .note)")
diag "keep-fs layout score: run 1 $k1, run 2 $k2"
like "$k2" '^[01]\.[0-9]{4}$' "keep-fs: run 2's layout has a score"
is "$k2" "$k1" "keep-fs: run 2 measures the same layout as run 1"
ok $(lt "$k2" "$fresh"; echo $?) "keep-fs: run 2's layout ($k2) is still the aged one's, below fresh ($fresh)"
done_testing
