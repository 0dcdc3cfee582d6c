#!/bin/bash
# SIGINT during extract on an --image target: fsbench exits non-zero and leaves no mount, no
# loop device and no image or directory behind (issue 4, "Safety and cleanup").
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd losetup
need_cmd mkfs.ext4

. "$(dirname "$0")/../lib/target.sh"

# Job control on while starting it: otherwise bash starts a background command with SIGINT
# ignored, and fsbench would inherit that.
set -m
"$FSBENCH" run --image 128M --fs ext4 --tree pkgsrc --phases extract --no-save \
    >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null &
PID=$!
set +m

# Wait up to 20 s for the run's mount to appear: one with the run's directory in it (the
# pre-flight's mount of the same image, before the run, holds none).
for _ in $(seq 1 400); do
    run_mounted && break
    kill -0 "$PID" 2>/dev/null || break
    sleep 0.05
done
ok $(run_mounted && echo 0 || echo 1) "the run's image is mounted under \$TMPDIR within 20 s"
sleep 0.3 # into extract
ALIVE=1
kill -0 "$PID" 2>/dev/null || { ALIVE=0; diag "fsbench ended before SIGINT:" "$(cat "$SCRATCH/err")"; }
ok $((!ALIVE)) "fsbench is still running when SIGINT is sent"
kill -INT "$PID" 2>/dev/null

# Give the cleanup up to 60 s, then kill it (the test fails in that case).
for _ in $(seq 1 600); do
    kill -0 "$PID" 2>/dev/null || break
    sleep 0.1
done
if kill -0 "$PID" 2>/dev/null; then
    ok 1 "fsbench ends within 60 s of SIGINT"
    kill -KILL "$PID"
else
    ok 0 "fsbench ends within 60 s of SIGINT"
fi
wait "$PID"
RC=$?
is "$RC" 130 "a run interrupted by SIGINT exits 130 (128 + 2)"
diag "$(tail -n 3 "$SCRATCH/err")"

is "$(our_mounts)" "" "no mount of an fsbench-target directory remains"
is "$(our_loops)" "" "no loop device backed by an fsbench-target image remains"
is "$(cd "$TMPDIR" && ls -d fsbench-target.* 2>/dev/null)" "" "no fsbench-target directory left"
done_testing
