#!/bin/bash
# --runs until-verdict --bisect-good G --bisect-bad B (issue 33): a bisection's candidate run
# until bisect verdict's classification against the stored good and bad labels is settled.
# Good and bad are `fsbench cmd` sets of sleeps of known length (0.2 s and 2.4 s: a ratio
# the machine's load, which adds up to half a second to a short command here, cannot flip),
# so each answer is known: a candidate sleeping 0.2 s is like good (exit 0 with
# --bisect-exit), 2.4 s like bad (1), 0.7 s between the two (125, settled after 3 looks in a
# row), one alternating 0.2/2.4 s like both until --max-runs (125); a missing label or
# other work is 128. Then the same through `fsbench run` (ends
# imported at 1/1000 and 1/100 of a real run's times: the candidate is beyond bad).
. "$(dirname "$0")/../lib/tap.sh"
need_cmd python3
need_cmd jq

DB="$SCRATCH/b.db"
run_fsbench cmd --db "$DB" --label g --runs 5 -- sleep 0.2
is "$RC" 0 "good: 5 runs of sleep 0.2"
run_fsbench cmd --db "$DB" --label b --runs 5 -- sleep 2.4
is "$RC" 0 "bad: 5 runs of sleep 2.4"

cand() { # cand LABEL ARGS...: a candidate against g and b, exit as bisect verdict
    local l=$1
    shift
    run_fsbench cmd --db "$DB" --label "$l" --runs until-verdict --max-runs 10 \
        --bisect-good g --bisect-bad b --bisect-exit "$@"
}
cand c-good -- sleep 0.2
is "$RC" 0 "a candidate like good exits 0"
# the candidate may come out a little faster than g itself: "like good (beyond it)"
like "$OUT" "bisect: cmd: c-good is like good( \\(beyond it\\))?: " "the reason: bisect verdict's sentence"
like "$OUT" "until-verdict: classified after ([0-9]+) rounds: good" "the stop line says good"
is "$(printf '%s\n' "$OUT" | grep -c '^until-verdict')" 1 "one stop line"
n=$(printf '%s\n' "$OUT" | sed -n 's/^until-verdict: classified after \([0-9]*\) rounds.*/\1/p')
like "$OUT" "saved as 'c-good' \($n runs\)" "the rounds it says were run and saved, no more"
ok $([ "${n:-0}" -ge 3 ] && [ "${n:-0}" -lt 10 ] && echo 0 || echo 1) \
    "classified between the first look (3) and --max-runs (10): $n rounds"
run_fsbench bisect verdict --db "$DB" --good g --bad b c-good
is "$RC" 0 "bisect verdict on the saved candidate agrees (0)"

cand c-bad -- sleep 2.4
is "$RC" 1 "a candidate like bad exits 1"
like "$OUT" "bisect: cmd: c-bad is like bad( \\(beyond it\\))?: " "like bad, with the reason"
like "$OUT" "until-verdict: classified after [0-9]+ rounds: bad" "the stop line says bad"

cand c-mid -- sleep 0.7
is "$RC" 125 "a candidate between good and bad exits 125"
like "$OUT" "c-mid lies between good and bad" "between: said"
like "$OUT" "until-verdict: classified after ([5-9]) rounds: cannot tell \(it differs from both ends at 3 looks in a row" \
    "between is settled after 3 looks in a row, before --max-runs"

# 0.2, 2.4, 0.2 s: like both ends at 3 rounds
printf 0 >"$SCRATCH/n"
cand c-both --max-runs 3 --cmd "n=\$(cat $SCRATCH/n); echo \$((n + 1)) >$SCRATCH/n; \
if [ \$((n % 2)) = 0 ]; then sleep 0.2; else sleep 2.4; fi"
is "$RC" 125 "a candidate like both at --max-runs exits 125"
like "$OUT" "c-both cannot be told yet \(like both: run more\)" "like both: said"
like "$OUT" "until-verdict: stopped at --max-runs \(3 rounds\) before the candidate was classified: cannot tell" \
    "the stop line says it stopped at --max-runs"

run_fsbench cmd --db "$DB" --label c-quiet --runs until-verdict --max-runs 10 \
    --bisect-good g --bisect-bad b -- sleep 2.4
