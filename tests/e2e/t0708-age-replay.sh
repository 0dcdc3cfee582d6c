#!/bin/bash
# --age-replay: aging by a real program. tar -xf of a small archive is recorded (fsbench
# record), then the age scenario replays it 3 times on a small ext4 image, each repetition
# in a directory of its own (all kept): the note says so, no call diverged, and the probe
# (statwalk) sees the three copies. With --age-steps the replays go on until each step's
# written total, the repetitions numbered on across the steps, and every run has probe
# results. Misuse is one line and exit 2.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd mkfs.ext4
need_cmd losetup
need_cmd jq
need_cmd tar
losetup -f >/dev/null 2>&1 || skip_all "no free loop device"

S=$SCRATCH
mkdir "$S/src" "$S/sub" "$S/x" "$S/img"
for i in $(seq 30); do head -c $((i * 4000)) /dev/urandom >"$S/src/f$i"; done
tar -cf "$S/t.tar" -C "$S/src" .
(cd "$S/x" && "$FSBENCH" record -o "$S/t.fsbt" -- tar -xf "$S/t.tar") >/dev/null 2>"$S/rec.err"
is "$?" 0 "record -- tar -xf exits 0"
entries=$(tar -tf "$S/t.tar" | grep -vc '/$')

IMG=(--image 128M --image-dir "$S/img" --fs ext4 --tree tiny)
run_fsbench run age "${IMG[@]}" --age-replay "$S/t.fsbt" --age-replay-times 3 --no-save -q \
    --json "$S/r.json"
is "$RC" 0 "run age --age-replay exits 0"
[ "$RC" -eq 0 ] || diag "$ERR"
note=$(jq -r '.runs[0].phases[] | select(.name == "age") | .note' "$S/r.json")
like "$note" "^replayed $S/t.fsbt 3 times \\(r0001-r0003\\): wrote [0-9.]+ MiB \\([0-9.]+x the fs\\), fs [0-9]+% full; repetitions done" \
    "the age note says the trace was replayed 3 times ($note)"
like "$note" 'none diverged' "no replayed call diverged"
files=$(jq -r '.runs[0].phases[] | select(.name == "statwalk") | .files' "$S/r.json")
ok $([ "$files" -ge $((3 * entries)) ]; echo $?) \
    "statwalk sees the three repetitions' files ($files >= 3 x $entries)"
is "$(jq -r '[.runs[0].phases[] | select(.status != "ok")] | length' "$S/r.json")" 0 \
    "every phase ok"

# With steps: until each step's written total, repetitions numbered on.
run_fsbench run "${IMG[@]}" --phases age,sync,dropcaches,statwalk,read \
    --age-replay "$S/t.fsbt" --age-steps 0.03,0.06 --runs 2 --no-save -q --json "$S/s.json"
is "$RC" 0 "--age-replay with --age-steps exits 0"
[ "$RC" -eq 0 ] || diag "$ERR"
n1=$(jq -r '.runs[0].phases[0].note' "$S/s.json")
n2=$(jq -r '.runs[2].phases[0].note' "$S/s.json")
like "$n1" '^step to 0\.03x: [0-9.]+ MiB in all \(0\.0[3-9]x the fs\); replayed .* times \(r0001-r0[0-9]+\)' \
    "step 1 replayed until 0.03x ($n1)"
like "$n2" '^step to 0\.06x: [0-9.]+ MiB in all \(0\.0[6-9]x the fs\); replayed .* \(r0*[2-9][0-9]*-r' \
    "step 2 went on with the next repetitions ($n2)"
is "$(jq '[.runs[] | .phases[1:][] | select(.status != "ok")] | length' "$S/s.json")" 0 \
    "every run of every step has probe results"
n=$(printf '%s\n' "$OUT" | grep -c '^step aged-0\.0[36]x, round [12]: .* MiB written in all; probe: ')
is "$n" 4 "a line per run says the step, the written total and the probe"

is "$(losetup -a | grep -cF "$S/img")" 0 "no loop device left"

run_fsbench run --phases extract,read --dir "$S/sub" --age-replay "$S/t.fsbt" --no-save
is "$RC" 2 "--age-replay without an age phase is refused"
like "$ERR" '--age-replay: the phases \(extract,read\) hold no age' "and says why"
run_fsbench run age "${IMG[@]}" --age-replay-times 2 --no-save
is "$RC" 2 "--age-replay-times alone is refused"
like "$ERR" 'age-replay-times needs --age-replay FILE' "and says why"
done_testing
