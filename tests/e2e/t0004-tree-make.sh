#!/bin/bash
# Trees are deterministic: the same profile, scale and seed give identical trees (diff -r
# clean); another seed gives another tree. tree stats writes nothing and agrees with make.
. "$(dirname "$0")/../lib/tap.sh"

run_fsbench tree make tiny "$SCRATCH/A" --seed 7
is "$RC" 0 "tree make A exits 0"
like "$OUT" '^wrote [0-9]+ files' "tree make reports what it wrote"
made=$(printf '%s\n' "$OUT" | sed -n 's/^wrote \([0-9]*\) files.*/\1/p')
run_fsbench tree make tiny "$SCRATCH/B" --seed 7
is "$RC" 0 "tree make B exits 0"
diff -r --no-dereference "$SCRATCH/A" "$SCRATCH/B" >/dev/null
ok $? "same seed: diff -r finds no difference"
is "$(cd "$SCRATCH/A" && find . -printf '%p %y %s %m\n' | sort | md5sum)" \
   "$(cd "$SCRATCH/B" && find . -printf '%p %y %s %m\n' | sort | md5sum)" \
   "same seed: same names, types, sizes and modes"
run_fsbench tree make tiny "$SCRATCH/C" --seed 8
diff -r --no-dereference "$SCRATCH/A" "$SCRATCH/C" >/dev/null
ok $([ $? -ne 0 ] && echo 0 || echo 1) "another seed: another tree"
is "$(find "$SCRATCH/A" -type f | wc -l)" "$made" "find counts the files tree make reported"

run_fsbench tree stats tiny --seed 7
is "$RC" 0 "tree stats exits 0"
like "$OUT" "^files +$made$" "tree stats counts the same files"
bytes=$(printf '%s\n' "$OUT" | sed -n 's/^bytes *\([0-9]*\) .*/\1/p')
is "$(find "$SCRATCH/A" -type f -printf '%s\n' | awk '{s += $1} END {print s}')" "$bytes" \
   "tree stats counts the same bytes"

run_fsbench tree make tiny "$SCRATCH/A"
is "$RC" 2 "tree make into a non-empty directory is refused"
like "$ERR" 'not empty' "and says so"
run_fsbench tree stats nope
is "$RC" 2 "tree stats of an unknown profile is refused"
run_fsbench list
is "$RC" 0 "list exits 0"
like "$OUT" '^  pkgsrc +[0-9]+ files' "list shows the pkgsrc profile with its file count"
like "$OUT" '\(-v: where each profile.s shape comes from\)' "list says -v names each profile's source"
like "$("$FSBENCH" list -v)" 'source: ' "list -v names the source of each profile"
like "$OUT" '^  basic ' "list shows the basic scenario"
done_testing
