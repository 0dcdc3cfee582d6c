#!/bin/bash
# fsbench record and the replay phase on real programs: tar -xf, cp -a, rm -rf, a program
# with two threads, one that forks, and cvs rtag on a small repository. Each is recorded
# under strace, its trace checked (trace stats), and replayed with fsbench run --replay:
# no call diverges and the replay's operations per kind are the recorded ones. A replayed
# tar -xf leaves the tree tar leaves (names, types, sizes). Record says its limits.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd strace
need_cmd tar
need_cmd jq
strace -f -qq -o /dev/null true 2>/dev/null || skip_all "strace cannot trace here (ptrace refused)"

S=$SCRATCH
export LC_ALL=C
PROG=${FSBENCH_BUILD:-$(dirname "$FSBENCH")}/tests/trace_prog
# the helper as it is traced: built with the sanitizers, LeakSanitizer cannot run under a
# tracer (it ends the program with status 1); the rest of their checks can
TRACED_PROG=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$PROG")

listing() { (cd "$1" && find . -mindepth 1 -printf '%P %y %s\n' | awk '$2 == "d" { $3 = "-" } { print }' | sort); }

# record NAME DIR -- CMD...: records CMD run in DIR (the recorded directory) into $S/NAME.fsbt
record() {
    local name=$1 dir=$2
    shift 3
    (cd "$dir" && "$FSBENCH" record -o "$S/$name.fsbt" -- "$@") >"$S/$name.out" 2>"$S/$name.err"
}

# replay NAME: runs the replay phase once in a fresh directory; checks the note and that
# the replay's operations per kind are the trace's (3 assertions)
replay() {
    local name=$1
    mkdir -p "$S/run-$name"
    run_fsbench run --replay "$S/$name.fsbt" --dir "$S/run-$name" --no-save --json "$S/$name.json" -q
    is "$RC" 0 "$name: the replay runs (exit 0)"
    like "$(jq -r '.runs[0].phases[0].note' "$S/$name.json")" ' calls replayed on [0-9]+ threads? \(afap\), none diverged$' \
        "$name: the replay's note: no call diverged"
    "$FSBENCH" trace stats --json "$S/$name.fsbt" >"$S/$name.stats"
    is "$(jq -S -c '.runs[0].phases[0].ops' "$S/$name.json")" "$(jq -S -c '.ops' "$S/$name.stats")" \
        "$name: replayed operations per kind = recorded ($(jq -r '.calls' "$S/$name.stats") calls)"
}

# ---- tar -xf --------------------------------------------------------------------------
mkdir -p "$S/tar" "$S/real"
"$FSBENCH" tree make tiny "$S/src" --seed 3 >/dev/null
ln -s "$(cd "$S/src" && find . -type f | head -1)" "$S/src/a-symlink"
tar -C "$S" -cf "$S/tar/t.tar" src
record tar "$S/tar" -- tar -xf t.tar
is "$?" 0 "record -- tar -xf exits 0"
ERR=$(cat "$S/tar.err")
like "$ERR" '^fsbench: record: [0-9,]+ calls of 1 thread in [0-9.]+ s below .*/tar written to ' "record says what it wrote"
like "$ERR" 'record: left out: [0-9,]+ calls outside .*/tar, [0-9,]+ on descriptors opened before the start' \
    "record says what it left out"
like "$ERR" 'record: limits: of I/O through memory maps only the maps are seen \(0 maps; a replay faults in each mapped range once\); calls on descriptors opened before the start are left out' \
    "record states its limits"
like "$ERR" 'initial state: 1 entry' "the initial state holds the archive (it existed before tar)"
run_fsbench trace stats "$S/tar.fsbt"
is "$RC" 0 "trace stats exits 0"
like "$OUT" '^command: tar -xf t\.tar$' "trace stats names the command"
like "$OUT" '^initial state: 1 entry \(1 file, 0 directories, 0 symlinks\)' "trace stats: the initial state is the archive"
replay tar
# the tree a replayed tar -xf leaves
run_fsbench trace replay "$S/tar.fsbt" "$S/rtar"
is "$RC" 0 "trace replay FILE DIR exits 0"
(cd "$S/real" && cp "$S/tar/t.tar" . && tar -xf t.tar)
is "$(listing "$S/rtar/tree" | md5sum)" "$(listing "$S/real" | md5sum)" \
    "a replayed tar -xf leaves the names, types and sizes tar leaves ($(listing "$S/real" | wc -l) entries)"

