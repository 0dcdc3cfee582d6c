#!/bin/bash
# A trace is someone else's data: a missing file, a directory, a device, a FIFO, a text
# file, a cut or damaged trace and one of a newer format are each refused with one line
# naming the file and a non-zero exit; the options that go with a replay are checked; and
# a replay raced by an attacker swapping its directories for symlinks to a decoy never
# touches the decoy (nothing followed, nothing read, written or removed there).
. "$(dirname "$0")/../lib/tap.sh"
need_cmd jq
S=$SCRATCH
RACE=${FSBENCH_BUILD:-$(dirname "$FSBENCH")}/tests/race_swap

# one_line: exactly one line on stderr, starting "fsbench: "
one_line() {
    is "$(printf '%s\n' "$ERR" | grep -c .)" 1 "$1: one line on stderr"
    like "$ERR" '^fsbench: ' "$1: it says fsbench"
}

# A good trace to damage: a few files made and read, recorded when strace can, else
# skipped for the parts that need one.
mkdir -p "$S/rec"
GOOD=""
if command -v strace >/dev/null 2>&1 && strace -f -qq -o /dev/null true 2>/dev/null; then
    (cd "$S/rec" && "$FSBENCH" record -o "$S/good.fsbt" -- sh -c 'mkdir d; for i in 1 2 3; do echo $i >d/$i; done; cat d/* >/dev/null') \
        >/dev/null 2>&1 && GOOD=$S/good.fsbt
fi

run_fsbench run --replay "$S/none.fsbt" --no-save -q
is "$RC" 1 "a missing trace: exit 1"
like "$ERR" 'none\.fsbt: No such file or directory$' "a missing trace: named, with the reason"
one_line "missing"
run_fsbench run --replay "$S" --no-save -q
is "$RC" 1 "a directory as the trace: exit 1"
like "$ERR" 'not a regular file \(a directory\)' "a directory: said so"
run_fsbench trace stats /dev/zero
is "$RC" 1 "/dev/zero as a trace: exit 1"
like "$ERR" 'not a regular file' "/dev/zero: not a regular file (never read)"
mkfifo "$S/fifo"
run_fsbench trace stats "$S/fifo"
is "$RC" 1 "a FIFO as a trace: exit 1 (and no hang)"
printf 'this is a text file and no trace at all, but long enough to have an end\n' >"$S/text"
run_fsbench run --replay "$S/text" --no-save -q
is "$RC" 1 "a text file as the trace: exit 1"
like "$ERR" 'text: not an fsbench trace \(see fsbench record\)$' "a text file: not an fsbench trace"
one_line "text"

if [ -n "$GOOD" ]; then
    size=$(stat -c %s "$GOOD")
    head -c $((size - 20)) "$GOOD" >"$S/cut.fsbt"
    run_fsbench trace stats "$S/cut.fsbt"
    is "$RC" 1 "a cut trace: exit 1"
    like "$ERR" 'cut\.fsbt: its end is missing' "a cut trace: its end is missing"
    one_line "cut"
    cp "$GOOD" "$S/newer.fsbt"
    printf '\x07' | dd of="$S/newer.fsbt" bs=1 seek=8 conv=notrunc status=none
    run_fsbench run --replay "$S/newer.fsbt" --no-save -q
    is "$RC" 1 "a newer format: exit 1"
    like "$ERR" 'trace format 7, where this fsbench reads format 6 \(made by a newer fsbench\?\)' \
        "a newer format: said so"
    # bytes flipped in the compressed sections: refused (or still whole), never a crash
    bad=0 crashed=0
    for off in 30 60 90 120 150; do
        [ "$off" -lt $((size - 60)) ] || continue
        cp "$GOOD" "$S/flip.fsbt"
        printf '\xff' | dd of="$S/flip.fsbt" bs=1 seek=$off conv=notrunc status=none
        "$FSBENCH" trace stats "$S/flip.fsbt" >/dev/null 2>"$S/flip.err"
        rc=$?
        [ "$rc" -gt 1 ] && crashed=$((crashed + 1))
        [ "$rc" -eq 1 ] && [ "$(grep -c . "$S/flip.err")" -eq 1 ] && bad=$((bad + 1))
    done
    is "$crashed" 0 "flipped bytes: no crash, no exit status beyond 1"
    ok $([ "$bad" -gt 0 ] && echo 0 || echo 1) "flipped bytes: refused with one line ($bad of 5)"
