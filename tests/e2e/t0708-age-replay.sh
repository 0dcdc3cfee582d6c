#!/bin/bash
# --age-replay: aging by a real program. tar -xf of a small archive is recorded (fsbench
# record), then the age scenario replays it 3 times on a small ext4 image, each repetition
# in a directory of its own (all kept): the note says so, no call diverged, and the probe
# (statwalk) sees the three copies. With --age-steps the replays go on until each step's
# written total, the repetitions numbered on across the steps, and every run has probe
# results. The note gives the free space before and after and, without a profile, the
# distributions the repetitions left; with one (--age-profile) the distance from it after
# each repetition (a line on stderr each, the table at the end) and the stop: convergence,
# repetitions, written, fullness, free-space target; steps with a profile and a cold read.
# The same figures are in the phase's age_replay JSON object, kept by the store (export gives
# it back, show lists the repetitions). --dry-run sizes it by the trace's bytes written x
# the repetitions. Misuse is one line and exit 2.
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
like "$note" "^replayed t\\.fsbt 3 times \\(r0001-r0003\\): wrote [0-9.]+ MiB \\([0-9.]+x the fs\\), fs [0-9]+% full; repetitions done" \
    "the age note says the trace was replayed 3 times ($note)"
like "$note" 'none diverged' "no replayed call diverged"
like "$note" '; free space before: [0-9]+ free extents, largest [0-9.]+ [KMG]iB, [0-9]+% of free space in extents under 1 MiB \(source: GETFSMAP\); after: [0-9]+ free extents, .*\(source: GETFSMAP\)' \
    "the note gives the free space before and after, with its source"
# without a profile: the distributions of what the repetitions left (tree capture's buckets):
# 30 files a repetition, 2 of 2-8 KiB, 6 of 8-32 KiB, 22 of 32-128 KiB, all at depth 1, and
# tar's utimensat replayed as the replay's fixed 2020 time (years old)
like "$note" "; $((3 * entries)) files left: sizes % 0/0/0/7/20/73; ages % 0/0/0/0/0/0/100; depths % 100;" \
    "without a profile the note gives the distributions left"
files=$(jq -r '.runs[0].phases[] | select(.name == "statwalk") | .files' "$S/r.json")
ok $([ "$files" -ge $((3 * entries)) ]; echo $?) \
    "statwalk sees the three repetitions' files ($files >= 3 x $entries)"
is "$(jq -r '[.runs[0].phases[] | select(.status != "ok")] | length' "$S/r.json")" 0 \
    "every phase ok"
# the same figures in the phase's own JSON object (docs/json-schema.md, age_replay)
AR='.runs[0].phases[] | select(.name == "age") | .age_replay'
is "$(jq -c "$AR | [.trace, .profile, .repetitions, .first, .last, .stop, .files, .distance]" "$S/r.json")" \
    "[\"t.fsbt\",null,3,1,3,\"repetitions done\",$((3 * entries)),null]" \
    "age_replay: trace, no profile, 3 repetitions r0001-r0003, the stop, the files, no distance"
is "$(jq "$AR | ([.per_repetition[].bytes_written] | add) == .bytes_written and ([.per_repetition[] | select(.bytes_written > 0 and .distance == null)] | length) == 3" "$S/r.json")" true \
    "age_replay: one entry per repetition, their bytes add up to bytes_written"
is "$(jq -r "$AR | [.free_before.source, .free_after.source, (.free_after.extents > 0), (.free_before.small_share >= 0)] | @tsv" "$S/r.json")" \
    "$(printf 'GETFSMAP\tGETFSMAP\ttrue\ttrue')" "age_replay: free space before and after, with its source"
is "$(jq -c "$AR | [.buckets[] | select(.now > 0) | [.dimension, .from, (.now * 100 | round)]]" "$S/r.json")" \
    '[["sizes",2048,7],["sizes",8192,20],["sizes",32768,73],["ages",94608000,100],["depths",1,100]]' \
    "age_replay: the distributions left, in tree capture's buckets, as the note says"