# ---- cp -a and rm -rf -----------------------------------------------------------------
mkdir -p "$S/cp"
cp -a "$S/src" "$S/cp/src"
record cp "$S/cp" -- cp -a src dst
is "$?" 0 "record -- cp -a exits 0"
replay cp
run_fsbench trace replay "$S/cp.fsbt" "$S/rcp"
is "$(listing "$S/rcp/tree/dst")" "$(listing "$S/cp/dst")" "a replayed cp -a makes the copy cp made"
record rm "$S/cp" -- rm -rf dst
is "$?" 0 "record -- rm -rf exits 0"
replay rm
like "$(jq -r '.ops.unlink' "$S/rm.stats")" '^[1-9][0-9]+$' "rm -rf: the trace unlinks files"

# ---- two threads, and a forking program -----------------------------------------------
mkdir -p "$S/thr" "$S/frk"
record threads "$S/thr" -- "${TRACED_PROG[@]}" threads 50
is "$?" 0 "record a program with two threads exits 0"
like "$(cat "$S/threads.err")" 'record: [0-9,]+ calls of 5 threads' \
    "the recording saw the main thread, 2 writers and 2 readers"
is "$("$FSBENCH" trace stats --json "$S/threads.fsbt" | jq -r '.threads_at_once')" 3 \
    "trace stats: 3 threads at once"
replay threads
like "$(jq -r '.runs[0].phases[0].note' "$S/threads.json")" 'on 3 threads' "the replay ran them on 3 threads"
record fork "$S/frk" -- "${TRACED_PROG[@]}" fork 5
is "$?" 0 "record a forking program exits 0"
like "$("$FSBENCH" trace stats "$S/fork.fsbt")" 'processes and threads: 5 started, 6 ended; descriptors: 5 inherited, 5 closed by exit or exec' \
    "each child's copy of the log is inherited and dropped at its exit"
replay fork
run_fsbench trace replay "$S/fork.fsbt" "$S/rfork"
is "$(stat -c %s "$S/rfork/tree/f/log")" "$(stat -c %s "$S/frk/f/log")" "the replayed log has the size the program's has"
# two processes joined by a pipe, alive at once, opening the same descriptor numbers: each
# keeps its own order, the reader's open of p/I follows the writer's p/I only
mkdir -p "$S/pip"
record pipe "$S/pip" -- "${TRACED_PROG[@]}" pipe 200
is "$?" 0 "record a two-process pipe program exits 0"
is "$("$FSBENCH" trace stats --json "$S/pipe.fsbt" | jq -r '.threads_at_once')" 2 \
    "trace stats: 2 processes at once"
# what joined them (format 3): the parent's 200 writes of 4 bytes into the pipe, the
# child's 200 reads of them, on one channel, and the parent's wait for the child
"$FSBENCH" trace stats --json "$S/pipe.fsbt" >"$S/pipe.st"
is "$(jq -c '.between_processes' "$S/pipe.st")" \
    '{"channel_bytes":800,"channel_reads":200,"channel_writes":200,"waits":1}' \
    "trace stats: 200 writes and 200 reads of 4 bytes through the pipe, 1 wait"
"$FSBENCH" trace dump "$S/pipe.fsbt" >"$S/pipe.dump"
is "$(awk '$4 == "chan" { print $2, $6, $7 }' "$S/pipe.dump" | sort | uniq -c | awk '{ $1 = $1; print }' | sed 's/off=[0-9]*/off=N/' | tr '\n' ';')" \
    '200 t0 off=N flags=0x1;200 t1 off=N flags=0x0;' \
    "the dump: the parent writes, the child reads"
is "$(awk '$4 == "chan" { print $6 }' "$S/pipe.dump" | sort -u | wc -l)" 1 "one channel: the pipe's inode"
is "$(awk '$4 == "wait" { print $2, $5 }' "$S/pipe.dump")" "t0 child=t1" "the dump: the parent's wait for the child"
run_fsbench trace stats "$S/pipe.fsbt"
like "$OUT" 'how the processes ordered one another: 200 writes and 200 reads of pipes and socket pairs \(800 bytes\) and 1 waits for a child recorded' \
    "trace stats says how the processes ordered one another"
replay pipe
like "$(jq -r '.runs[0].phases[0].note' "$S/pipe.json")" 'on 2 threads' "the replay ran them on 2 threads"
run_fsbench trace replay "$S/pipe.fsbt" "$S/rpipe"
is "$(listing "$S/rpipe/tree")" "$(listing "$S/pip")" "the replayed tree is the program's (p/ and q/, 200 files each)"
# I/O through memory maps: a program that reads a 1 MiB file and one that writes a 512 KiB
# file through a map alone (no read or write call): the trace holds each map, and a replay
# reads (writes) the mapped bytes
mkdir -p "$S/mapr/m" "$S/mapw/m"
head -c 1048576 /dev/zero | tr '\0' 'r' >"$S/mapr/m/r"
record mapread "$S/mapr" -- "${TRACED_PROG[@]}" mapread 1024
is "$?" 0 "record a program reading through a map exits 0"
like "$(cat "$S/mapread.err")" 'only the maps are seen \(1 map; ' "record counts its one map"
"$FSBENCH" trace dump "$S/mapread.fsbt" >"$S/mapread.dump"
like "$(cat "$S/mapread.dump")" 'mmap slot=0 size=1048576 off=0 flags=0x5 = 0' \
    "the trace holds the map: its size, offset, read-only and shared"