is "$RC" 0 "without --bisect-exit a bad candidate's run exits 0"
like "$OUT" "classified after [0-9]+ rounds: bad" "... and still says bad"

cand c-none --bisect-good nothing -- sleep 0.1
is "$RC" 128 "--bisect-exit: a missing label is an error, 128"
like "$ERR" "no run set labelled 'nothing'" "... named"
run_fsbench cmd --db "$DB" --label c-x --runs 5 --bisect-good g --bisect-bad b -- sleep 0.1
is "$RC" 2 "--bisect-good without --runs until-verdict: usage error"
like "$ERR" "give --runs until-verdict" "... says what to give"
run_fsbench cmd --db "$DB" --label c-x --runs until-verdict --bisect-good g --bisect-bad b \
    --bisect-exit --cmd 'sleep 0.1' --cmd 'sleep 0.2'
is "$RC" 128 "two commands: refused (128 with --bisect-exit)"
like "$ERR" "the candidate is one configuration; 2 were given" "... the candidate is one"
run_fsbench cmd --db "$DB" --label c-x --runs until-verdict --bisect-good g -- sleep 0.1
like "$ERR" "--bisect-good and --bisect-bad go together" "good without bad refused"
run_fsbench cmd --db "$DB" --label c-y --runs until-verdict --bisect-good g --bisect-bad b \
    --bisect-phase nosuch -- sleep 0.1
like "$ERR" "--bisect-phase: no phase 'nosuch' in 'g'" "an unknown phase refused"

# fsbench run: other work than the cmd sets is refused after the first round
mkdir -p "$SCRATCH/d"
run_fsbench run --dir "$SCRATCH/d" --tree tiny --phases extract,delete --db "$DB" \
    --label r-x --runs until-verdict --bisect-good g --bisect-bad b --bisect-exit -q
is "$RC" 128 "run: a candidate doing other work than good: 128"
like "$ERR" "the candidate does other work than 'g' \(tree .*phases cmd vs extract,delete\)" \
    "... says what differs"

# fsbench run: ends at 1/1000 and 1/100 of a real run's times (import); the candidate, a run
# of the same work, lies beyond bad whatever the load
run_fsbench run --dir "$SCRATCH/d" --tree tiny --runs 1 --phases extract,delete --db "$DB" \
    --label tpl -q
run_fsbench export tpl --db "$DB" --json -o "$SCRATCH/tpl.json"
mkdir -p "$SCRATCH/g"
GEN="$(dirname "$0")/../lib/series_gen.py"
for f in $(python3 "$GEN" "$SCRATCH/tpl.json" "$SCRATCH/g" e- 0.001,0.01 --cov 0.02 --seed 5); do
    "$FSBENCH" import --db "$DB" "$f" >/dev/null || echo "import $f failed"
done
run_fsbench run --dir "$SCRATCH/d" --tree tiny --phases extract,delete --db "$DB" \
    --label r-cand --runs until-verdict --max-runs 6 --bisect-good e-000 --bisect-bad e-001 \
    --bisect-exit -q
is "$RC" 1 "run: the candidate beyond bad exits 1"
like "$OUT" "r-cand is like bad \(beyond it\)" "run: the reason"
like "$OUT" "until-verdict: classified after 3 rounds: bad" "run: classified at the first look"
run_fsbench runs --db "$DB"
like "$OUT" "r-cand" "run: the candidate's set is saved"
run_fsbench run --dir "$SCRATCH/d" --tree tiny --phases extract,delete --db "$DB" \
    --label r-cand2 --runs 3 --bisect-good e-000 --bisect-bad e-001 --bisect-exit -q
is "$RC" 128 "run: --bisect-good without until-verdict: 128 with --bisect-exit"
run_fsbench run --dir "$SCRATCH/d" --tree tiny --phases extract,delete --db "$DB" \
    --label r-cand2 --runs until-verdict --bisect-good e-000 --bisect-bad e-001 \
    --bisect-confidence 80 -q
is "$RC" 2 "run: --bisect-confidence 80 refused"
like "$ERR" "'80' is not 90, 95 or 99" "... with the values it takes"

done_testing
