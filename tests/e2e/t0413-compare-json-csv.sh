#!/bin/bash
# compare --json and --csv: every verdict of a real compare of saved sets, per phase and
# group, with the estimates, the interval, the margins, the mark and verdict word (the same
# as the text matrix's), the rule that decided it, the runs used and the different-work
# reasons; "-" is standard output alone; bad output paths refused before any work.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd jq

DB=$SCRATCH/v.db
mkdir "$SCRATCH/w"
cd "$SCRATCH" || exit 1
quick() { # quick LABEL SCALE: a small saved set of 5 runs
    run_fsbench run --db "$DB" --dir "$SCRATCH/w" --tree tiny --scale "$2" --runs 5 \
        --phases extract,sync,walk,delete --label "$1"
}
quick L 0.3
quick M 0.3
quick S 0.1
is "$RC" 0 "three saved sets"

# ---- the same work: a verdict per phase, as the matrix marks it
run_fsbench compare L M --db "$DB" --json out.json --csv out.csv
is "$RC" 0 "compare L M --json FILE --csv FILE: exit 0"
like "$OUT" '^summary: ' "the text is printed as well when both go to files"
is "$(jq -r '.compare_version' out.json)" 1 "compare_version 1"
is "$(jq -r '[.metric.name, .metric.unit, .statistic] | join(",")' out.json)" "wall,s,geometric mean" \
    "the metric and the statistic are named"
is "$(jq -r '.verdicts | length' out.json)" 4 "one verdict per phase (4 phases, 1 compared group)"
is "$(jq -r '[.verdicts[].phase] | join(",")' out.json)" "extract,sync,walk,delete" "phases in order"
is "$(jq -r '[.verdicts[] | select(.a == "L" and .b == "M" and .group == "B")] | length' out.json)" 4 \
    "each names A, B and the group's letter"
is "$(jq -r '[.verdicts[] | select(.a_runs == 5 and .b_runs == 5)] | length' out.json)" 4 "runs used: 5 and 5"
is "$(jq -r '[.verdicts[] | select(.ratio_lo <= .ratio and .ratio <= .ratio_hi)] | length' out.json)" 4 \
    "the interval of the ratio holds the ratio"
is "$(jq -r '[.verdicts[] | select(.a_estimate > 0 and .b_estimate > 0 and .a_median > 0)] | length' out.json)" 4 \
    "A and B estimates"
is "$(jq -r '[.verdicts[] | select(.min_effect == 0.05 and .negligible_s == 0.001 and .confidence == 0.95)] | length' out.json)" 4 \
    "the margins: effect of interest 5 %, negligible floor 1 ms, 95 %"
is "$(jq -r '[.verdicts[] | select(.method == "batch" and .pairs == null and .min_runs == 5)] | length' out.json)" 4 \
    "separate sets: batches, 5 runs a group needed"
is "$(jq -r '[.verdicts[] | select(.different_work == [])] | length' out.json)" 4 "no different-work reason"
# every mark agrees with its word and rule
bad=$(jq -r '.verdicts[] | select(
      (.mark == "*" and (.verdict == "better" or .verdict == "worse") and .rule == "interval") or
      (.mark == "~" and .verdict == "below-effect") or
      (.mark == "o" and .verdict == "no-difference" and .rule == "interval") or
      (.mark == "_" and .verdict == "negligible" and .rule == "negligible-floor") or
      (.mark == "?" and (.verdict == "too-few" or .verdict == "no-ratio")) | not) | .phase' out.json)
is "$bad" "" "every verdict word and rule agree with its mark"
# the marks are the text matrix's
text_marks=$(printf '%s\n' "$OUT" | awk '/^phase /{on=1; next} on && /^$/{exit} on {print $1, $NF}')
json_marks=$(jq -r '.verdicts[] | "\(.phase) \(.mark)"' out.json)
is "$json_marks" "$text_marks" "the JSON's marks are the matrix's, phase by phase"
plain=$(jq -r '.verdicts[0].plain' out.json)
ok $(printf '%s\n' "$OUT" | tr '\n' ' ' | sed 's/   */ /g' | grep -qF "${plain%% (*}" && echo 0 || echo 1) \
    "plain: the summary's sentence"

# CSV: a header and one line a verdict, the same marks
is "$(head -1 out.csv)" "phase,group,a,b,metric,unit,a_estimate,b_estimate,a_median,b_median,a_runs,b_runs,pairs,ratio,ratio_lo,ratio_hi,p,futility_lo,futility_hi,confidence,min_effect,negligible_s,mark,verdict,rule,method,min_runs,different_work" \
    "CSV header"
