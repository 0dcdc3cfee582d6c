#!/bin/bash
# A series (issue 33): --meta kept with a set; history over labels chosen by pattern or list,
# in creation, --by key (version order) or given order; a step found at its label with the
# first bad and last good named, none in a flat series; --json, --csv and --fail-on; different
# work refused unless allowed; bisect verdict's three answers (0 good, 1 bad, 125 unsure) and
# its error status. The series are made through import from one real set (tests/lib/
# series_gen.py scales its phase times per label, seeded).
. "$(dirname "$0")/../lib/tap.sh"
need_cmd python3
need_cmd jq

DB="$SCRATCH/h.db"
GEN="$(dirname "$0")/../lib/series_gen.py"
mkdir -p "$SCRATCH/d" "$SCRATCH/g"

run_fsbench run --dir "$SCRATCH/d" --tree tiny --runs 1 --phases extract,delete --db "$DB" \
    --label tpl --meta commit=abc123 --meta kernel=6.19-rc1 -q
is "$RC" 0 "a run with --meta: exit 0"
run_fsbench show tpl --db "$DB"
like "$OUT" "meta commit=abc123 kernel=6.19-rc1" "show prints the set's --meta"
run_fsbench export tpl --db "$DB" --json -o "$SCRATCH/tpl.json"
is "$(jq -r .meta.commit "$SCRATCH/tpl.json")" abc123 "export keeps meta in the JSON"
run_fsbench run --dir "$SCRATCH/d" --tree tiny --runs 1 --meta 'a b=1' --no-save -q
is "$RC" 2 "--meta with a bad key: exit 2"
like "$ERR" "^fsbench: --meta: the key holds 0x20" "--meta with a bad key: says why"
run_fsbench run --dir "$SCRATCH/d" --meta commit=1 --meta commit=2 --no-save -q
like "$ERR" "commit given twice, as '1' and as '2'" "--meta: a key twice with two values refused"

# The template's times are what this machine's run took: the detector works on logs, so
# the series' answer does not depend on them (checked below over 50 ms to 5 minutes)
# k-000..k-011: extract 15 % slower from k-006 on; created in reverse, kernels 6.0..6.11
gen() { python3 "$GEN" "$SCRATCH/tpl.json" "$SCRATCH/g" "$@"; }
imp() { for f in "$@"; do "$FSBENCH" import --db "$DB" "$f" >/dev/null || echo "import $f failed"; done; }
imp $(gen k- 1,1,1,1,1,1,1.15,1.15,1.15,1.15,1.15,1.15 --phase extract --cov 0.02 \
    --meta kernel=6.{i} --created-step -60 --seed 3)
imp $(gen n- 1,1,1,1,1,1,1,1,1,1,1,1 --phase extract --cov 0.02 --seed 4 --meta 'note==1+{i},x')

run_fsbench history 'k-*' --db "$DB" --phase extract
is "$RC" 0 "history 'k-*': exit 0"
is "$(printf '%s\n' "$OUT" | awk '$1 ~ /^k-/ || $2 ~ /^k-/' | head -1 | awk '{print ($1=="*")?$2:$1}')" \
    k-011 "the default order is creation time (k-011 was made first)"
run_fsbench history 'k-*' --db "$DB" --phase extract --by kernel
like "$OUT" "extract: \+1[0-9]\.[0-9] % \(95 % CI [0-9.]+-[0-9.]+ %\) from k-006 on \(first bad\), p = 0\.0[0-9]+; last good k-005" \
    "--by kernel: the change point named with its first bad and last good label"
is "$(printf '%s\n' "$OUT" | grep -E '^ +k-|^  \* k-' | sed 's/^ *\*\? *//' | awk '{print $1}' | tr '\n' ' ')" \
    "k-000 k-001 k-002 k-003 k-004 k-005 k-006 k-007 k-008 k-009 k-010 k-011 " \
    "--by kernel: version order (6.9 before 6.10)"
like "$(printf '%s\n' "$OUT" | grep '^  \* ')" "k-006 .*\+1[0-9]\.[0-9] %" "the first bad row is marked with its step"
ok $(printf '%s\n' "$OUT" | grep -v '^  extract: ' | awk 'length > 80' | grep -q . && echo 1 || echo 0) \
    "every line but the change point's sentence fits 80 columns"
