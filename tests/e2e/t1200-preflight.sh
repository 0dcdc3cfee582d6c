#!/bin/bash
# The pre-flight (issue 22): before the first timed run every configuration of the set is
# tried for real on loop images (each file system made with its mkfs options, mounted with
# each mount option set, a file written, unmounted). Every configuration that cannot run is
# named at once, one line each with the reason (the kernel's own line where its log can be
# read), and nothing runs or is stored (exit 1); --skip-bad runs the others, saying which it
# left out; --dry-run --check tries them and stops. A plain --dir is checked for
# writability and space. Nothing is left mounted or attached.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd losetup
need_cmd mkfs.ext4
need_cmd mkfs.xfs
need_cmd sqlite3
. "$(dirname "$0")/../lib/target.sh"

DB="$SCRATCH/r.db"
runs_in() { [ -s "$DB" ] && sqlite3 "$DB" "select count(*) from runs" || echo 0; }
sets_in() { [ -s "$DB" ] && sqlite3 "$DB" "select count(*) from run_sets" || echo 0; }

# xfs takes no data=journal: the issue's matrix, which stopped at xfs:data=journal hours in.
MATRIX=(testdisk --image 400M --fs ext4,xfs --mount-opts defaults --mount-opts data=journal
    --tree tiny --db "$DB")
run_fsbench run "${MATRIX[@]}" --label matrix
is "$RC" 1 "a configuration that cannot run: exit 1"
diag "$ERR"
is "$ERR" "fsbench: pre-flight: xfs:data=journal: --mount-opts: 'data=journal' is refused for xfs: 'data' is not among the xfs mount options fsbench allows (see fsbench(1), MKFS AND MOUNT OPTIONS)
fsbench: pre-flight: 1 of 4 configurations cannot run (xfs:data=journal): nothing was run; --skip-bad runs the others" \
    "the refusal: the configuration and why, then that nothing ran"
is "$OUT" "" "nothing on stdout"
is "$(sets_in)" 0 "nothing stored"
nothing_left "refused matrix"

# Several at once, and the kernel's reason: an ext4 made without a journal refuses
# data=journal at mount time; xfs takes no -O (mkfs.ext4's feature option).
run_fsbench run testdisk --image 400M --fs ext4,xfs --mkfs-opts "-O ^has_journal" \
    --mount-opts defaults --mount-opts data=journal --tree tiny --db "$DB"
is "$RC" 1 "three configurations that cannot run: exit 1"
diag "$ERR"
is "$(printf '%s\n' "$ERR" | grep -c '^fsbench: pre-flight: ')" 4 "one line for each, and the verdict"
like "$ERR" "^fsbench: pre-flight: ext4:data=journal: cannot mount /dev/loop[0-9]+ \(ext4\) .*with options 'data=journal': Invalid argument; the kernel said: EXT4-fs \(loop[0-9]+\): .*journal" \
    "a mount the kernel refuses: its own line from the kernel log"
like "$ERR" "^fsbench: pre-flight: xfs:defaults: --mkfs-opts: '-O' is refused for xfs" \
    "an mkfs option one file system does not take"
like "$ERR" "^fsbench: pre-flight: xfs:data=journal: " "the fourth, named too"
like "$ERR" "^fsbench: pre-flight: 3 of 4 configurations cannot run \(ext4:data=journal, xfs:defaults, xfs:data=journal\): nothing was run" \
    "the verdict names them"
ok $(printf '%s\n' "$ERR" | grep -q 'ext4:defaults:' && echo 1 || echo 0) "the one that can run is not named"
is "$(sets_in)" 0 "nothing stored"
nothing_left "three refused"

# --dry-run --check: the plan, the same pre-flight, and a stop.
run_fsbench run "${MATRIX[@]}" --dry-run --check
is "$RC" 1 "--dry-run --check with a bad configuration: exit 1"
like "$OUT" "configurations: 4: ext4:defaults, ext4:data=journal, xfs:defaults, xfs:data=journal" \
    "--dry-run --check prints the plan"
like "$ERR" "^fsbench: pre-flight: xfs:data=journal: " "--dry-run --check: the same refusal"
run_fsbench run testdisk --image 400M --fs ext4,xfs --tree tiny --db "$DB" --dry-run --check
is "$RC" 0 "--dry-run --check of good configurations: exit 0"
like "$OUT" "pre-flight: 2 of 2 configurations can run" "it says they can run"
like "$OUT" "dry run: nothing was run or stored" "and that nothing ran"
is "$(sets_in)" 0 "--dry-run --check stores nothing"
nothing_left "dry run check"

# --skip-bad: the other three run, in rounds, and the line says which was left out.
run_fsbench run "${MATRIX[@]}" --label skipped --skip-bad
is "$RC" 0 "--skip-bad: exit 0"
diag "$ERR"
like "$ERR" "^fsbench: --skip-bad: left out xfs:data=journal \(pre-flight failed\); running the other 3 configurations" \
    "--skip-bad says which it left out"
is "$(sqlite3 "$DB" "select group_concat(config, ' ') from (select distinct config from runs order by config)")" \
    "ext4:data=journal ext4:defaults xfs:defaults" "the other three ran"
nothing_left "skip bad"

# A plain directory: not writable, too small.
mkdir -p "$SCRATCH/ro" && mount -t tmpfs -o size=16m,ro fsbench-test "$SCRATCH/ro"
run_fsbench run --dir "$SCRATCH/ro" --tree tiny --no-save
is "$RC" 1 "a read-only --dir: exit 1"
like "$ERR" "^fsbench: pre-flight: --dir .*/ro is not writable: Read-only file system$" \
    "a read-only --dir: one line"
mkdir -p "$SCRATCH/small" && mount -t tmpfs -o size=4m fsbench-test "$SCRATCH/small"
run_fsbench run --dir "$SCRATCH/small" --tree tiny --no-save
is "$RC" 1 "a --dir too small for the tree and its copy: exit 1"
like "$ERR" "^fsbench: pre-flight: needs about [0-9.]+ MiB free in .*/small \(the tree and its copy\), and 4.0 MiB are \(see --dry-run\)$" \
    "too little space: one line, as --dry-run counts it"
is "$(ls -A "$SCRATCH/small")" "" "the pre-flight leaves the directory empty"
done_testing
