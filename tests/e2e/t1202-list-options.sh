#!/bin/bash
# Options given twice (issue 22): a list option accumulates (`--fs ext4 --fs xfs` is
# `--fs ext4,xfs`; --phases, --mkfs-opts and --mount-opts alike), on the command line and as
# keys repeated in a job file; an option that takes one value, given twice with different
# values, is refused naming both (a job file's with both lines). The matrix runs on loop
# images: both file systems, every run stored.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd losetup
need_cmd mkfs.ext4
need_cmd mkfs.xfs
need_cmd sqlite3
. "$(dirname "$0")/../lib/target.sh"

DB="$SCRATCH/r.db"
configs() { printf '%s\n' "$1" | grep '^  configurations:'; }

run_fsbench run testdisk --image 400M --fs ext4,xfs --tree tiny --dry-run
ONE=$(configs "$OUT")
run_fsbench run testdisk --image 400M --fs ext4 --fs xfs --tree tiny --dry-run
is "$(configs "$OUT")" "$ONE" "--fs ext4 --fs xfs plans what --fs ext4,xfs does"
like "$ONE" "configurations: 2: ext4:defaults, xfs:defaults" "both file systems"

run_fsbench run testdisk --image 400M --fs ext4 --fs xfs --tree tiny --db "$DB" --label twice
is "$RC" 0 "--fs ext4 --fs xfs runs: exit 0"
diag "$ERR"
is "$(sqlite3 "$DB" "select group_concat(config, ' ') from (select config from runs order by config)")" \
    "ext4:defaults xfs:defaults" "a run of each file system is stored"
run_fsbench runs --db "$DB"
like "$OUT" " ext4\+xfs /dev/loop[0-9]+ \(per configuration\)" "runs: every configuration's file system (ext4+xfs), not the first's"
run_fsbench show twice --db "$DB" --wide # the header unfolded (t0012 holds the fitted one)
like "$OUT" "^target .* \(ext4\+xfs, per configuration;" "show: the header names both file systems"
nothing_left "--fs twice"

run_fsbench run --dir "$SCRATCH" --phases extract,sync --phases delete --dry-run
like "$OUT" "phases: extract,sync,delete \(3\)" "--phases twice: one list"
run_fsbench run --dir "$SCRATCH" --runs 2 --runs 2 --dry-run
is "$RC" 0 "--runs twice with one value: fine"

run_fsbench run --dir "$SCRATCH" --runs 2 --runs 3 --dry-run
is "$RC" 2 "--runs twice with two values: exit 2"
is "$ERR" "fsbench: --runs given twice, as '2' and as '3': it takes one value (list options such as --fs and --mount-opts take several)" \
    "--runs twice: refused, naming both"
run_fsbench run testdisk --image 400M --image 1G --dry-run
is "$RC" 2 "--image twice with two sizes: exit 2"
like "$ERR" "^fsbench: --image given twice, as '400M' and as '1G'" "--image twice: refused, naming both"

# A job file: a list key repeated accumulates, a one-value key repeated is refused.
printf '[global]\nimage = 400M\nfs = ext4\nfs = xfs\ntree = tiny\nphases = mount,extract\nphases = umount\n' >"$SCRATCH/l.ini"
run_fsbench run "$SCRATCH/l.ini" --dry-run
is "$RC" 0 "a job file with fs and phases repeated: exit 0"
like "$OUT" "configurations: 2: ext4:defaults, xfs:defaults" "job file: fs = ext4, fs = xfs is both"
like "$OUT" "phases: mount,extract,umount \(3\)" "job file: phases repeated is one list"
run_fsbench run "$SCRATCH/l.ini" --fs xfs --dry-run
like "$OUT" "configurations: 1: xfs:defaults" "the command line's --fs replaces every fs of the file"
printf '[global]\ntree = tiny\nruns = 2\n\n[j]\nruns = 3\nruns = 4\n' >"$SCRATCH/r.ini"
run_fsbench run "$SCRATCH/r.ini" --dry-run
is "$RC" 2 "a job key given twice with two values: exit 2"
is "$ERR" "fsbench: $SCRATCH/r.ini:7: runs = 4, but $SCRATCH/r.ini:6 gave runs = 3: a key takes one value (list keys such as fs and mount-opts take several)" \
    "a job key twice: refused at its line, naming both"

# An unknown option is named in one line before anything else is made of the command line:
# "-l NAME" (not an option of run: --label is) must not read as a job and a scenario.
run_fsbench run compilebench -l cbA --no-save
is "$RC" 2 "run JOB -l NAME: exit 2"
is "$ERR" "fsbench: run: unknown option '-l'; try 'fsbench run --help'" "run JOB -l NAME: names -l, in one line"
run_fsbench run basic --bogus --dry-run
is "$ERR" "fsbench: run: unknown option '--bogus'; try 'fsbench run --help'" "an unknown long option: named"
run_fsbench run basic --dry-run --scale
is "$RC" 2 "an option without its value: exit 2"
is "$ERR" "fsbench: run: option '--scale' needs a value; try 'fsbench run --help'" "an option without its value: named"
done_testing