like "$OUT" "  trend  [_.=*#+-]{12}  " "a trend line, one column a label"

run_fsbench history k-003 k-001 k-002 --by given --db "$DB" --phase extract
is "$(printf '%s\n' "$OUT" | grep -E '^ +k-' | awk '{print $1}' | tr '\n' ' ')" "k-003 k-001 k-002 " \
    "--by given: the order of the command line"
run_fsbench history 'n-*' --db "$DB" --phase extract
like "$OUT" "extract: none \(p = [0-9.]+ over 12 labels\)" "a flat series: no change point"
like "$OUT" "extract: none \(p = [0-9.]+ over 12 labels\)
    at this noise a step of [0-9]+ % mid-series is found 8 times in 10" \
    "a flat series: the smallest step it could have shown, on the next line"
run_fsbench history 'n-*' --db "$DB" --phase extract --json
d=$(printf '%s\n' "$OUT" | jq '.phases[0].detectable_pct')
ok $(awk -v d="$d" 'BEGIN { exit !(d > 1 && d < 30) }'; echo $?) \
    "--json: detectable_pct of the flat series (CoV 2 %, 12 labels): $d %"
run_fsbench history 'k-*' --db "$DB" --phase extract --json
is "$(printf '%s\n' "$OUT" | jq '.phases[0].detectable_pct')" null \
    "--json: no detectable_pct where a change point was found"
run_fsbench history 'k-*' --db "$DB" --by commit
is "$RC" 2 "--by a key the labels lack: exit 2"
like "$ERR" "--by commit: label 'k-0[0-9]+' has no commit" "--by a missing key: names the label"

run_fsbench history 'k-*' --db "$DB" --by kernel --json
is "$(printf '%s\n' "$OUT" | jq -r '.phases[] | select(.phase == "extract") | .change_points[0].first')" k-006 \
    "--json: the first bad label"
is "$(printf '%s\n' "$OUT" | jq -r '.phases[] | select(.phase == "extract") | .change_points[0].last_before')" k-005 \
    "--json: the last good label"
run_fsbench history 'k-*' --db "$DB" --by kernel --csv --phase extract
is "$(printf '%s\n' "$OUT" | head -1)" "phase,label,runs,median,lo,hi,change,change_pct,change_lo_pct,change_hi_pct,p,meta.kernel" "--csv: its header, a column per --meta key"
like "$(printf '%s\n' "$OUT" | grep '^extract,k-010,')" ",6\.10$" "--csv: each label's --meta value in its column"
like "$(printf '%s\n' "$OUT" | grep '^extract,k-006,')" "^extract,k-006,5,[0-9.e-]+,[0-9.e-]+,[0-9.e-]+,1,1[0-9]\." "--csv: the change on its row"
run_fsbench history 'n-*' --db "$DB" --csv --phase extract
like "$(printf '%s\n' "$OUT" | grep '^extract,n-003,')" ",\"'=1\+3,x\"$" \
    "--csv: a --meta value quoted, and kept from being read as a formula"
run_fsbench history 'k-*' --db "$DB" --by kernel --json --phase extract
is "$(printf '%s\n' "$OUT" | jq -r '.series[] | select(.label == "k-010") | .meta.kernel')" 6.10 \
    "--json: each label's --meta notes in series[].meta"

run_fsbench history 'k-*' --db "$DB" --by kernel --phase extract --fail-on regression=5
is "$RC" 1 "--fail-on regression=5: a 15 % slowdown exits 1"
like "$ERR" "fsbench: history: --fail-on regression=5%: extract: \+1" "--fail-on: says which"
run_fsbench history 'k-*' --db "$DB" --by kernel --phase extract --fail-on regression=40
is "$RC" 0 "--fail-on regression=40: a 15 % slowdown passes"
run_fsbench history 'n-*' --db "$DB" --fail-on regression
is "$RC" 0 "--fail-on regression: a flat series passes"

