#!/bin/bash
# Issue 34: aging to a profile on a small ext4 loop image. A bad profile file is one
# FILE:LINE error before anything runs; the built-in "tiny" profile converges within 1 %
# per bucket, says so while aging (progress lines, the per-bucket table) and in the phase's
# note (stop reason, distance, free space before and after from GETFSMAP); the same seed
# gives the same operations and the same outcome; the written and the fullness targets stop
# it and are named; a profile captured from a real tree (tree capture --age-profile) is
# read back and aged to. Nothing stays mounted or attached.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd mkfs.ext4
need_cmd losetup
need_cmd jq
losetup -f >/dev/null 2>&1 || skip_all "no free loop device"

age_note() { jq -r '[.runs[0].phases[] | select(.name == "age")][0].note' "$1"; }
age_field() { jq -r "[.runs[0].phases[] | select(.name == \"age\")][0].$2" "$1"; }
clean_target() {
    local m l
    m=$(awk -v s="$SCRATCH/img" 'index($5, s) == 1' /proc/self/mountinfo)
    l=$(losetup -a | grep -F "$SCRATCH/img")
    LOOPS="$LOOPS $(printf '%s\n' "$l" | cut -d: -f1)"
    is "$m$l" "" "$1: no mount or loop device of the image left"
}
mkdir "$SCRATCH/img"
IMG=(--image 96M --image-dir "$SCRATCH/img" --fs ext4 --no-save)

# 1. A bad profile file: FILE:LINE, usage exit, nothing run.
printf '[profile]\nname = bad\n[sizes]\n0 = 1\n4K = lots\n' >"$SCRATCH/bad.ini"
run_fsbench run age "${IMG[@]}" --phases age --age-profile "$SCRATCH/bad.ini"
is "$RC" 2 "bad profile: usage exit"
like "$ERR" "bad.ini:5: \[sizes\]: 4K: 'lots' is not a non-negative share" "bad profile: FILE:LINE"
run_fsbench run age "${IMG[@]}" --phases age --age-profile nosuch
like "$ERR" "'nosuch' is neither a built-in profile" "unknown name: says what exists"

# 2. Converge to tiny, twice with one seed.
for i in 1 2; do
    run_fsbench run age "${IMG[@]}" --phases age,layout --age-profile tiny --seed 5 \
        --json "$SCRATCH/c$i.json"
    is "$RC" 0 "converge $i: exits 0"
    [ "$RC" -eq 0 ] || diag "$ERR"
    clean_target "converge $i"
    eval "ERR$i=\$ERR"
done
N1=$(age_note "$SCRATCH/c1.json")
diag "$N1"
like "$N1" '^profile tiny: converged after [0-9]+ ops; wrote .* files in [0-9]+ dirs' \
    "note: the stop reason"
d=$(printf '%s\n' "$N1" | sed -nE 's/.*distance ([0-9.]+)%.*/\1/p')
ok "$(awk -v d="$d" 'BEGIN {exit !(d != "" && d <= 1.0)}'; echo $?)" \
    "note: distance $d% is within 1 %"
like "$N1" 'free space before: [0-9]+ free extents, largest .*; after: [0-9]+ free extents' \
    "note: free space before and after (GETFSMAP)"
like "$ERR1" 'fsbench: age: .* ops, .*distance [0-9.]+% \(worst: ' "progress lines while aging"
like "$ERR1" 'fsbench: age: stopped: converged' "stderr: which stop happened"
like "$ERR1" '  sizes +1K +target +35\.0% +now +[0-9.]+%' "stderr: the per-bucket table"
like "$(jq -r '[.runs[0].phases[] | select(.name == "layout")][0].note' "$SCRATCH/c1.json")" \
    '^layout score [01]\.[0-9]+, .*; free space: [0-9]+ free extents' \
    "layout note: free space beside the score"
ops() { printf '%s\n' "$1" | sed -nE 's/.*after ([0-9]+) ops.*distance ([0-9.]+)%.*/\1 \2/p'; }
N2=$(age_note "$SCRATCH/c2.json")
is "$(ops "$N2")" "$(ops "$N1")" "same seed: the same operations and distance"
is "$(age_field "$SCRATCH/c2.json" files) $(age_field "$SCRATCH/c2.json" bytes_written)" \
    "$(age_field "$SCRATCH/c1.json" files) $(age_field "$SCRATCH/c1.json" bytes_written)" \
    "same seed: the same files created and bytes written"
