#!/bin/bash
# --age-steps: one run ages a small ext4 image in steps (0.25x, then 0.5x its size written
# in all) and measures the probe (sync, dropcaches, statwalk, read) twice after each step.
# Asserts the steps are the set's configurations in order, each step's written amount (the
# age phase's note, and the line each run prints), that every run of every step has probe
# results, the series view at the end, and compare and report of the saved set; bad uses
# are refused in one line; a writing probe (extract of a fresh tree after each step) works
# in a directory of its own, removed after each run. Steps aged by a profile: each step's
# figures in its age phase's age_profile object, and the steps table of a profile's aging
# at the run's end, in the stored set's show, compare and report -o.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd mkfs.ext4
need_cmd losetup
need_cmd jq
losetup -f >/dev/null 2>&1 || skip_all "no free loop device"

mkdir "$SCRATCH/img"
DB=$SCRATCH/r.db
run_fsbench run --image 128M --image-dir "$SCRATCH/img" --fs ext4 \
    --phases age,sync,dropcaches,statwalk,read --tree tiny --age-steps 0.25,0.5 --runs 2 \
    --db "$DB" --label st -q --json "$SCRATCH/st.json"
is "$RC" 0 "run --age-steps exits 0"
[ "$RC" -eq 0 ] || diag "$ERR"
J=$SCRATCH/st.json
is "$(jq -r '[.runs[].config] | join(" ")' "$J")" "aged-0.25x aged-0.25x aged-0.5x aged-0.5x" \
    "the steps are the set's configurations, in order, two rounds each"
is "$(jq -r '.meta["age-steps"]' "$J")" "0.25,0.5" "JSON: meta age-steps lists the steps"

# The written amount of each step: the age phase of its first run ages, the second skips.
for step in 0.25 0.5; do
    note=$(jq -r --arg c "aged-${step}x" \
        '[.runs[] | select(.config == $c)][0].phases[0] | "\(.status)|\(.note)"' "$J")
    like "$note" "^ok\\|step to ${step}x: wrote [0-9.]+ MiB, [0-9.]+ MiB in all \\(([0-9.]+)x the fs\\)" \
        "step ${step}x: the age phase says what it wrote ($note)"
    x=$(printf '%s\n' "$note" | sed -nE 's/.*MiB in all \(([0-9.]+)x the fs\).*/\1/p')
    ok $(awk -v x="$x" -v s="$step" 'BEGIN {exit !(x >= s && x < s + 0.05)}'; echo $?) \
        "step ${step}x: ${x}x the fs written in all"
    second=$(jq -r --arg c "aged-${step}x" \
        '[.runs[] | select(.config == $c)][1].phases[0].status' "$J")
    is "$second" skipped "step ${step}x: its second run does not age again"
done
w1=$(jq -r '[.runs[] | select(.config == "aged-0.25x")][0].phases[0].note' "$J" |
    sed -nE 's/.*, ([0-9.]+) MiB in all.*/\1/p')
w2=$(jq -r '[.runs[] | select(.config == "aged-0.5x")][0].phases[0].note' "$J" |
    sed -nE 's/.*, ([0-9.]+) MiB in all.*/\1/p')
ok $(awk -v a="$w1" -v b="$w2" 'BEGIN {exit !(b > a * 1.9 && b < a * 2.1)}'; echo $?) \
    "the second step's total ($w2 MiB) is twice the first's ($w1 MiB)"

# Every run has probe results.
bad=$(jq '[.runs[] | .phases[1:][] | select(.status != "ok" or .wall_s <= 0)] | length' "$J")
is "$bad" 0 "every probe phase of every run is ok with a wall time"
is "$(jq '[.runs[] | .phases[] | select(.name == "read") | .files] | min > 0' "$J")" true \
    "every run's read read the aged files"

# What the run says as it goes, and at the end.
n=$(printf '%s\n' "$OUT" | grep -cE '^step aged-0\.(25|5)x, round [12]: [0-9.]+ MiB written in all; probe: sync [0-9.]+ s, dropcaches [0-9.]+ s, statwalk [0-9.]+ s, read [0-9.]+ s$')
is "$n" 4 "a line per run: the step, the written total, the probe's figures"
like "$OUT" 'performance vs age \(steps 0\.25,0\.5' "the series view follows"
like "$OUT" $'read\n +label +median +interval +runs\n +aged-0\\.25x +[0-9.]+ ' \
    "the series has the read phase, step by step"

# compare and report of the saved set show the steps as a series.
run_fsbench compare st --db "$DB"
is "$RC" 0 "compare of the set exits 0"
like "$OUT" 'aged-0\.5x' "compare names the steps"
like "$OUT" 'performance vs age' "compare shows the series"
run_fsbench report st --db "$DB" -o "$SCRATCH/st.html"
is "$RC" 0 "report of the set exits 0"
ok $(grep -q 'aged-0.5x' "$SCRATCH/st.html"; echo $?) "the page holds the steps"

