#!/bin/bash
# Every catchable signal that ends a process by default, sent to a run on a managed image
# target (issue 18): the run stops with one line naming the signal, exit 1, and nothing is
# left mounted, attached or on disk. Before, only SIGINT, SIGTERM and SIGHUP were handled:
# SIGQUIT (^\), SIGUSR1 or `timeout -s ALRM` killed fsbench with the image mounted, the loop
# device attached and the image file left. The fault signals (SEGV, BUS, ...) sent by
# another process are interrupts too. SIGPIPE is ignored (the run goes on), and a signal
# ignored when fsbench starts (nohup's SIGHUP) stays ignored.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd losetup
need_cmd mkfs.ext4
. "$(dirname "$0")/../lib/target.sh"

# start_run: a long set of runs on an image (each run a fresh mkfs), in the background with
# job control so that no signal starts out ignored; waits for the first run's mount (not the
# pre-flight's). Sets PID.
start_run() {
    set -m
    "$FSBENCH" run --image 128M --fs ext4 --tree tiny --phases extract,sync,delete \
        --runs 1000 --no-save -q >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null &
    PID=$!
    set +m
    for _ in $(seq 1 400); do
        run_mounted && break
        kill -0 "$PID" 2>/dev/null || break
        sleep 0.05
    done
}

# wait_end: up to 60 s for PID to end (then SIGKILL); sets RC.
wait_end() {
    for _ in $(seq 1 600); do
        kill -0 "$PID" 2>/dev/null || break
        sleep 0.1
    done
    kill -0 "$PID" 2>/dev/null && kill -KILL "$PID"
    wait "$PID" 2>/dev/null
    RC=$?
}

# signal NAME: how bash's kill names it; the name fsbench's line gives it
SIGNALS="HUP:SIGHUP INT:SIGINT QUIT:SIGQUIT TERM:SIGTERM USR1:SIGUSR1 USR2:SIGUSR2
ALRM:SIGALRM VTALRM:SIGVTALRM PROF:SIGPROF XCPU:SIGXCPU XFSZ:SIGXFSZ IO:SIGPOLL
STKFLT:SIGSTKFLT PWR:SIGPWR RTMIN:SIGRTMIN RTMIN+3:SIGRTMIN\\+3 RTMAX-2:SIGRTMAX-2 RTMAX:SIGRTMAX
ABRT:SIGABRT SEGV:SIGSEGV BUS:SIGBUS ILL:SIGILL FPE:SIGFPE SYS:SIGSYS TRAP:SIGTRAP"
for pair in $SIGNALS; do
    sig=${pair%%:*} name=${pair#*:}
    start_run
    if ! kill -0 "$PID" 2>/dev/null; then
        ok 1 "SIG$sig: the run was mounted and running before the signal"
        diag "$(cat "$SCRATCH/err")"
        continue
    fi
    kill -s "$sig" "$PID"
    wait_end
    ERR=$(cat "$SCRATCH/err")
    is "$RC" $((128 + $(kill -l "$sig"))) "SIG$sig: exit 128 + its number (not killed by it)"
    like "$ERR" "^fsbench: (run [0-9]+ of ext4:defaults(, phase [a-z]+)?: )?interrupted by $name\$" \
        "SIG$sig: one line naming it"
    is "$(printf '%s\n' "$ERR" | grep -c .)" 1 "SIG$sig: and only that line"
    nothing_left "SIG$sig"
done

# SIGPIPE: ignored, the run goes on; then SIGTERM stops it
start_run
kill -s PIPE "$PID" 2>/dev/null
sleep 0.5
ok "$(kill -0 "$PID" 2>/dev/null; echo $?)" "SIGPIPE: the run goes on"
kill -s TERM "$PID" 2>/dev/null
wait_end
is "$RC" 143 "SIGPIPE then SIGTERM: exit 143 (128 + 15)"
nothing_left "SIGPIPE then SIGTERM"

# a signal ignored when fsbench starts stays ignored: nohup's SIGHUP
nohup "$FSBENCH" run --image 128M --fs ext4 --tree tiny --phases extract,sync,delete \
    --runs 1000 --no-save -q >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null &
PID=$!
for _ in $(seq 1 300); do [ -n "$(our_mounts)" ] && break; sleep 0.05; done
kill -s HUP "$PID" 2>/dev/null
sleep 0.5
ok "$(kill -0 "$PID" 2>/dev/null; echo $?)" "nohup: SIGHUP stays ignored, the run goes on"
kill -s TERM "$PID" 2>/dev/null
wait_end
is "$RC" 143 "nohup, then SIGTERM: exit 143"
nothing_left "nohup, then SIGTERM"

done_testing
