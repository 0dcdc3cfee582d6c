#!/bin/bash
# Signals (issue 11): SIGINT and SIGTERM delivered during each phase of `testdisk` on an
# image (mount, extract, sync, umount, mount, delete, sync, umount), and SIGKILL followed by
# a rerun with the same --dir and --db. Each: exit status 1 and one line naming the
# interrupted phase, the earlier runs in the store (integrity_check ok), no mount, loop
# device or image left, nothing outside the run's own directories touched.
#
# The signal is delivered by strace's fault injection on entry to a system call only that
# phase makes: the first or second mount(2), syncfs(2) or umount2(2), the 20th mkdirat of
# extract, the 200th unlinkat of delete. So every phase is hit, every time.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd losetup
need_cmd mkfs.ext4
need_cmd sqlite3
need_cmd strace
. "$(dirname "$0")/../lib/target.sh"
. "$(dirname "$0")/../lib/fault.sh"

DB="$SCRATCH/results.db"
sentinel_make "$SCRATCH/outside"
ARGS=(testdisk --image 128M --fs ext4 --tree tiny --db "$DB")

run_fsbench run "${ARGS[@]}" --label before
is "$RC" 0 "a first testdisk run is saved"

# The pre-flight mounts and unmounts the one configuration first (and makes and removes a
# file in it): the run's own mount(2), umount2(2) and unlinkat(2) come after those.
PHASES=(mount extract sync umount mount delete sync umount)
INJECT=(mount:when=2 mkdirat:when=20 syncfs:when=1 umount2:when=2 mount:when=3
    unlinkat:when=201 syncfs:when=2 umount2:when=3)

for i in "${!PHASES[@]}"; do
    for sig in INT TERM; do
        name="SIG$sig in ${PHASES[$i]} ($((i + 1)) of ${#PHASES[@]})"
        call=${INJECT[$i]%%:*}
        # LeakSanitizer cannot run under ptrace: off for the traced run (SAN=1 builds)
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
            strace -f -o /dev/null -e trace="$call" \
                -e inject="$call:signal=SIG$sig:${INJECT[$i]#*:}" \
                "$FSBENCH" run "${ARGS[@]}" -j 1 --label "sig$i$sig" >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null
        RC=$?
        ERR=$(grep -v '^strace: ' "$SCRATCH/err")
        is "$RC" $((128 + $(kill -l $sig))) "$name: exit status 128 + the signal's number"
        one_line "$name" "^fsbench: run 1 of ext4:defaults, phase ${PHASES[$i]}: interrupted by SIG(INT|TERM)$"
        store_check "$DB" 1 "$name"
        nothing_left "$name"
        sentinel_check "$SCRATCH/outside" "$name"
    done
done

# A signal during the pre-flight: it stops, releases the target it made, stores nothing.
for sig in INT TERM; do
    name="SIG$sig in the pre-flight's mount"
    before=$(store_runs "$DB")
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -f -o /dev/null -e trace=mount -e inject="mount:signal=SIG$sig:when=1" \
            "$FSBENCH" run "${ARGS[@]}" -j 1 --label "preflight$sig" >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null
    RC=$?
    ERR=$(grep -v '^strace: ' "$SCRATCH/err")
    is "$RC" $((128 + $(kill -l $sig))) "$name: exit status 128 + the signal's number"
    one_line "$name" "^fsbench: pre-flight: interrupted by SIG$sig$"
    store_check "$DB" "$before" "$name"
    is "$(sqlite3 "$DB" "select count(*) from run_sets where label = 'preflight'")" 0 "$name: no set stored"
    nothing_left "$name"
done

# SIGKILL: nothing can clean up; the rerun in the same --dir and --db finds what was left,
# says so in a warning, removes it and runs; the store is intact.
RUN="$SCRATCH/rundir"
mkdir "$RUN"
"$FSBENCH" run --dir "$RUN" --db "$DB" --tree tiny --runs 200 --label killed \
    >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null &
PID=$!
before=$(store_runs "$DB")
wait_runs "$DB" $((before + 1)) 60 "$PID"
sleep 0.1
{
    kill -KILL "$PID"
    wait "$PID"
} 2>/dev/null # no shell notice of the kill in the test's output
is "$?" 137 "SIGKILL: killed"
store_check "$DB" $((before + 1)) "after SIGKILL"
ok $([ -n "$(ls -A "$RUN")" ] && echo 0 || echo 1) "SIGKILL left the run's workspace behind"
run_fsbench run --dir "$RUN" --db "$DB" --tree tiny --label killed-rerun
is "$RC" 0 "the rerun in the same --dir and --db exits 0"
like "$ERR" "warning: .* holds what an interrupted run left; removing it" "the rerun says it removes what the killed run left"
is "$(ls -A "$RUN")" "" "the rerun leaves the run directory empty"
store_check "$DB" $((before + 2)) "after the rerun"
sentinel_check "$SCRATCH/outside" "SIGKILL and rerun"

done_testing