replay mapread
is "$(jq -r '.runs[0].phases[0].bytes_read' "$S/mapread.json")" 1048576 "the replay reads the mapped 1 MiB"
record mapwrite "$S/mapw" -- "${TRACED_PROG[@]}" mapwrite 512
is "$?" 0 "record a program writing through a map exits 0"
"$FSBENCH" trace dump "$S/mapwrite.fsbt" >"$S/mapwrite.dump"
like "$(cat "$S/mapwrite.dump")" 'mmap slot=0 size=524288 off=0 flags=0x7 = 0' \
    "the trace holds the map: read, write and shared"
replay mapwrite
is "$(jq -r '.runs[0].phases[0].bytes_written' "$S/mapwrite.json")" 524288 \
    "the replay writes the mapped 512 KiB back (the file's size after its ftruncate)"
run_fsbench trace stats "$S/mapwrite.fsbt"
like "$OUT" '  I/O through memory maps: 1 maps of files below the directory recorded' "trace stats counts the map"
# think time of a program whose answer is known: 25 x about 20 ms of CPU time in user mode
# between its calls, which the program measures itself and prints at its end; the trace's
# think time must be that within 10 % (the calls' own user time is in the program's too)
mkdir -p "$S/thk"
record think "$S/thk" -- "${TRACED_PROG[@]}" think 25
is "$?" 0 "record a program that thinks 25 x 20 ms exits 0"
ms=$(("$("$FSBENCH" trace stats --json "$S/think.fsbt" | jq -r '.think.total_ns')" / 1000000))
own=$(cat "$S/think.out")
ok "$([ "$own" -ge 200 ] && [ $((ms * 10)) -ge $((own * 9)) ] && [ $((ms * 10)) -le $((own * 11)) ]; echo $?)" \
    "its think time is the program's: $ms ms for the $own ms it measured itself"
# a replay with original timing spends those think times as CPU time of its own, also on a
# busy processor: pinned to one processor beside a busy loop, it still works them (a wait
# on the wall clock would end after them with about half that CPU time spent)
if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then
    taskset -c 0 sh -c 'while :; do :; done' &
    HOG=$!
    mkdir -p "$S/run-thk"
    taskset -c 0 "$FSBENCH" run --replay "$S/think.fsbt" --replay-timing original --dir "$S/run-thk" \
        --no-save -q --json "$S/thk.json" >/dev/null 2>&1
    kill "$HOG"
    wait "$HOG" 2>/dev/null
    cpu=$(jq '.runs[0].phases[0] | (.user_s + .sys_s) * 1000 | floor' "$S/thk.json" 2>/dev/null)
    ok "$([ "${cpu:-0}" -ge $((ms * 85 / 100)) ]; echo $?)" \
        "beside a busy loop, the replay worked its think times: $cpu ms of CPU for $ms ms"
else
    skip "taskset cannot pin to processor 0 here" 1
fi

# a parent's wait for its children is not think time: a child thinks 25 x about 20 ms while
# its parent waits (wait4); the program prints its own CPU time and its child's (getrusage).
# The child's think time must be its CPU time, the parent's hardly any (the old model gave
# the parent the gap it waited in, a share of the whole)
mkdir -p "$S/ct"
record childthink "$S/ct" -- "${TRACED_PROG[@]}" childthink 25
is "$?" 0 "record a parent waiting for a thinking child exits 0"
read -r pms cms <"$S/childthink.out"
"$FSBENCH" trace stats --json "$S/childthink.fsbt" >"$S/childthink.stats"
t0=$(($(jq '.think.by_thread_ns[0]' "$S/childthink.stats") / 1000000))
t1=$(($(jq '.think.by_thread_ns[1]' "$S/childthink.stats") / 1000000))
ok "$([ "${cms:-0}" -ge 100 ] && [ $((t1 * 100)) -ge $((cms * 85)) ] && [ $((t1 * 100)) -le $((cms * 115)) ]; echo $?)" \
    "the child's think time is its CPU time: $t1 ms for the $cms ms it used"