# Scale-free: the k- series again, its template's extract time set to 50 ms, 0.29 s, 1.7 s
# and 5 minutes (before the detector centred its segments, 0.05, 0.29 and 1.7 s each gave a
# second change point, about -1 %, whose interval held 0): one change, the same sentence,
# and no change point anywhere whose interval holds 0
ref=$("$FSBENCH" history 'k-*' --db "$DB" --by kernel --phase extract | grep '^  extract: ')
for t in 0.05 0.29 1.7 300; do
    mkdir -p "$SCRATCH/s$t"
    jq "(.runs[0].phases[] | select(.name == \"extract\")) |= (.wall_s = $t)" "$SCRATCH/tpl.json" \
        >"$SCRATCH/s$t/tpl.json"
    for f in $(python3 "$GEN" "$SCRATCH/s$t/tpl.json" "$SCRATCH/s$t" "t$t-" \
        1,1,1,1,1,1,1.15,1.15,1.15,1.15,1.15,1.15 --phase extract --cov 0.02 \
        --meta kernel=6.{i} --created-step -60 --seed 3); do
        "$FSBENCH" import --db "$SCRATCH/s$t.db" "$f" >/dev/null || echo "import $f failed"
    done
    run_fsbench history "t$t-*" --db "$SCRATCH/s$t.db" --by kernel --json
    is "$(printf '%s\n' "$OUT" | jq -r '.phases[] | select(.phase == "extract") | [.change_points[].first] | join(" ")')" \
        "t$t-006" "extract $t s: one change point, at the step"
    is "$(printf '%s\n' "$OUT" | jq '[.phases[].change_points[] | select(.lo <= 1 and .hi >= 1)] | length')" 0 \
        "extract $t s: no change point whose interval holds no change"
    run_fsbench history "t$t-*" --db "$SCRATCH/s$t.db" --by kernel --phase extract
    is "$(printf '%s\n' "$OUT" | grep '^  extract: ' | sed "s/t$t-/k-/g")" "$ref" \
        "extract $t s: the sentence of the series at this machine's time"
done

# different work: a set claiming another tree scale is refused in the series
imp $(gen w- 1 --tree-scale 2 --seed 5)
run_fsbench history 'k-*' w-000 --db "$DB"
is "$RC" 2 "different work in one series: exit 2"
like "$ERR" "'k-0[0-9]+' and 'w-000' did different work \(scale 1 vs 2\): a series compares the same work.*--allow-different-work" \
    "different work: refused with the reason (compare's words for it)"
# named first, the odd set is read first: still named against the series' first label
run_fsbench history w-000 'k-*' --db "$DB"
is "$RC" 2 "different work read first: exit 2"
like "$ERR" "'k-0[0-9]+' and 'w-000' did different work \(scale 1 vs 2\)" \
    "different work read first: named against the first label in the series' order"
run_fsbench history 'k-*' w-000 --db "$DB" --allow-different-work --phase extract
is "$RC" 0 "--allow-different-work takes it"
run_fsbench history 'zz-*' --db "$DB"
is "$RC" 2 "a pattern matching nothing: exit 2"
like "$ERR" "no label matches 'zz-\*'" "a pattern matching nothing: said"

# bisect verdict: k-000 good, k-011 bad
run_fsbench bisect verdict --db "$DB" --good k-000 --bad k-011 k-002
is "$RC" 0 "bisect: a candidate like good exits 0"
like "$ERR" "^bisect: extract: k-002 is like good" "bisect: good, with the reason on stderr"
run_fsbench bisect verdict --db "$DB" --good k-000 --bad k-011 k-008
is "$RC" 1 "bisect: a candidate like bad exits 1"
like "$ERR" "^bisect: extract: k-008 is like bad" "bisect: bad, with the reason"
imp $(gen m- 1.07 --runs 2 --cov 0.05 --phase extract --seed 6)
run_fsbench bisect verdict --db "$DB" --good k-000 --bad k-011 m-000
is "$RC" 125 "bisect: a candidate between, with two runs, exits 125"
like "$ERR" "^bisect: extract: m-000 (cannot be told yet|lies between)" "bisect: unsure, says so"
run_fsbench bisect verdict --db "$DB" --good k-000 --bad k-011 nothing
is "$RC" 128 "bisect: a missing candidate is an error (128: git bisect run stops)"
run_fsbench bisect verdict --db "$DB" --good n-000 --bad n-011 n-005
is "$RC" 125 "bisect: good and bad that do not differ: 125"
like "$ERR" "show no difference in any phase" "bisect: says good and bad do not differ"
done_testing