is "$(jq "[$AR | .buckets[] | select(has(\"target\"))] | length" "$S/r.json")" 0 \
    "age_replay: no targets without a profile"

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

# With a profile beside the trace: the distance after each repetition, and each stop.
# tarlike is what one repetition leaves (sizes as above, years old, depth 1).
printf '%s\n' '[profile]' 'name = tarlike' 'utilization = 0.1' '[sizes]' '0 = 0' '2K = 2' \
    '8K = 6' '32K = 22' '[ages]' '0 = 0' '1y = 100' '[depths]' '1 = 100' '[mix]' 'create = 1' \
    >"$S/like.ini"
run_fsbench run age "${IMG[@]}" --age-replay "$S/t.fsbt" --age-profile "$S/like.ini" \
    --no-save --json "$S/p.json"
is "$RC" 0 "--age-replay with --age-profile exits 0"
note=$(jq -r '.runs[0].phases[] | select(.name == "age") | .note' "$S/p.json")
like "$note" '^replayed t\.fsbt 1 time \(r0001-r0001\): .*; converged; profile tarlike: distance 0\.00% after r0001 \(sizes 0\.0%, ages 0\.0%, depths 0\.0%; worst [a-z]+ [^)]*\); free space before: .*\(source: GETFSMAP\); after: .*\(source: GETFSMAP\)' \
    "converged to the profile after one repetition, the distance and the free space said ($note)"
is "$(printf '%s\n' "$ERR" | grep -c '^fsbench: age: replay r0001: 0\.0[0-9]x the fs written, 30 files; distance 0\.0% (sizes 0\.0%, ages 0\.0%, depths 0\.0%')" 1 \
    "a progress line after the repetition gives the distance per distribution"
like "$ERR" 'age profile tarlike: distance 0\.00%' "the per-bucket table at the end"
like "$ERR" '  sizes     32K  target  73\.3%  now  73\.3%' "with each bucket's target and share now"

# A profile the trace cannot reach (tiny): the repetitions stop it, a line after each.
run_fsbench run age "${IMG[@]}" --age-replay "$S/t.fsbt" --age-profile tiny \
    --age-replay-times 3 --no-save --json "$S/p.json"
is "$RC" 0 "--age-profile tiny --age-replay-times 3 exits 0"
note=$(jq -r '.runs[0].phases[] | select(.name == "age") | .note' "$S/p.json")
like "$note" '^replayed t\.fsbt 3 times \(r0001-r0003\): .*; repetitions done; profile tiny: distance [0-9.]+% after r0003 \(sizes [0-9.]+%, ages 50\.0%, depths 70\.0%; worst sizes 16K\), [0-9.]+% after r0001; free space before: ' \
    "stopped by the repetitions, far from the profile ($note)"
is "$(printf '%s\n' "$ERR" | grep -c '^fsbench: age: replay r000[123]: .* files; distance [0-9.]*% ')" 3 \
    "one distance line after each of the 3 repetitions"
like "$ERR" 'fsbench: age: stopped: repetitions done' "the stop is printed"
is "$(jq -c "$AR | [.profile, .stop, .repetitions, (.distance * 1000 | round), (.distance_by | [.sizes, .ages, .depths] | map(. * 1000 | round))]" "$S/p.json")" \
    '["tiny","repetitions done",3,717,[717,500,700]]' \
    "age_replay with a profile: the distance and per distribution (0.717: sizes, 0.5, 0.7)"
is "$(jq -c "[$AR | .per_repetition[].distance * 1000 | round]" "$S/p.json")" '[717,717,717]' \
    "age_replay: the distance after each repetition"
is "$(jq "$AR | ([.buckets[] | select(has(\"target\"))] | length) == (.buckets | length) and (([.buckets[].target] | add) * 1000 | round) == 3000" "$S/p.json")" true \
    "age_replay: every bucket has the profile's target, each distribution's summing to 1"
# kept with the run: the store gives it back (export), show lists the repetitions
run_fsbench run age "${IMG[@]}" --age-replay "$S/t.fsbt" --age-profile tiny \
    --age-replay-times 2 -q --db "$S/db" --label rp
is "$RC" 0 "a saved run with --age-replay exits 0"
run_fsbench export rp --db "$S/db" --json -o "$S/e.json"
is "$(jq -c "$AR | [.trace, .profile, .repetitions, (.per_repetition | length), .free_after.source]" "$S/e.json")" \
    '["t.fsbt","tiny",2,2,"GETFSMAP"]' "export gives the stored age_replay object back"
run_fsbench show rp --db "$S/db"
like "$OUT" 'age by replay in run 1: 2 repetitions of t\.fsbt, [0-9.]+ MiB in all, stop: repetitions done; free space in extents under 1 MiB [0-9]+% -> [0-9]+%' \
    "show says the repetitions, the stop and the free space"
like "$OUT" 'per repetition \(r0001-\), MiB / distance: [0-9.]+/71\.7% [0-9.]+/71\.7%' \
    "show lists each repetition's bytes and distance"

# ... the written total (--age-written), the fullness, the free-space target
run_fsbench run age "${IMG[@]}" --age-replay "$S/t.fsbt" --age-profile tiny --age-written 0.03 \
    --no-save -q --json "$S/p.json"
note=$(jq -r '.runs[0].phases[] | select(.name == "age") | .note' "$S/p.json")
like "$note" '^replayed t\.fsbt 2 times .*\(0\.0[3-9]x the fs\), .*; written target reached; profile tiny: distance' \
    "--age-written stops it ($note)"
run_fsbench run age "${IMG[@]}" --age-replay "$S/t.fsbt" --age-profile tiny --age-fullness 0.11 \
    --no-save -q --json "$S/p.json"
note=$(jq -r '.runs[0].phases[] | select(.name == "age") | .note' "$S/p.json")
like "$note" '^replayed t\.fsbt [0-9]+ times? .*, fs 1[1-9]% full; fullness target reached; profile tiny' \
    "--age-fullness stops it ($note)"
run_fsbench run age "${IMG[@]}" --age-replay "$S/t.fsbt" --age-free-target 0.01:8K \
    --age-replay-times 50 --no-save -q --json "$S/p.json"
note=$(jq -r '.runs[0].phases[] | select(.name == "age") | .note' "$S/p.json")
like "$note" '; free-space target reached; .*; free-space target: [0-9]+% of free space in extents under 8\.0 KiB \(target 0%\)' \
    "--age-free-target stops it and the note ends with the measure ($note)"

# Steps with a profile and a cold-read probe: each step replays to its written multiple,
# its note gives the distance and the free space, the probe runs after it.
run_fsbench run "${IMG[@]}" --phases age,sync,dropcaches,read --age-replay "$S/t.fsbt" \
    --age-profile tiny --age-steps 0,0.03,0.06 --runs 1 --db "$S/db" --label st --json "$S/s2.json"
is "$RC" 0 "--age-steps with --age-replay and --age-profile exits 0"
last=$(printf '%s\n' "$ERR" | grep '^fsbench: age: replay r0' | tail -1)
like "$last" '^fsbench: age: replay r00[0-9]+: 0\.0[6-9]x the fs written, [0-9]+ files; distance ' \
    "the last repetition's line counts what every step wrote ($last)"
n2=$(jq -r '.runs[2].phases[0].note' "$S/s2.json")
like "$n2" '^step to 0\.06x: [0-9.]+ MiB in all \(0\.0[6-9]x the fs\); replayed t\.fsbt [0-9]+ times \(r000[2-9]-r00[0-9]+\): .*; written target reached; profile tiny: distance [0-9.]+% after r00[0-9]+ .*; free space before: .*; after: ' \
    "the last step went on replaying, with the distance and the free space ($n2)"
is "$(jq '[.runs[1:][] | .phases[] | select(.name == "read" and .status == "ok" and .files > 0)] | length' "$S/s2.json")" 2 \
    "the cold-read probe read the replays' files after each step"
# the steps' curve (performance vs age) has the free space after each step beside it
like "$OUT" 'performance vs age' "the run ends with the steps as a series"
like "$OUT" '^aging by replay along the steps \(after each step' "a table of the replays' free space per step follows"
like "$OUT" '^  step +repetitions +MiB in all +free extents +largest +under 1 MiB +distance$' \
    "its columns"
like "$OUT" '^  aged-0x +- +- +- +- +- +-$' "the fresh step has no figures"
like "$OUT" '  aged-0\.06x +r00[0-9][0-9]-r00[0-9][0-9] +[0-9.]+ +[0-9]+ +[0-9.]+ MiB +[0-9]+% +[0-9.]+%' \
    "each aged step: its repetitions, the MiB in all, the free space after it and the distance"
n=$(jq '[.runs[] | .phases[0] | select(.age_replay)] | length' "$S/s2.json")
is "$n" 2 "each aged step's age phase has its age_replay object, the fresh one none"
# stored: compare gives the same table, report's history page holds it as a table
run_fsbench compare st --db "$S/db"
like "$OUT" '^  aged-0\.06x +r00[0-9][0-9]-r00[0-9][0-9] +[0-9.]+ +[0-9]+ +[0-9.]+ MiB +[0-9]+% +[0-9.]+%' \
    "compare of the stored steps shows the free space per step"
run_fsbench report st --db "$S/db" -o "$S/st.html"
is "$RC" 0 "report of the steps exits 0"
is "$(sed -n '/<table id="age-replay-steps">/,/<\/table>/p' "$S/st.html" | grep -c '^<tr><td>aged-')" 3 \
    "the history page has the table, a row per step"
like "$(cat "$S/st.html")" '<tr><td>aged-0\.06x</td><td>r00[0-9]+-r00[0-9]+</td><td>[0-9.]+</td><td>[0-9]+</td><td>[0-9.]+ MiB</td><td>[0-9]+%</td><td>[0-9.]+%</td></tr>' \
    "the last step's row: repetitions, MiB, free extents, largest, share, distance"

# --dry-run sizes replay aging by what it writes: the trace's bytes written (its info
# block) x the repetitions its stops allow, not --age-written's 4x the file system
wr=0
for i in $(seq 30); do wr=$((wr + i * 4000)); done
run_fsbench run age "${IMG[@]}" --age-replay "$S/t.fsbt" --age-replay-times 3 --dry-run
is "$RC" 0 "--dry-run with --age-replay exits 0"
like "$OUT" "age: ages the file system made on the image: it replays t\.fsbt up to 3 times \(--age-replay-times 3\); a repetition writes 1\.8 MiB \(the trace's bytes written\): up to 5\.3 MiB in all \(0\.04x its 128\.0 MiB\)" \
    "the dry run's age line: the repetitions, their basis and the trace's writes ($wr bytes each)"
like "$OUT" 'space: about 5\.3 MiB needed \(aging by replay: 3 repetitions of the trace\) in ' \
    "the space check needs what the 3 repetitions write, and says so"
ok "$(printf '%s\n' "$OUT" | grep -q 'writes up to 512'; [ $? -ne 0 ]; echo $?)" \
    "not --age-written's 4x of the image"
run_fsbench run "${IMG[@]}" --phases age,sync,read --age-replay "$S/t.fsbt" --age-profile tiny \
    --age-steps 0,0.03,0.06 --dry-run
like "$OUT" 'replays t\.fsbt up to 5 times \(the last step, 0\.06x\); .*: up to 8\.9 MiB in all' \
    "with steps: until the last step's multiple (ceil(0.06 x 128 MiB / $wr) = 5)"
run_fsbench run age "${IMG[@]}" --age-replay "$S/t.fsbt" --age-profile tiny --dry-run
like "$OUT" 'replays t\.fsbt up to 289 times \(--age-written 4x\); .*; fewer if it converges to the profile' \
    "with a profile: until --age-written, fewer if it converges"
is "$(losetup -a | grep -cF "$S/img")" 0 "no loop device left"

run_fsbench run --phases extract,read --dir "$S/sub" --age-replay "$S/t.fsbt" --no-save
is "$RC" 2 "--age-replay without an age phase is refused"
like "$ERR" '--age-replay: the phases \(extract,read\) hold no age' "and says why"
run_fsbench run age "${IMG[@]}" --age-replay-times 2 --no-save
is "$RC" 2 "--age-replay-times alone is refused"
like "$ERR" 'age-replay-times needs --age-replay FILE' "and says why"
done_testing