ok "$([ $((t0 * 10)) -le $((pms * 10 + cms)) ]; echo $?)" \
    "the waiting parent's is hardly any: $t0 ms (its own CPU time $pms ms)"
like "$("$FSBENCH" trace stats "$S/childthink.fsbt")" 'waits between calls \(for a child, a pipe or socket, select or poll, a sleep\): [0-9.]+ s in [1-9][0-9]* gaps, not think time' \
    "trace stats says what the threads waited"
# two children think at once: each its own CPU time, and a replay with original timing
# works them at once on two threads: its CPU time is the program's, not twice it
mkdir -p "$S/tt"
record twothink "$S/tt" -- "${TRACED_PROG[@]}" twothink 25
is "$?" 0 "record a parent waiting for two thinking children exits 0"
read -r pms cms <"$S/twothink.out"
"$FSBENCH" trace stats --json "$S/twothink.fsbt" >"$S/twothink.stats"
t0=$(($(jq '.think.by_thread_ns[0]' "$S/twothink.stats") / 1000000))
t12=$(($(jq '.think.by_thread_ns[1] + .think.by_thread_ns[2]' "$S/twothink.stats") / 1000000))
ok "$([ "${cms:-0}" -ge 200 ] && [ $((t12 * 100)) -ge $((cms * 85)) ] && [ $((t12 * 100)) -le $((cms * 115)) ]; echo $?)" \
    "the children's think times are their CPU time: $t12 ms for the $cms ms they used"
ok "$([ $((t0 * 10)) -le $((pms * 10 + cms)) ]; echo $?)" \
    "the waiting parent's is hardly any: $t0 ms (its own CPU time $pms ms)"
mkdir -p "$S/run-tt"
"$FSBENCH" run --replay "$S/twothink.fsbt" --replay-timing original --dir "$S/run-tt" \
    --no-save -q --json "$S/tt.json" >/dev/null 2>&1
cpu=$(jq '.runs[0].phases[0] | (.user_s + .sys_s) * 1000 | floor' "$S/tt.json" 2>/dev/null)
wall=$(jq '.runs[0].phases[0].wall_s * 1000 | floor' "$S/tt.json" 2>/dev/null)
all=$((pms + cms))
ok "$([ "${cpu:-0}" -ge $((all * 75 / 100)) ] && [ "${cpu:-0}" -le $((all * 140 / 100)) ]; echo $?)" \
    "the replay worked the program's CPU time, not twice it: $cpu ms for $all ms ($wall ms on the wall clock)"
like "$(jq -r '.runs[0].phases[0].note' "$S/tt.json")" ' calls replayed on 3 threads \(original\)' \
    "the children's think times are worked on threads of their own"

# ---- cvs rtag -------------------------------------------------------------------------
if command -v cvs >/dev/null 2>&1; then
    mkdir -p "$S/cvs/imp"
    export CVSROOT="$S/cvs/repo"
    cvs -Q init
    for i in $(seq 1 20); do printf 'line %s\n' $(seq 1 $i) >"$S/cvs/imp/f$i.c"; done
    (cd "$S/cvs/imp" && cvs -Q import -m init mod vendor start)
    rm -rf "$S/cvs/imp"
    record cvs "$S/cvs" -- cvs -Q -d "$S/cvs/repo" rtag T1 mod
    is "$?" 0 "record -- cvs rtag exits 0"
    replay cvs
    is "$(jq -r '.ops.rename' "$S/cvs.stats")" 20 "cvs rtag: one rename per ,v file"
    is "$(jq -r '.ops.fsync' "$S/cvs.stats")" 20 "cvs rtag: one fsync per ,v file"
else
    skip "cvs is not installed (Debian package cvs)" 8
fi

# ---- a failing command is recorded and said so ----------------------------------------
mkdir -p "$S/fail"
record fail "$S/fail" -- sh -c 'mkdir d; exit 3'
is "$?" 1 "record of a command exiting 3 exits 1"
like "$(tail -n 1 "$S/fail.err")" '^fsbench: record: sh exited with status 3; the trace of what it did is in ' \
    "one line says the status and where the trace is"
run_fsbench trace stats "$S/fail.fsbt"
like "$OUT" '  mkdir +1$' "its trace holds the mkdir"
run_fsbench record -o "$S/x.fsbt" -- /nonexistent/program
is "$RC" 2 "record of a program that cannot run: usage error (exit 2), before anything is traced"
like "$ERR" '^fsbench: record: /nonexistent/program cannot be run: No such file or directory$' \
    "one line says why"
ok "$([ ! -e "$S/x.fsbt" ]; echo $?)" "and no trace of nothing is written"
done_testing