is "$(awk -v s="$SCRATCH/img" 'index($5, s) == 1' /proc/self/mountinfo)" "" "nothing left mounted"
is "$(losetup -a | grep -cF "$SCRATCH/img")" 0 "no loop device left"

# Bad uses: one line each, exit 2.
run_fsbench run --phases age,read --dir "$SCRATCH" --age-host-fs --age-steps 2 --no-save
is "$RC" 2 "--age-steps with --dir is refused"
like "$ERR" 'age-steps .*--image SIZE or --device DEV' "and says what would do"
run_fsbench run --image 128M --phases age,read --age-steps 0.5,0.25 --no-save
is "$RC" 2 "falling multiples are refused"
like "$ERR" 'must rise \(0\.25 after 0\.5\)' "naming them"
run_fsbench run --image 128M --phases age,createsync,read --age-steps 2 --no-save
is "$RC" 2 "a probe that writes a tree of its own other than extract's is refused"
like "$ERR" 'phase createsync writes or removes files of its own' "naming the phase"
run_fsbench run --image 128M --phases age,delete,read --age-steps 2 --no-save
is "$RC" 2 "a writing probe without extract first is refused"
like "$ERR" 'phase delete in the probe needs a fresh tree before it: put extract first' "saying so"
run_fsbench run --image 128M --phases age,read,extract --age-steps 2 --no-save
is "$RC" 2 "a read before the probe's extract is refused"
like "$ERR" 'phase read reads the tree before extract makes the probe' "naming it"

# A writing probe: after each step extract writes a fresh tree in the probe's own
# directory, the probe reads that tree (not the aged one), and the directory is removed
# after each run, so the next step ages on from the aged tree alone (twice the written
# total at 0.5x) and the kept image holds tree/age and no probe directory.
run_fsbench run --image 128M --image-dir "$SCRATCH/img" --fs ext4 \
    --phases age,extract,sync,dropcaches,read --tree tiny --age-steps 0.25,0.5 --runs 2 \
    --no-save --label wp --keep-image --json "$SCRATCH/wp.json"
is "$RC" 0 "a writing probe (extract): exits 0"
[ "$RC" -eq 0 ] || diag "$ERR"
ph() { jq -r "[.runs[] | .phases[] | select(.name == \"$1\") | .$2] | unique | join(\",\")" "$SCRATCH/wp.json"; }
is "$(jq '.runs | length' "$SCRATCH/wp.json")" 4 "four runs"
is "$(ph extract status),$(ph read status)" "ok,ok" "extract and read ok in every run"
X=$(ph extract files)
ok "$([ "$X" -gt 100 ]; echo $?)" "every extract wrote the same fresh tree ($X files)"
is "$(ph read files)" "$X" "read read the fresh tree alone, every run"
W=$(jq -r '[.runs[] | select(.config == "aged-0.5x") | .phases[0].note][0]' "$SCRATCH/wp.json")
like "$W" 'step to 0\.5x: wrote .*, [0-9.]+ MiB in all \(0\.5[0-4]x the fs\)' \
    "step 2 ages on to 0.5x in all: the probe's writes are not aging"
K=$(jq -r .kept.path "$SCRATCH/wp.json")
if command -v debugfs >/dev/null; then
    debugfs -R 'ls -p /fsbench' "$K" 2>/dev/null >"$SCRATCH/wp.ls"
    ok "$(grep -q '/tree/' "$SCRATCH/wp.ls"; echo $?)" "the kept image holds the aged tree"
    ok "$(! grep -q '/probe/' "$SCRATCH/wp.ls"; echo $?)" "and no probe directory"
else
    skip "no debugfs" 2
fi
rm -f "$K"

# Steps aged by a profile: each step's first round ages to its written total, the later
# rounds skip (the profile's writes count into the steps' total).
run_fsbench run --image 128M --image-dir "$SCRATCH/img" --fs ext4 --phases age,sync \
    --age-profile tiny --age-steps 0.25,0.5 --runs 2 --db "$DB" --label pf --json "$SCRATCH/pf.json"
is "$RC" 0 "steps with a profile: exits 0"
pn() { jq -r "[.runs[] | select(.config == \"$1\") | .phases[0].note][$2]" "$SCRATCH/pf.json"; }
like "$(pn aged-0.5x 0)" '^step to 0\.5x: [0-9.]+ MiB in all \(0\.5[0-4]x the fs\); profile tiny: ' \
    "profile step 2: its total in all"
like "$(pn aged-0.25x 1)" '^aged to 0\.25x already' "profile step 1, round 2: skipped"
like "$(pn aged-0.5x 1)" '^aged to 0\.5x already' "profile step 2, round 2: skipped"

# Each step's aging in an object of its own (phases[0].age_profile): the first round's
# only; its ops and bytes as the note says, the free space before and after, the buckets.
PJ=$SCRATCH/pf.json
is "$(jq -c '[.runs[].phases[0] | has("age_profile")]' "$PJ")" "[true,false,true,false]" \
    "age_profile: in each step's first run, not in the skipped rounds"
