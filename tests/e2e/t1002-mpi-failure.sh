#!/bin/bash
# Failures on several ranks: a rank failing mid-phase (a tmpfs out of inodes during copy)
# stops every rank at the phase's end with one line naming the rank, keeps the run with its
# finished phases, and exits 1; a rank killed mid-run ends the job with a clear line and
# no hang, the runs finished before it stay stored, and the next job cleans up after it.
# Managed targets and MPI options without mpirun are refused with one line.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/mpi.sh"
need_root
need_cmd jq
need_cmd sqlite3
need_mpi

# 4 trees of 1,100 entries fit in 6,000 inodes; their copies do not
mkdir -p "$SCRATCH/small"
mount -t tmpfs -o size=256m,nr_inodes=6000 fsbench-test "$SCRATCH/small" ||
    skip_all "cannot mount tmpfs"
db="$SCRATCH/r.db"
run_mpi 4 run --dir "$SCRATCH/small" --tree tiny --db "$db" --label full --json "$SCRATCH/f.json"
is "$RC" 1 "a failing rank: exit 1 (124 would be a hang)"
like "$ERR" "fsbench: run 1, phase copy: rank [0-3]: .*No space left on device" \
    "one line names the phase and the failing rank"
is "$(grep -c '^fsbench: ' "$SCRATCH/err")" 1 "only one fsbench line"
is "$(jq -r '.runs[0].phases | map(select(.name == "copy")) | .[0].status' "$SCRATCH/f.json")" \
    failed "the JSON has the failed copy"
is "$(sqlite3 "$db" "select count(*) from phases p join runs r on p.run_id = r.id join run_sets s on r.set_id = s.id where s.label = 'full' and p.status = 'ok'")" \
    6 "the store keeps the run with the six phases before copy"
is "$(ls -A "$SCRATCH/small")" "" "the directory is empty afterwards"

# a rank killed in the middle of the third run
mount_tmpfs "$SCRATCH/mnt" 1g || skip_all "cannot mount tmpfs"
(timeout 120 mpirun --allow-run-as-root --oversubscribe -np 4 "$FSBENCH_MPI" run \
    --dir "$SCRATCH/mnt" --tree pkgsrc --scale 0.1 --runs 20 --db "$db" --label killed \
    >"$SCRATCH/kout" 2>"$SCRATCH/kerr" </dev/null; echo $? >"$SCRATCH/krc") &
job=$!
runs=0
for _ in $(seq 600); do
    runs=$(sqlite3 "$db" "select count(*) from runs r join run_sets s on r.set_id = s.id where s.label = 'killed'" 2>/dev/null || echo 0)
    [ "${runs:-0}" -ge 2 ] && break
    sleep 0.1
done
victim=""
for p in $(pgrep -f "$FSBENCH_MPI run --dir $SCRATCH/mnt"); do
    tr '\0' '\n' </proc/"$p"/environ 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1' && victim=$p
done
ok $([ -n "$victim" ] && echo 0 || echo 1) "found rank 1 ($victim) after $runs runs"
[ -n "$victim" ] && kill -9 "$victim"
wait "$job"
krc=$(cat "$SCRATCH/krc")
ok $([ "$krc" != 0 ] && [ "$krc" != 124 ] && echo 0 || echo 1) "the job ends, no hang (exit $krc)"
like "$(cat "$SCRATCH/kerr")" "fsbench: rank [0-9]+: interrupted by a signal \(a rank died" \
    "the ranks left say why the job ended"
left=$(sqlite3 "$db" "select count(*) from runs r join run_sets s on r.set_id = s.id where s.label = 'killed'")
ok $([ "$left" -ge 2 ] && echo 0 || echo 1) "the finished runs stay stored ($left)"
run_mpi 4 run --dir "$SCRATCH/mnt" --phases extract,delete --no-save
is "$RC" 0 "the next job reuses the killed job's directory"
like "$ERR" "rank.0 holds what an interrupted run left" "and says it cleans it"
is "$(ls -A "$SCRATCH/mnt")" "" "the directory is empty afterwards"

touch "$SCRATCH/mnt/someone-elses"
run_mpi 2 run --dir "$SCRATCH/mnt" --no-save
is "$RC" 1 "a directory that is not empty is refused on every rank (no hang)"
like "$ERR" "is not empty" "with a clear line"
ok $([ -z "$(ls -A "$SCRATCH/mnt" | grep -v someone-elses)" ] && echo 0 || echo 1) \
    "and nothing was written into it"
rm -f "$SCRATCH/mnt/someone-elses"

run_mpi 2 run --image 1G --no-save
is "$RC" 2 "--image under MPI is refused"
like "$ERR" "refused under MPI" "with a clear line"
run_fsbench run --ranks-dir shared --no-save
is "$RC" 2 "--ranks-dir without mpirun is refused"
like "$ERR" "need several ranks: mpirun -np N" "with a clear line"
done_testing