is "$(wc -l <out.csv)" 5 "CSV: header + 4 verdicts"
is "$(awk -F, 'NR > 1 {print $1, $23}' out.csv)" "$json_marks" "CSV marks are the JSON's"
is "$(awk -F, 'NR > 1 {print $24 "/" $25}' out.csv | paste -sd' ')" \
    "$(jq -r '.verdicts[] | "\(.verdict)/\(.rule)"' out.json | paste -sd' ')" "CSV verdict and rule are the JSON's"

# ---- different work: no verdict, the reasons in each record
run_fsbench compare L S --db "$DB" --json -
is "$RC" 0 "compare L S --json -: exit 0"
echo "$OUT" >dw.json
ok $(jq -e . dw.json >/dev/null && echo 0 || echo 1) "standard output is the JSON alone"
is "$(jq -r '[.verdicts[] | select(.verdict == "different-work" and .rule == "different-work" and .mark == "!")] | length' dw.json)" 4 \
    "every phase: verdict different-work, mark !"
is "$(jq -r '.verdicts[0].different_work[0]' dw.json)" "scale 0.3 vs 0.1" "the first reason: scale 0.3 vs 0.1"
like "$(jq -r '.verdicts[0].different_work | join("; ")' dw.json)" "extract files [0-9]+ vs [0-9]+" \
    "the phases' file counts among the reasons"
is "$(jq -r '.differs[0] | "\(.group) \(.separate_sets) \(.different_work) \(.verdicts_withheld)"' dw.json)" \
    "B true true true" "differs: separate sets, different work, verdicts withheld"
is "$(jq -r '.differs[0].items[] | select(.what == "scale") | "\(.a) \(.b) \(.work)"' dw.json)" "0.3 0.1 true" \
    "differs lists the scale as work"
like "$(jq -r '.verdicts[0].plain' dw.json)" "^no verdict at extract: S and L did different work \(scale 0\.3 vs 0\.1" \
    "plain says why"
run_fsbench compare L S --db "$DB" --allow-different-work --csv -
is "$RC" 0 "compare L S --allow-different-work --csv -: exit 0"
ok $(printf '%s\n' "$OUT" | grep -q '^summary:' && echo 1 || echo 0) "standard output is the CSV alone"
is "$(printf '%s\n' "$OUT" | awk -F, 'NR > 1 && $24 == "different-work"' | wc -l)" 0 \
    "--allow-different-work: verdicts given"
like "$(printf '%s\n' "$OUT" | awk -F, 'NR == 2 {print $NF}')" \
    "^scale 0\.3 vs 0\.1; tree files 300 vs 100; extract files 300 vs 100(;|$)" \
    "the reasons are still listed, in the last column"
run_fsbench compare L S --db "$DB" --allow-different-work --json -
is "$(jq -r '.allow_different_work, .differs[0].verdicts_withheld' <<<"$OUT" | paste -sd' ')" "true false" \
    "the JSON says the verdicts were given anyway"

# ---- a paired verdict: configurations of one set in rounds
"$FSBENCH" cmd --runs 3 --db "$DB" --label c3 --cmd 'sleep 0.05' --cmd 'sleep 0.5' >/dev/null 2>&1 </dev/null
run_fsbench compare c3 --db "$DB" --json -
is "$(jq -r '.verdicts[0] | "\(.phase) \(.method) \(.pairs) \(.mark) \(.verdict)"' <<<"$OUT")" "cmd paired 3 * worse" \
    "configurations in rounds: paired, 3 pairs, * worse"
is "$(jq -r '.groups[1].config' <<<"$OUT")" "sleep 0.5" "the group's configuration"
like "$(jq -r '.verdicts[0].plain' <<<"$OUT")" "^sleep 0\.5 is [0-9.]+x slower than sleep 0\.05 at cmd" "plain"

# ---- bad outputs: one line, exit 2, before any work
run_fsbench compare L M --db "$DB" --json - --csv -
is "$RC" 2 "--json - --csv -: exit 2"
is "$ERR" "fsbench: compare: --json - and --csv - both name standard output: give one of them a file" "says why"
run_fsbench compare L M --db "$DB" --json - --format ministat --phase extract
is "$RC" 2 "--json - with --format ministat: exit 2"
run_fsbench compare L M --db "$DB" --json "$SCRATCH/none/x.json"
is "$RC" 2 "--json in a missing directory: exit 2"
like "$ERR" "^fsbench: compare: --json: " "names the option"
run_fsbench compare L M --db "$DB" --csv "$DB"
is "$RC" 2 "--csv over the store: refused"
like "$ERR" "SQLite database" "says it is a database"
ok $("$FSBENCH" runs --db "$DB" >/dev/null 2>&1; echo $?) "the store is intact"

done_testing