else
    skip "strace cannot record here" 11
fi

# ---- the options of a replay -----------------------------------------------------------
run_fsbench run --phases replay --no-save -q
is "$RC" 2 "phase replay without --replay: usage error"
like "$ERR" '^fsbench: phase replay needs a trace: --replay FILE' "it says what is missing"
if [ -n "$GOOD" ]; then
    run_fsbench run --replay "$GOOD" --phases extract,sync --no-save -q
    is "$RC" 2 "--replay with phases holding no replay: usage error"
    like "$ERR" 'the phases \(extract,sync\) hold no replay' "it names the phases"
else
    skip "strace cannot record here" 2
fi
run_fsbench run --replay x --replay-timing sometimes --no-save -q
is "$RC" 2 "--replay-timing sometimes: usage error"
like "$ERR" "^fsbench: --replay-timing: 'sometimes' is neither afap nor original$" "it says what would do"
run_fsbench run --replay x --replay-threads 0 --no-save -q
is "$RC" 2 "--replay-threads 0: usage error"
run_fsbench record -o "$S/x.fsbt"
is "$RC" 2 "record without a command: usage error"
like "$ERR" 'record: no command to record' "it says so"
run_fsbench record -- true
is "$RC" 2 "record without -o: usage error"
run_fsbench record -o "$S/none.fsbt" -- /nonexistent/prog
is "$RC" 2 "record of a program that does not exist: usage error"
like "$ERR" "^fsbench: record: /nonexistent/prog cannot be run: No such file or directory$" "it says so in one line"
ok "$([ ! -e "$S/none.fsbt" ]; echo $?)" "and writes no trace"
run_fsbench record --untraced-run -o "$S/none.fsbt" -- no-such-command-anywhere
is "$RC" 2 "record of a name not in \$PATH: usage error"
like "$ERR" '^fsbench: record: no-such-command-anywhere cannot be run: not found in \$PATH$' "it says so in one line"

