#!/bin/bash
# Job-file errors (issue 14): each is one line "fsbench: FILE:LINE: ..." on stderr, exit
# status 2, and nothing runs until the whole file is valid: no results store is made and
# the directory stays empty, even when the bad line comes after good jobs. The table of
# cases is printed as TAP diagnostics ("# FILE | line printed").
. "$(dirname "$0")/../lib/tap.sh"

cd "$SCRATCH" || exit 1
mkdir empty
DB="$SCRATCH/r.db"
GOOD=$'[global]\ntree = tiny\nruns = 1\nphases = extract,delete\n\n[first]\nthreads = 1\n'

# bad NAME CONTENT REGEX [FILE]: NAME.ini holds CONTENT after a good job; the error must
# match, at a line of FILE (default NAME.ini).
bad() {
    local name=$1 content=$2 re=$3 file=${4:-$1.ini}
    printf '%s%s\n' "$GOOD" "$content" >"$name.ini"
    run_fsbench run "$name.ini" --db "$DB" --dir "$SCRATCH/empty"
    is "$RC" 2 "$name: exit status 2"
    like "$ERR" "^fsbench: ${file//./\\.}:[0-9]+: $re" "$name: FILE:LINE: and the reason"
    is "$(printf '%s\n' "$ERR" | wc -l)" 1 "$name: one line on stderr"
    diag "$name.ini | $ERR"
}

bad unknown-key $'[second]\nmount-opt = sync' "unknown key 'mount-opt': did you mean mount-opts\?"
bad unknown-key-far $'[second]\nfrobnicate = 1' "unknown key 'frobnicate' \(see fsbench run --help\)"
bad bad-value $'[second]\nscale = abc' "scale: 'abc' is not a positive number"
bad bad-runs $'[second]\nruns = 0' "runs: '0' is not a whole number from 1 to 100000 or auto"
bad bad-flag $'[second]\nfsync-dir = maybe' "fsync-dir: 'maybe' is not a flag value"
bad bad-profile $'[second]\ntree = pkgsrk' "tree: unknown profile 'pkgsrk'"
bad bad-phase $'[second]\nphases = extract,wlak' "unknown phase 'wlak'"
bad bad-phase-param $'[second]\nphase.fsyncstorm.fsync-dri = 1' \
    "'phase.fsyncstorm.fsync-dri': phase fsyncstorm has no parameter 'fsync-dri' \(did you mean fsync-dir\?\)"
bad unset-var $'[second]\nthreads = ${FSBENCH_NOT_SET}' \
    "threads: \\$\{FSBENCH_NOT_SET\} is not set \(the environment, ncpus, ram\)"
bad missing-include $'[second]\ninclude = nowhere.ini' "include nowhere.ini: No such file or directory"
printf 'threads = 1\ninclude = cyc-b.inc\n' >cyc-a.inc
printf 'runs = 1\ninclude = cyc-a.inc\n' >cyc-b.inc
bad include-cycle $'[second]\ninclude = cyc-a.inc' \
    "include cycle: cyc-a.inc -> cyc-b.inc -> cyc-a.inc" cyc-b.inc
bad duplicate-job $'[first]\nruns = 2' "duplicate job name 'first' \(first at duplicate-job.ini:6\)"
bad not-ini $'[second]\nthreads 2' "expected '\[job\]' or 'key = value'"
bad bad-name $'[sec ond]' "\[sec ond\]: a job name is"
bad interleave-in-job $'[second]\ninterleave = jobs' "interleave belongs in \[global\]"
bad cross-option $'[second]\nphases = mount,extract' \
    "job second: phase mount needs a managed target"
# Every unknown key is named, each at its line (a file written for fio shows all it holds
# that fsbench does not take); fio's names that mean the same are taken.
printf '%s[second]\nbs = 4k\nrw = randwrite\nnumjobs = 4\n' "$GOOD" >fio.ini
run_fsbench run fio.ini --db "$DB" --dir "$SCRATCH/empty"
is "$RC" 2 "three unknown keys: exit status 2"
is "$ERR" "fsbench: fio.ini:9: unknown key 'bs': did you mean fs?
fsbench: fio.ini:10: unknown key 'rw' (see fsbench run --help)
fsbench: fio.ini:11: unknown key 'numjobs' (see fsbench run --help)" "every unknown key: a line each, at its line"
printf '[global]\ntree = tiny\nphases = extract,delete\ndirectory = %s\nloops = 2\nrandseed = 7\n[j]\n' \
    "$SCRATCH/empty" >fio-names.ini
run_fsbench run fio-names.ini --dry-run --no-save
is "$RC" 0 "fio's directory, loops and randseed: accepted"
like "$OUT" "configurations: 1: one, in $SCRATCH/empty" "directory = DIR is dir"
like "$OUT" "rounds: 2 \(2 runs\)" "loops = 2 is runs = 2"
like "$OUT" "tiny x1 seed 7" "randseed = 7 is seed = 7"

ok "$([ ! -e "$DB" ] && echo 0 || echo 1)" "no results store was made by any bad file"
is "$(ls -A empty)" "" "the directory is untouched by every bad file"

run_fsbench run nowhere.ini
is "$RC" 2 "a job file that does not exist: exit 2"
is "$ERR" "fsbench: nowhere.ini: no such job file, nor a shipped job (see fsbench list)" \
    "a job file that does not exist: one line"
done_testing
