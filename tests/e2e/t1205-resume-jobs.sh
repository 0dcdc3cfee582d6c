#!/bin/bash
# Resume of a job file's set (issue 22): a job file whose jobs are interleaved in rounds (one
# set) is stopped by SIGINT (delivered by strace inside a chosen system call) and finished
# with `fsbench run --resume LABEL`: every job once a round, in the order of a set that ran
# straight through. --resume refuses what would change the plan (a job file edited since,
# --runs) and a label with no set. (Split from t1201, which resumes a matrix on loop images.)
. "$(dirname "$0")/../lib/tap.sh"
need_cmd sqlite3
need_cmd strace

DB="$SCRATCH/r.db"
runs_line() { "$FSBENCH" runs -v --db "$DB" | awk -v l="$1" '$2 == l'; }
cd "$SCRATCH" || exit 1

# ---- a job file's jobs interleaved in rounds (one set): SIGINT in the 6th job run, resume
cat >"$SCRATCH/j.ini" <<'INI'
[global]
tree = tiny
runs = 3
interleave = jobs
phases = extract,statwalk,delete
[a]
threads = 1
[b]
threads = 2
[c]
scale = 2
INI
jorder() { sqlite3 "$DB" "select r.config || ' ' || r.round from runs r join run_sets s
                          on s.id = r.set_id where s.label = '$1' order by r.idx, r.id"; }
run_fsbench run "$SCRATCH/j.ini" --db "$DB" --label jstraight
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -o /dev/null -e trace=mkdirat -e inject=mkdirat:signal=SIGINT:when=700 \
    "$FSBENCH" run "$SCRATCH/j.ini" --db "$DB" --label jsig >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null
is "$?" 130 "interleaved jobs, SIGINT: exit 130 (128 + 2)"
like "$(runs_line jsig | sed 's/.*  //')" "^[0-9] of 9 runs \(interrupted; fsbench run --resume jsig\)$" \
    "interleaved jobs: runs shows the set as interrupted"
run_fsbench run --resume jsig --db "$DB"
is "$RC" 0 "interleaved jobs: resume exits 0"
is "$(jorder jsig)" "$(jorder jstraight)" \
    "interleaved jobs: every job once a round, in the order of the uninterrupted set"

# --resume refuses what would change the plan, and a set that is not there.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -o /dev/null -e trace=mkdirat -e inject=mkdirat:signal=SIGINT:when=150 \
    "$FSBENCH" run "$SCRATCH/j.ini" --db "$DB" --label jedit >/dev/null 2>&1 </dev/null
printf 'description = edited\n' >>"$SCRATCH/j.ini"
run_fsbench run --resume jedit --db "$DB"
is "$RC" 2 "--resume after the job file changed: exit 2"
like "$ERR" "^fsbench: --resume: .*j.ini is not the job file 'jedit' ran \(sha256 [0-9a-f]+\.\.\., now [0-9a-f]+\.\.\.\): the plan changed" \
    "--resume after the job file changed: refused, saying why"
run_fsbench run --resume jedit --db "$DB" --runs 5
is "$RC" 2 "--resume with --runs: exit 2"
like "$ERR" "^fsbench: --resume: --runs cannot be given with it: a resumed set runs the plan stored with it" \
    "--resume with --runs: refused"
run_fsbench run --resume nosuch --db "$DB"
is "$RC" 2 "--resume of no such label: exit 2"
like "$ERR" "^fsbench: --resume: no run set labelled 'nosuch'" "--resume of no such label: said"
done_testing
