#!/bin/bash
# A configuration that fails mid-set, after its pre-flight passed (issue 22): ENOSPC in one
# run's extract on a loop image (strace makes the 150th mkdirat fail: the second run's).
# That configuration is left out of its later rounds and the set goes on with the others
# (exit 1 at its end); the summary, `compare` and `runs` say which configuration failed, in
# which round and phase; --fail-fast stops the set there instead, and --resume finishes it
# without the failed configuration.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd losetup
need_cmd mkfs.ext4
need_cmd sqlite3
need_cmd strace
. "$(dirname "$0")/../lib/target.sh"

DB="$SCRATCH/r.db"
M=(testdisk --image 128M --fs ext4 --mount-opts defaults --mount-opts noatime
    --mount-opts nodiratime --runs 2 --tree tiny --seed 5 --db "$DB" -j 1)
enospc() { # LABEL ARGS...: the run with the 150th mkdirat failing with ENOSPC
    local label=$1
    shift
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -f -o /dev/null -e trace=mkdirat -e inject=mkdirat:error=ENOSPC:when=150 \
        "$FSBENCH" run "${M[@]}" --label "$label" "$@" >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null
    RC=$?
    OUT=$(cat "$SCRATCH/out")
    ERR=$(grep -v '^strace: ' "$SCRATCH/err")
}
runs_of() { sqlite3 "$DB" "select count(*) from runs r join run_sets s on s.id = r.set_id
                           where s.label = '$1' and r.config = '$2'"; }
runs_line() { "$FSBENCH" runs -v --db "$DB" | awk -v l="$1" '$2 == l' | sed 's/.*  //'; }

enospc mid
is "$RC" 1 "a configuration failed mid-set: exit 1 at the end of the set"
diag "$ERR"
like "$ERR" "^fsbench: run 2 of (ext4:[a-z]+) \(round 1\), phase extract: mkdir .*No space left on device; \1 is left out of the rest of the set \(--fail-fast would stop it\)$" \
    "the failure: the run, its configuration and round, the phase, and that the set goes on"
BAD=$(printf '%s\n' "$ERR" | sed -n 's/^fsbench: run 2 of \([^ ]*\) .*/\1/p')
is "$(runs_of mid "$BAD")" 1 "the failed configuration: its one run, none after"
for c in ext4:defaults ext4:noatime ext4:nodiratime; do
    [ "$c" = "$BAD" ] && continue
    is "$(runs_of mid "$c")" 2 "$c went on: both rounds"
done
like "$OUT" "^failed: $BAD in round 1 \(run 2\), phase extract: mkdir .*No space left on device; its later rounds were not run$" \
    "the summary says which configuration failed, in which round and phase"
is "$(runs_line mid)" "5 of 6 runs (a configuration failed)" "runs: 5 of 6 runs, a configuration failed"
run_fsbench compare mid --db "$DB"
is "$RC" 0 "compare of the set: exit 0"
like "$OUT" "^failed: $BAD in round 1 \(run 2\), phase extract: .*No space left on device; its later rounds were not run" \
    "compare says which configuration failed, in which round and phase"
run_fsbench run --resume mid --db "$DB"
is "$RC" 0 "resume of a set that went to its end: exit 0"
like "$ERR" "is complete: 5 of 6 runs \(its failed configurations' later rounds were not run\); nothing to do" \
    "resume: nothing to do"
nothing_left "mid-set failure"

enospc fast --fail-fast
is "$RC" 1 "--fail-fast: exit 1"
like "$ERR" "^fsbench: run 2 of ext4:[a-z]+, phase extract: mkdir .*No space left on device$" \
    "--fail-fast: the failure, and nothing more"
is "$(sqlite3 "$DB" "select count(*) from runs r join run_sets s on s.id = r.set_id where s.label = 'fast'")" 2 \
    "--fail-fast: the set stopped at the failed run"
is "$(runs_line fast)" "2 of 6 runs (stopped at a failure; fsbench run --resume fast)" \
    "runs: stopped at a failure, and how to finish it"
FIT=$("$FSBENCH" runs --db "$DB")
like "$FIT" " 2 of 6 \(stopped at a failure\)" "runs (80 columns): how far the set got"
like "$FIT" "set [0-9]+: fsbench run --resume fast" "runs (80 columns): the command that finishes it, under the table"
ok "$(printf '%s\n' "$FIT" | awk 'length($0) > 80 { b = 1 } END { print b + 0 }')" "runs: no line over 80 columns"
nothing_left "--fail-fast"
run_fsbench run --resume fast --db "$DB"
is "$RC" 1 "resume of a set with a failed configuration: exit 1 (it failed)"
is "$(runs_of fast "$BAD")" 1 "resume: the failed configuration is not run again"
for c in ext4:defaults ext4:noatime ext4:nodiratime; do
    [ "$c" = "$BAD" ] && continue
    is "$(runs_of fast "$c")" 2 "resume: $c has both rounds"
done
nothing_left "resume after --fail-fast"
done_testing