# ---- a crafted trace: a gap of 11.6 days, setuid modes -----------------------------------
umask 022
CRAFT=${FSBENCH_BUILD:-$(dirname "$FSBENCH")}/tests/trace_craft
if [ -x "$CRAFT" ]; then
    "$CRAFT" gap "$S/gap.fsbt" 1000000000000000
    run_fsbench trace stats "$S/gap.fsbt"
    like "$OUT" "longest gap between a thread's calls: 1000000\.000 s \(before record 2\); a replay with original timing cuts any think time to 60 s" \
        "trace stats: the longest gap, and that a replay cuts it"
    like "$OUT" "  I/O through memory maps: 0 maps of files below the directory recorded, not the pages the program touched; a replay faults in each mapped range once and writes it back once where the map was shared and writable" \
        "trace stats: says what it could not see"
    like "$OUT" "  0 calls on descriptors opened before the start, 0 outside the directory: left out, not replayed" \
        "trace stats: and what was left out, and how"
    is "$("$FSBENCH" trace stats --json "$S/gap.fsbt" | jq .longest_gap_ns)" 1000000000000000 \
        "trace stats --json: longest_gap_ns"
    # the replay spins in that think time: SIGTERM must end it at once, with the usual
    # interrupt (exit 1, one line) and nothing left in the directory
    mkdir -p "$S/gapdir"
    t0=$(date +%s%N)
    timeout --preserve-status -k 20 -s TERM 3 "$FSBENCH" run --replay "$S/gap.fsbt" \
        --replay-timing original --dir "$S/gapdir" --no-save -q >/dev/null 2>"$S/gap.err"
    rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    is "$rc" 143 "a 10^15 ns think time, SIGTERM after 3 s: exit 143, 128 + 15 (not killed: $ms ms)"
    ok "$([ "$ms" -lt 4500 ]; echo $?)" "it ended within 1.5 s of the signal ($ms ms)"
    like "$(cat "$S/gap.err")" "^fsbench: run 1, phase replay: interrupted by SIGTERM$" \
        "one line naming the signal"
    is "$(ls -A "$S/gapdir")" "" "nothing left in the directory"
    # setuid and setgid: dropped from the initial state and every call's mode, and said
    "$CRAFT" setid "$S/setid.fsbt"
    run_fsbench trace replay "$S/setid.fsbt" "$S/sid"
    is "$RC" 0 "a trace with mode 06777: replayed"
    like "$OUT" "setuid/setgid dropped from the modes of 3 calls; setuid/setgid dropped from 1 file of the initial state" \
        "the replay says it dropped them"
    is "$(find "$S/sid/tree" -perm /6000 | wc -l)" 0 "no setuid or setgid file made"
    is "$(stat -c %a "$S/sid/tree/s" "$S/sid/tree/n" | tr '\n' ' ')" "755 755 " \
        "the other bits kept (chmod 04755 -> 755, open 06777 -> 755 under umask 022)"
    run_fsbench trace replay --keep-setid "$S/setid.fsbt" "$S/sid2"
    is "$(stat -c %a "$S/sid2/tree/s" "$S/sid2/tree/n" | tr '\n' ' ')" "4755 6755 " \
        "--keep-setid keeps them when asked"
    mkdir -p "$S/sidrun"
    run_fsbench run --replay "$S/setid.fsbt" --dir "$S/sidrun" --no-save
    like "$OUT$ERR" "setuid/setgid dropped" "run --replay says so too"
    # thousands of tiny think times (20,000 stats 3 us apart: 40 ms of think time in all)
    # cost a replay with original timing about that much CPU time more than afap, not a
    # spin of some 40 us each (which made it 0.5 s more)
    "$CRAFT" tiny "$S/tiny.fsbt" 20000 3000
    for t in afap original; do
        mkdir -p "$S/tiny-$t"
        "$FSBENCH" run --replay "$S/tiny.fsbt" --replay-timing "$t" --dir "$S/tiny-$t" \
            --no-save -q --json "$S/tiny-$t.json" >/dev/null 2>&1
    done
    afap=$(jq '.runs[0].phases[0] | (.user_s + .sys_s) * 1000 | floor' "$S/tiny-afap.json")
    orig=$(jq '.runs[0].phases[0] | (.user_s + .sys_s) * 1000 | floor' "$S/tiny-original.json")
    ok "$([ "${orig:-0}" -ge "${afap:-1000}" ] && [ $((orig - afap)) -le 200 ]; echo $?)" \
        "20,000 think times of 2 us: the replay's CPU $orig ms with original timing, $afap ms afap (40 ms of think time)"
    # a trace of format 1 (before mmap records) still reads and replays
    "$CRAFT" v1 "$S/v1.fsbt"
    is "$(od -An -tu4 -j8 -N4 "$S/v1.fsbt" | tr -d ' ')" 1 "the crafted trace's header says format 1"
    run_fsbench trace stats "$S/v1.fsbt"
    like "$OUT" "\(format 1\)" "trace stats reads a format 1 trace and names its format"
    like "$OUT" "I/O through memory maps: not recorded \(format 1; its amount unknown\)" \
        "and says its maps were not recorded"
    run_fsbench trace replay "$S/v1.fsbt" "$S/v1r"
    is "$RC" 0 "a format 1 trace replays"
    is "$(ls "$S/v1r/tree" | tr '\n' ' ')" "a b " "its two directories made"
    # a trace of format 2 (before away records): its waits are think time, as they were
    "$CRAFT" v2 "$S/v2.fsbt"
    run_fsbench trace stats "$S/v2.fsbt"
    like "$OUT" "\(format 2\)" "trace stats reads a format 2 trace and names its format"
    like "$OUT" "waits between calls \(for a child, a pipe, select or poll, a sleep\): not recorded \(format 2\)" \
        "and says its waits were not recorded"
    run_fsbench trace replay "$S/v2.fsbt" "$S/v2r" --timing original
    is "$RC" 0 "a format 2 trace replays with original timing"
    # a trace of format 4 (before the think time per process): one scale for all threads
    "$CRAFT" v4 "$S/v4.fsbt"
    run_fsbench trace stats "$S/v4.fsbt"
    like "$OUT" "\(format 4\)" "trace stats reads a format 4 trace and names its format"
    run_fsbench trace replay "$S/v4.fsbt" "$S/v4r" --timing original
    is "$RC" 0 "a format 4 trace replays with original timing"
    # an away record: of a 500 ms gap the thread waited 400 ms; 100 ms is think time
    "$CRAFT" away "$S/away.fsbt" 500000000 400000000
    "$FSBENCH" trace stats --json "$S/away.fsbt" >"$S/away.json"
    is "$(jq -c '[.think.replayed_ns, .away.gaps, .away.blocked_ns]' "$S/away.json")" \
        "[100000000,1,400000000]" "an away record's wait is taken off the gap's think time"
    mkdir -p "$S/awayrun"
    "$FSBENCH" run --replay "$S/away.fsbt" --replay-timing original --dir "$S/awayrun" --no-save -q \
        --json "$S/awayrun.json" >/dev/null 2>&1
    cpu=$(jq '.runs[0].phases[0] | (.user_s + .sys_s) * 1000 | floor' "$S/awayrun.json" 2>/dev/null)
    ok "$([ "${cpu:-0}" -ge 85 ] && [ "${cpu:-999}" -lt 400 ]; echo $?)" \
        "the replay works 100 ms of think time, not the 500 ms gap: $cpu ms of CPU"
