#!/bin/bash
# The testdisk scenario (seed 000's script: mount, extract, sync, umount, mount, delete, sync,
# umount) on an ext4 image with two mount option sets: the seed-000 matrix in the text report,
# every run in the JSON with its configuration and round (interleaved by default, in order with
# --no-interleave), the loop device's I/O counters, sync slower than defaults for extract, and
# nothing left mounted, attached or on disk afterwards (issue 4).
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd jq
need_cmd losetup
need_cmd mkfs.ext4

. "$(dirname "$0")/../lib/target.sh"

# mkfs.ext4 through a wrapper first in $PATH (fsbench looks there first) that logs each call:
# how often fsbench makes a file system, and on what.
REAL_MKFS=$(command -v mkfs.ext4)
mkdir -p "$SCRATCH/bin"
printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$SCRATCH/mkfs.log" "$REAL_MKFS" \
    >"$SCRATCH/bin/mkfs.ext4"
chmod +x "$SCRATCH/bin/mkfs.ext4"
export PATH="$SCRATCH/bin:$PATH"
mkfs_calls() { # prints how many mkfs calls were logged, and empties the log
    [ -f "$SCRATCH/mkfs.log" ] && wc -l <"$SCRATCH/mkfs.log" || echo 0
    rm -f "$SCRATCH/mkfs.log"
}

J="$SCRATCH/td.json"
TD=(run testdisk --image 128M --fs ext4 --mount-opts defaults --mount-opts sync --tree tiny
    --no-save)
# --keep-fs and --no-interleave are about the order of mkfs and runs, not about sync, whose
# extract of the tiny tree takes 5-13 s here: they use noatime as the second set.
FAST=(run testdisk --image 128M --fs ext4 --mount-opts defaults --mount-opts noatime
      --tree tiny --no-save)

# ---- 1. Interleaved rounds (the default).
run_fsbench "${TD[@]}" --runs 2 --json "$J" --wide
is "$RC" 0 "testdisk, ext4 defaults and sync, 2 runs: exit 0"
[ "$RC" -eq 0 ] || diag "$ERR"

# the pre-flight attaches the image for its check and detaches it: the runs' loop device
# may have another number (another test may have taken the first meanwhile)
PRE_DEV=$(awk 'NR == 1 { print $NF }' "$SCRATCH/mkfs.log" 2>/dev/null)
RUN_DEVS=$(awk 'NR > 1 { print $NF }' "$SCRATCH/mkfs.log" 2>/dev/null | sort -u)
is "$(mkfs_calls | tr -d ' ')" 5 "the pre-flight's mkfs, then a fresh one before each of the 4 runs"
like "$PRE_DEV" '^/dev/loop[0-9]+$' "the pre-flight's mkfs ran on a loop device ($PRE_DEV)"
is "$RUN_DEVS" "$(jq -r '.target.device' "$J")" "the runs' mkfs ran only on the runs' own loop device"