pa() { jq -r "[.runs[] | select(.config == \"$1\")][0].phases[0].age_profile | $2" "$PJ"; }
for c in aged-0.25x aged-0.5x; do
    n=$(pn $c 0)
    is "$(pa $c '"\(.profile)|\(.stop)|\(.ops)"')" \
        "tiny|written target reached|$(printf '%s\n' "$n" | sed -nE 's/.* after ([0-9]+) ops;.*/\1/p')" \
        "$c: age_profile's profile, stop and ops are the note's"
    is "$(pa $c '"\(.free_before.source)|\(.free_after.source)|\(.free_after.extents > 0)|\(.fullness > 0 and .fullness < 1)"')" \
        "GETFSMAP|GETFSMAP|true|true" "$c: free space before and after, and the fullness"
    is "$(pa $c '[.buckets[] | .dimension] | unique | join(",")'),$(pa $c '[.buckets[].target] | add | . * 1000 | round')" \
        "ages,depths,sizes,3000" "$c: every bucket of the three dimensions, with the profile's targets"
    is "$(pa $c '.distance == ([.distance_by[]] | max)')" true "$c: the distance is the worst dimension's"
done
b1=$(pa aged-0.25x .bytes_written)
b2=$(pa aged-0.5x .bytes_written)
ok $(awk -v a="$b1" -v b="$b2" -v f="$(pa aged-0.5x .fs_bytes)" \
    'BEGIN {exit !((a + b) / f >= 0.5 && (a + b) / f < 0.55)}'; echo $?) \
    "the steps' bytes_written ($b1 + $b2) add up to 0.5x the fs"

# At the run's end, the steps table for a profile's aging: its ops, the total, the free space.
like "$OUT" '^aging by profile along the steps \(after each step' "the run's end: the profile steps' table"
like "$OUT" '  step +ops +MiB in all +free extents +largest +under 1 MiB +distance' "with its columns"
row=$(printf '%s\n' "$OUT" | grep -E '^  aged-0\.5x +[0-9]+ ')
total=$(awk -v a="$b1" -v b="$b2" 'BEGIN {printf "%.1f", (a + b) / 1048576}')
like "$row" "^  aged-0\\.5x +$(pa aged-0.5x .ops) +$total +$(pa aged-0.5x .free_after.extents) +[0-9.]+ MiB +[0-9]+% +[0-9.]+%\$" \
    "the 0.5x row: its ops, the MiB in all, the free extents after it ($row)"

# Stored: export gives the objects back; show, compare and report -o show them.
run_fsbench export pf --db "$DB" --json
is "$RC" 0 "export of the profile steps set exits 0"
is "$(printf '%s\n' "$OUT" | jq -c '[.runs[].phases[0].age_profile | select(.) | [.ops, .bytes_written, .distance, .free_after]]')" \
    "$(jq -c '[.runs[].phases[0].age_profile | select(.) | [.ops, .bytes_written, .distance, .free_after]]' "$PJ")" \
    "export --json: the age_profile objects as the run wrote them"
run_fsbench show pf --db "$DB"
like "$OUT" "  age by profile tiny in run 3: $(pa aged-0.5x .ops) ops, [0-9.]+ MiB written, $(pa aged-0.5x .files) files, fs [0-9]+% full, stop: written target reached" \
    "show: the profile aging's line"
like "$OUT" '    distance [0-9.]+% \(sizes [0-9.]+%, ages [0-9.]+%, depths [0-9.]+%\); free space before: [0-9]+ extents, .*; after: [0-9]+ extents, largest [0-9.]+ MiB, [0-9]+% under 1 MiB \(GETFSMAP\)' \
    "show: its distance by dimension and the free space"
run_fsbench compare pf --db "$DB"
like "$OUT" "aged-0\\.5x +$(pa aged-0.5x .ops) +$total " "compare of the stored set: the steps table's row"
run_fsbench report pf --db "$DB" -o "$SCRATCH/pf.html"
is "$RC" 0 "report -o of the profile steps exits 0"
is "$(sed -n '/<table id="age-profile-steps">/,/<\/table>/p' "$SCRATCH/pf.html" | grep -c '^<tr><td>aged-')" 2 \
    "report -o: the profile steps' table, a row per step"
like "$(grep -F '<tr><td>aged-0.5x</td>' "$SCRATCH/pf.html")" "<td>$(pa aged-0.5x .ops)</td><td>$total</td><td>$(pa aged-0.5x .free_after.extents)</td>" \
    "report -o: the 0.5x row's ops, total and free extents"
is "$(awk -v s="$SCRATCH/img" 'index($5, s) == 1' /proc/self/mountinfo)$(losetup -a | grep -F "$SCRATCH/img")" \
    "" "writing probe: no mount or loop device left"
done_testing