else
    skip "needs $CRAFT" 24
fi

# ---- a replay raced by an attacker -----------------------------------------------------
if [ -n "$GOOD" ] && [ -x "$RACE" ]; then
    # a trace with many directories: cp -a of a tree
    mkdir -p "$S/cp"
    "$FSBENCH" tree make tiny "$S/cp/src" --seed 2 >/dev/null
    (cd "$S/cp" && "$FSBENCH" record -o "$S/cp.fsbt" -- cp -a src dst) >/dev/null 2>&1
    DECOY=$S/decoy
    mkdir -p "$DECOY" "$S/hold"
    for t in src dst; do
        (cd "$S/cp/src" && find . -mindepth 1 -type d) | sed "s|^\.|$t|" | (cd "$DECOY" && xargs mkdir -p)
    done
    find "$DECOY" -type d -exec sh -c 'for d; do echo decoy >"$d/zz-decoy"; done' _ {} +
    sum() { (cd "$DECOY" && find . -printf '%p %y %s %m %T@\n' | LC_ALL=C sort) | sha256sum; }
    before=$(sum)
    untouched=0 okexit=0
    for try in 1 2 3; do
        rm -rf "$S/race"
        mkdir -p "$S/race"
        # the first try races the initial state (src), the later ones the timed calls (the
        # copy, dst, exists only once they run)
        roots=("$S/race/tree" "$S/race/tree/src")
        [ "$try" -gt 1 ] && roots=("$S/race/tree/dst")
        "$RACE" -d 0 -r "$S/report" "$S/hold" "$DECOY" "${roots[@]}" \
            -- "$FSBENCH" trace replay "$S/cp.fsbt" "$S/race" >/dev/null 2>"$S/race.err"
        rc=$?
        read -r _ swaps _ events _ <"$S/report"
        [ "$events" -eq 0 ] && [ "$(sum)" = "$before" ] && untouched=$((untouched + 1))
        if [ "$rc" -eq 0 ] || { [ "$rc" -eq 1 ] && [ "$(grep -c . "$S/race.err")" -eq 1 ]; }; then
            okexit=$((okexit + 1))
        fi
        diag "try $try: $swaps swaps, $events decoy events, exit $rc: $(head -c 200 "$S/race.err")"
    done
    is "$untouched" 3 "raced replays: the decoy untouched every time (no event, same listing)"
    is "$okexit" 3 "raced replays: each succeeded or failed with one line"
else
    skip "needs strace and $RACE" 2
fi
done_testing
