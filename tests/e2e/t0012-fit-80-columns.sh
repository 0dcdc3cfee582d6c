#!/bin/bash
# Output that fits (issue 32): when standard output is not a terminal, every line of
# `fsbench runs`, `fsbench list` and a run's header is at most 80 columns, with a label
# long enough to matter and a matrix of long mount options; -v/--wide gives every column
# whole (the mount options, the scenario and tree columns, each profile's source).
. "$(dirname "$0")/../lib/tap.sh"

# widest TEXT: the longest line's length
widest() { printf '%s\n' "$1" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }'; }
# header TEXT: the lines before the first blank one (a run's header)
header() { printf '%s\n' "$1" | awk '/^$/ { exit } { print }'; }

DB=$SCRATCH/r.db
L=a-label-long-enough-to-matter-in-every-table-of-fsbench-0123456
mkdir -p "$SCRATCH/d"
run_fsbench run --dir "$SCRATCH/d" --db "$DB" --runs 1 --scale 0.1 --phases extract,delete --label "$L"
is "$RC" 0 "a run with a 63-character label: exit 0"
H=$(header "$OUT")
like "$H" "^target $SCRATCH/d " "its header names the target"
ok "$([ "$(widest "$H")" -le 80 ] && echo 0 || echo 1)" "every header line <= 80 columns ($(widest "$H"))"
like "$H" "label $L" "the label whole in the header"

OPTS1=noatime,nodiratime,commit=30,errors=remount-ro
OPTS2=sync,noatime,nodiratime,commit=60,errors=remount-ro,data=journal
M=matrix-label-long-enough-to-matter-in-every-table-of-fsbench-01
if [ "$(id -u)" -eq 0 ] && command -v mkfs.ext4 >/dev/null; then
    run_fsbench run --image 256M --image-dir "$SCRATCH" --fs ext4 --mount-opts "$OPTS1" \
        --mount-opts "$OPTS2" --db "$DB" --runs 1 --scale 0.1 --phases extract,sync,delete --label "$M"
    is "$RC" 0 "a matrix of two long mount options: exit 0"
    H=$(header "$OUT")
    ok "$([ "$(widest "$H")" -le 80 ] && echo 0 || echo 1)" "matrix: every header line <= 80 columns ($(widest "$H"))"
    like "$H" "\(ext4," "matrix: the header names the file system"
    like "$H" "per configuration; device loop[0-9]+\), engine posix, 2 runs" "matrix: and says its options are per configuration"
    run_fsbench show "$M" --db "$DB" --wide
    like "$(header "$OUT")" "^target .*\(ext4, per configuration; device loop[0-9]+\), engine posix, 2 runs$" \
        "show --wide: the target on one line"
else
    skip "a matrix on a loop image needs root and mkfs.ext4" 5
fi

run_fsbench runs --db "$DB"
is "$RC" 0 "runs: exit 0"
ok "$([ "$(widest "$OUT")" -le 80 ] && echo 0 || echo 1)" "runs: every line <= 80 columns ($(widest "$OUT"))"
like "$OUT" "^ *id +label +date" "runs: the header row"
like "$OUT" "a-label-long-enough-to-matter-in-every-table-of.*\.\.\. " "runs: the long label cut, said with ..."
like "$OUT" " 1$" "runs: the runs column kept"
run_fsbench runs --db "$DB" -v
like "$OUT" "^ *id +label +date +scenario +tree +target +runs$" "runs -v: every column"
like "$OUT" " $L +[0-9-]+ [0-9:]+ +custom +tiny x0\.1 seed 1 +[a-z0-9]+ [^ ]+ \(" \
    "runs -v: the label whole, scenario, tree and the target with its mount options"
ok "$([ "$(widest "$OUT")" -gt 80 ] && echo 0 || echo 1)" "runs -v: as wide as it needs ($(widest "$OUT"))"
run_fsbench runs --db "$DB" --wide
is "$OUT" "$("$FSBENCH" runs --db "$DB" -v)" "runs --wide is runs -v"

run_fsbench list
is "$RC" 0 "list: exit 0"
ok "$([ "$(widest "$OUT")" -le 80 ] && echo 0 || echo 1)" "list: every line <= 80 columns ($(widest "$OUT"))"
like "$OUT" "^  pkgsrc +52000 files, [0-9]+ dirs, [0-9.]+ MiB, depth [0-9]+:" "list: a profile's line"
ok "$(printf '%s\n' "$OUT" | grep -q 'source: ' && echo 1 || echo 0)" "list: no source lines by default"
like "$OUT" "\(-v: where each profile's shape comes from\)" "list: says how to see them"
run_fsbench list -v
like "$OUT" "^  pkgsrc +52000 files, .*, like the NetBSD pkgsrc tarball$" "list -v: a profile on one line"
like "$OUT" "^ +source: shape of the pkgsrc tarball" "list -v: each profile's source"
ok "$([ "$(widest "$OUT")" -gt 80 ] && echo 0 || echo 1)" "list -v: as wide as it needs ($(widest "$OUT"))"
run_fsbench list --wide
is "$OUT" "$("$FSBENCH" list -v)" "list --wide is list -v"

done_testing