# The seed-000 matrix: a "Mode:" block per configuration, a seeds-style line per phase.
NUM='[0-9]+\.[0-9]{2}'
SEEDLINE="^%s: $NUM real $NUM user $NUM sys\$"
for cfg in ext4:defaults ext4:sync; do
    block=$(printf '%s\n' "$OUT" | awk -v m="Mode: $cfg" '$0 == m { on = 1; next }
                                                        on && /^$/ { exit } on { print }')
    ok $([ -n "$block" ] && echo 0 || echo 1) "matrix: a 'Mode: $cfg' block"
    like "$block" "$(printf "$SEEDLINE" extract)" "matrix $cfg: 'extract: N real N user N sys'"
    like "$block" "$(printf "$SEEDLINE" umount)" "matrix $cfg: 'umount: N real N user N sys'"
    like "$block" "$(printf "$SEEDLINE" delete)" "matrix $cfg: 'delete: N real N user N sys'"
    is "$(printf '%s\n' "$block" | cut -d: -f1 | paste -sd,)" \
        mount,extract,sync,umount,mount,delete,sync,umount "matrix $cfg: one line per phase"
done
# The grid: configurations as rows, phases as columns, median wall seconds; at 80 columns (no
# terminal) in blocks of the phases that fit, so no row wraps.
grid=$(printf '%s\n' "$OUT" | awk '/^median wall seconds$/ { on = 1; next } on && /^configuration ext4/ { exit }
                                   on { print }')
is "$(printf '%s\n' "$grid" | awk '/^configuration / { for (i = 2; i <= NF; i++) printf "%s ", $i }')" \
    "mount extract sync umount mount delete sync umount " "grid: the phases as columns, in order, over its blocks"
is "$(printf '%s\n' "$grid" | awk 'length($0) > 80' | wc -l)" 0 "grid: no row over 80 columns"
W='^ *[0-9]+\.[0-9]{3}$'
for cfg in ext4:defaults ext4:sync; do
    is "$(printf '%s\n' "$grid" | awk -v c="$cfg" '$1 == c { for (i = 2; i <= NF; i++) print $i }' |
        grep -cE "$W")" 8 "grid: 8 median walls for $cfg"
done

# The JSON: 4 runs, 2 per configuration, both configurations in each round.
jq -e . "$J" >/dev/null
ok $? "JSON is valid"
is "$(jq '.runs | length' "$J")" 4 "JSON: 4 runs"
is "$(jq '[.runs[] | select(.config == "ext4:defaults")] | length' "$J")" 2 \
    "JSON: 2 runs of ext4:defaults"
is "$(jq '[.runs[] | select(.config == "ext4:sync")] | length' "$J")" 2 \
    "JSON: 2 runs of ext4:sync"
is "$(jq -r '[.runs[].round] | map(tostring) | join(",")' "$J")" 0,0,1,1 \
    "JSON: rounds in order, two runs each (interleaved)"
for r in 0 1; do
    is "$(jq -r --argjson r $r '[.runs[] | select(.round == $r) | .config] | sort | join(",")' \
        "$J")" ext4:defaults,ext4:sync "JSON: round $r holds both configurations"
done
is "$(jq -r '[.runs[] | [.phases[].name] | join(",")] | unique | join(" | ")' "$J")" \
    mount,extract,sync,umount,mount,delete,sync,umount "JSON: every run has testdisk's phases in order"
is "$(jq -r '[.runs[].phases[].status] | unique | join(",")' "$J")" ok \
    "JSON: every phase of every run: status ok"
is "$(jq '[.runs[].phases[] | select(.name == "extract") | .device | type] | unique' -c "$J")" \
    '["object"]' "JSON: extract has the device's counters (device is not null)"
like "$(jq -r '.target.device' "$J")" '^/dev/loop[0-9]+$' "JSON: the target device is a loop device"
# The target's mount point is fsbench's own (.../fsbench-target.XXXXXX/mnt), not the file
# system that holds $TMPDIR.
is "$(jq -r '.target.mount_point' "$J")" "$(jq -r '.target.path' "$J")" \
    "JSON: target.mount_point is the image's mount point"
FILES=$(jq '.tree.files' "$J")
is "$(jq --argjson f "$FILES" '[.runs[].phases[] | select(.name == "extract") | .files == $f] | all' \
    "$J")" true "JSON: every extract made all $FILES files"

# sync vs defaults: the loop device sees more writes, and extract takes longer.
med() { # med CONFIG EXPR: the median of EXPR over the config's extract phases
    jq -r --arg c "$1" "[.runs[] | select(.config == \$c) | .phases[] |
        select(.name == \"extract\") | $2] | sort | (.[(length - 1) / 2 | floor] +
        .[length / 2 | floor]) / 2" "$J"
}
WR_D=$(med ext4:defaults .device.writes)
WR_S=$(med ext4:sync .device.writes)
WALL_D=$(med ext4:defaults .wall_s)
WALL_S=$(med ext4:sync .wall_s)
diag "$(printf 'extract medians: defaults %.3f s, %s device writes; sync %.3f s, %s device writes' \
    "$WALL_D" "$WR_D" "$WALL_S" "$WR_S")"
ok $(awk -v s="$WR_S" -v d="$WR_D" 'BEGIN { exit !(s >= d && s > 0) }'; echo $?) \
    "extract under sync wrote at least as many I/Os to the device as under defaults ($WR_S >= $WR_D)"
ok $(awk -v s="$WALL_S" -v d="$WALL_D" 'BEGIN { exit !(s > d) }'; echo $?) \
    "extract under sync is slower than under defaults (median $(printf '%.3f s > %.3f s' "$WALL_S" "$WALL_D"))"
nothing_left "interleaved"

# ---- 2. --keep-fs: one mkfs per file system, the runs still succeed.
run_fsbench "${FAST[@]}" --runs 2 --keep-fs --json "$SCRATCH/keep.json"
is "$RC" 0 "--keep-fs --runs 2: exit 0"
[ "$RC" -eq 0 ] || diag "$ERR"
is "$(mkfs_calls | tr -d ' ')" 2 "--keep-fs: the pre-flight's mkfs, then one for the 4 runs on ext4"
is "$(jq '.runs | length' "$SCRATCH/keep.json")" 4 "--keep-fs: 4 runs"
is "$(jq -r '[.runs[].phases[].status] | unique | join(",")' "$SCRATCH/keep.json")" ok \
    "--keep-fs: every phase ok"
nothing_left "--keep-fs"

# ---- 3. --no-interleave: both rounds of the first configuration, then the second's.
run_fsbench "${FAST[@]}" --runs 2 --no-interleave --json "$SCRATCH/seq.json"
is "$RC" 0 "--no-interleave --runs 2: exit 0"
[ "$RC" -eq 0 ] || diag "$ERR"
is "$(jq -r '[.runs[] | "\(.config)/\(.round)"] | join(",")' "$SCRATCH/seq.json")" \
    ext4:defaults/0,ext4:defaults/1,ext4:noatime/0,ext4:noatime/1 \
    "--no-interleave: rounds 0 and 1 of ext4:defaults, then of ext4:noatime"
is "$(jq -r '[.runs[].phases[].status] | unique | join(",")' "$SCRATCH/seq.json")" ok \
    "--no-interleave: every phase ok"
nothing_left "--no-interleave"
done_testing
