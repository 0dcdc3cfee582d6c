#!/bin/bash
# The replay phase like every other phase: recorded once on a tmpfs, replayed on an ext4
# image in a matrix of two mount option sets, in interleaved rounds, with the device's
# I/O, latency per operation kind, the time line, stored, compared and reported; and in a
# phase list around it (replay,sync). Also the null engine (the harness alone: every call
# counted, nothing made) and original timing (the recorded think time waited).
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd jq
need_cmd strace
need_cmd mkfs.ext4
need_cmd losetup
strace -f -qq -o /dev/null true 2>/dev/null || skip_all "strace cannot trace here"
. "$(dirname "$0")/../lib/target.sh"

S=$SCRATCH
mount_tmpfs "$S/tmpfs" 256M || skip_all "cannot mount a tmpfs"
# a program that makes, fsyncs, renames and reads files: what a CVS commit does
mkdir -p "$S/tmpfs/w"
cat >"$S/prog.sh" <<'EOF'
mkdir -p repo
for i in $(seq 1 40); do
    printf 'revision %s\n' "$i" >repo/,f$i,
    sync repo/,f$i,
    mv repo/,f$i, repo/f$i
    sleep 0.002
done
cat repo/* >/dev/null
EOF
(cd "$S/tmpfs/w" && "$FSBENCH" record -o "$S/prog.fsbt" -- sh "$S/prog.sh") 2>"$S/rec.err"
is "$?" 0 "recorded on a tmpfs"
"$FSBENCH" trace stats --json "$S/prog.fsbt" >"$S/stats.json"
DB=$S/r.db

run_fsbench run --replay "$S/prog.fsbt" --phases replay,sync --image 128M --fs ext4 \
    --mount-opts defaults --mount-opts sync --runs 2 --db "$DB" --label ext4 --json "$S/m.json" -q
is "$RC" 0 "replay,sync on ext4, two mount option sets, two rounds: exit 0"
[ "$RC" -eq 0 ] || diag "$ERR"
is "$(jq '.runs | length' "$S/m.json")" 4 "4 runs: 2 configurations x 2 rounds"
is "$(jq -c '[.runs[].round] | sort' "$S/m.json")" '[0,0,1,1]' "interleaved in rounds"
is "$(jq -c '[.runs[].config] | unique' "$S/m.json")" '["ext4:defaults","ext4:sync"]' \
    "both configurations ran"
is "$(jq -r '[.runs[].phases[] | select(.name == "replay") | .status] | unique | join(",")' "$S/m.json")" ok \
    "every replay ok"
is "$(jq -r '[.runs[].phases[] | select(.name == "replay") | .note | test("none diverged")] | all' "$S/m.json")" true \
    "no call diverged in any run"
is "$(jq -S -c '.runs[0].phases[0].ops' "$S/m.json")" "$(jq -S -c '.ops' "$S/stats.json")" \
    "the replay's operations per kind are the trace's"
ok $(jq -e '[.runs[].phases[] | select(.name == "replay") | .device.sectors_written] | add > 0' "$S/m.json" >/dev/null && echo 0 || echo 1) \
    "the device's writes are measured during the replay"
ok $(jq -e '.runs[0].phases[0].latency.fsync.count > 0' "$S/m.json" >/dev/null && echo 0 || echo 1) \
    "latency per operation kind (fsync)"
ok $(jq -e '(.runs[0].phases[0].timeline | length) > 0' "$S/m.json" >/dev/null && echo 0 || echo 1) \
    "a time line"
like "$(jq -r '.tree.profile' "$S/m.json")" '^trace:.*prog\.fsbt$' "the run set's tree is the trace"
run_fsbench compare --db "$DB" ext4
is "$RC" 0 "compare of the two configurations exits 0"
like "$OUT" 'replay' "compare shows the replay phase"
run_fsbench report --db "$DB" ext4 -o "$S/r.html"
is "$RC" 0 "report exits 0"
ok $(grep -q 'replay' "$S/r.html" && echo 0 || echo 1) "the HTML report holds the replay phase"
nothing_left "after the matrix"

# the harness alone, and original timing
run_fsbench run --replay "$S/prog.fsbt" --engine null --no-save --json "$S/n.json" -q
is "$RC" 0 "the null engine replays (exit 0)"
is "$(jq -S -c '.runs[0].phases[0].ops' "$S/n.json")" "$(jq -S -c '.ops' "$S/stats.json")" \
    "null engine: every call counted"
mkdir -p "$S/tmpfs/o"
run_fsbench run --replay "$S/prog.fsbt" --replay-timing original --dir "$S/tmpfs/o" --no-save \
    --json "$S/o.json" -q
is "$RC" 0 "original timing replays (exit 0)"
orig=$(jq '.runs[0].phases[0].wall_s' "$S/o.json")
ok $(awk -v o="$orig" 'BEGIN { exit !(o >= 0.06) }' && echo 0 || echo 1) \
    "original timing waits the recorded think time (40 sleeps of 2 ms: $orig s)"
done_testing