# The same figures as an object of their own (phases[0].age_profile).
AP='.runs[0].phases[0].age_profile'
is "$(jq -r "$AP | \"\(.profile)|\(.stop)|\(.ops)|\(has(\"trace\"))|\(has(\"per_repetition\"))\"" "$SCRATCH/c1.json")" \
    "tiny|converged|$(ops "$N1" | cut -d' ' -f1)|false|false" \
    "age_profile: profile, stop and ops as the note says; no trace or repetitions"
is "$(jq -r "$AP | .distance <= 0.01 and ([.buckets[] | (.now - .target) | fabs <= 0.01] | all)" "$SCRATCH/c1.json")" \
    true "age_profile: the distance and every bucket within 1 % of its target"
is "$(jq -r "$AP | [.free_before.source, .free_after.source, (.fullness > 0 and .fullness < 1), (.distance_by | keys | join(\",\"))] | join(\"|\")" "$SCRATCH/c1.json")" \
    "GETFSMAP|GETFSMAP|true|ages,depths,sizes" "age_profile: free space before and after, fullness, distance by dimension"
is "$(jq -c "$AP | [.ops, .bytes_written, .files, .distance, [.buckets[].now]]" "$SCRATCH/c2.json")" \
    "$(jq -c "$AP | [.ops, .bytes_written, .files, .distance, [.buckets[].now]]" "$SCRATCH/c1.json")" \
    "age_profile: the same seed gives the same figures"

# 3. The written target stops it (convergence off).
run_fsbench run age "${IMG[@]}" --phases age --age-profile tiny --age-converge 0 \
    --age-written 0.3 -q --json "$SCRATCH/w.json"
is "$RC" 0 "written: exits 0"
clean_target written
like "$(age_note "$SCRATCH/w.json")" '^profile tiny: written target reached after' \
    "written: the written target is named"
is "$(jq -r '.runs[0].phases[0].age_profile | "\(.stop)|\(.bytes_written > 0)"' "$SCRATCH/w.json")" \
    "written target reached|true" "age_profile: the written stop"

# 4. The fullness target stops it before the profile's 40 % are reached.
run_fsbench run age "${IMG[@]}" --phases age --age-profile tiny --age-fullness 0.2 -q \
    --json "$SCRATCH/f.json"
is "$RC" 0 "fullness: exits 0"
clean_target fullness
like "$(age_note "$SCRATCH/f.json")" '^profile tiny: fullness target reached after' \
    "fullness: the fullness target is named"

# 5. A captured profile: written, read back, aged to.
mkdir -p "$SCRATCH/real/a/b"
for i in $(seq 1 40); do head -c $((i * 300)) /dev/zero >"$SCRATCH/real/a/f$i"; done
for i in $(seq 1 20); do head -c $((i * 900)) /dev/zero >"$SCRATCH/real/a/b/g$i"; done
touch -d '20 days ago' "$SCRATCH"/real/a/b/g*
run_fsbench tree capture "$SCRATCH/real" --age-profile "$SCRATCH/real.ini"
is "$RC" 0 "capture: exits 0"
like "$(cat "$SCRATCH/real.ini")" $'\n\\[depths\\]\n1 = 0\\.0000\n2 = 66\\.6667\n3 = 33\\.3333' \
    "capture: depths of the real files"
like "$(cat "$SCRATCH/real.ini")" $'\n\\[ages\\]\n0s = 66\\.6667\n1d = 0\\.0000\n7d = 33\\.3333' \
    "capture: ages from mtimes"
run_fsbench run age "${IMG[@]}" --phases age --age-profile "$SCRATCH/real.ini" -q \
    --json "$SCRATCH/r.json"
is "$RC" 0 "captured profile: exits 0"
[ "$RC" -eq 0 ] || diag "$ERR"
clean_target captured
like "$(age_note "$SCRATCH/r.json")" '^profile real: (converged|written target reached) after' \
    "captured profile: aged to it"
diag "captured: $(age_note "$SCRATCH/r.json")"
done_testing
