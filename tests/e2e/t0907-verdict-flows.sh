#!/bin/bash
# A verdict that is true in every flow: a label names one set (run, import, a run copied
# into a JSON twice); compare says what differs between the sets and gives no verdict on
# different work; no mark under the documented minimum of pairs; every cell carries a mark
# of the legend; the verdicts in words after compare, cmd and a run with configurations;
# two sets with no phase in common; a ratio far under 1 told from zero.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd jq

DB=$SCRATCH/v.db
mkdir "$SCRATCH/w"
quick() { # quick LABEL SCALE RUNS: a small run in $SCRATCH/w
    run_fsbench run --db "$DB" --dir "$SCRATCH/w" --tree tiny --scale "$2" --runs "$3" \
        --phases extract,walk,delete --label "$1"
}
lines() { if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l; fi; }
# every cell of compare's matrix ends in one of the legend's marks
unmarked() {
    printf '%s\n' "$1" | awk '/^phase /{on=1; next} on && /^$/{exit}
        on { for (i = 3; i <= NF; i++) if ($i ~ /^[0-9.e+-]+$/ && $(i+1) !~ /^[*~o=?_!]$/) print }'
}

# ---- a label names one set
quick L 0.3 5
is "$RC" 0 "run --label L: exit 0"
quick L 0.3 1
is "$RC" 2 "run --label L again: refused (exit 2)"
like "$ERR" "'fsbench run --resume L', or choose another label" "names --resume L or another label"
is "$(lines "$ERR")" 1 "one line"
cd "$SCRATCH" || exit 1 # the files below are the test's own
"$FSBENCH" export L --json --db "$DB" >e.json
run_fsbench import e.json --db "$DB"
is "$RC" 2 "import of a set whose label exists: refused (exit 2)"
like "$ERR" "^fsbench: import: e\.json: a run set labelled 'L' exists already; import it under another label with --label NEW" \
    "and says --label NEW"
is "$("$FSBENCH" runs --labels --db "$DB" | grep -c '^L$')" 1 "runs lists one set L"
run_fsbench show L --db "$DB"
like "$OUT" 'engine posix, 5 runs$' "show L: its 5 runs, not 10"
# the same run twice in one file: kept once
jq '.runs += [.runs[0]]' e.json >twice.json
run_fsbench import twice.json --label L2 --db "$DB"
is "$RC" 0 "import --label L2 of a file holding a run twice: exit 0"
like "$OUT" "^imported 5 runs as 'L2'$" "5 runs, not 6"
like "$ERR" "1 run appeared twice .*: kept once" "says the copy was left out"

# ---- comparing different work: listed, no verdict mark, the cell says why
quick S 0.1 5
run_fsbench compare L S --db "$DB"
is "$RC" 0 "compare L S (x0.3 against x0.1): exit 0"
like "$OUT" "^differs: S vs L: scale 0\.3 vs 0\.1; tree files [0-9]+ vs [0-9]+; extract files [0-9]+ vs [0-9]+.*\(different work: no verdict, marked !" \
    "what differs, and that it is different work"
like "$OUT" '^extract +[0-9.]+ s +[0-9.]+ !$' "extract: a ratio, marked ! (no verdict)"
like "$OUT" '^delete +[0-9.]+ s +[0-9.]+ !$' "delete: marked ! too"
like "$OUT" "no verdict at extract: S and L did different work \(scale 0\.3 vs 0\.1" \
    "the summary says why in words"
ok $(printf '%s\n' "$OUT" | grep -qE '^(extract|walk|delete) .* \*$' && echo 1 || echo 0) "no * on different work"
run_fsbench compare L S --db "$DB" --allow-different-work
like "$OUT" '^extract +[0-9.]+ s +[0-9.]+ [*~o?_]$' "--allow-different-work: a verdict's mark"
like "$OUT" 'different work: verdicts given, --allow-different-work' "and says so"
run_fsbench compare L S --db "$DB" --format ministat --phase extract
like "$ERR" "^differs: S vs L: scale 0\.3 vs 0\.1" "ministat format: what differs, on stderr (stdout is ministat's)"
ok $(printf '%s\n' "$OUT" | grep -q differs && echo 1 || echo 0) "and not in ministat's output"
# the same work: no differs line about the work, verdicts given
run_fsbench compare L L2 --db "$DB"
ok $(printf '%s\n' "$OUT" | grep -qE '^differs:|did different work' && echo 1 || echo 0) "the same work: nothing differs, not called different"
is "$(unmarked "$OUT")" "" "every cell of L against L2 carries a mark"

# ---- marks from too few rounds: none under 3 pairs, given at 3
"$FSBENCH" cmd --runs 2 --db "$DB" --label c2 --cmd 'sleep 0.05' --cmd 'sleep 1' >/dev/null 2>&1 </dev/null
"$FSBENCH" cmd --runs 3 --db "$DB" --label c3 --cmd 'sleep 0.05' --cmd 'sleep 1' >c3.out 2>&1 </dev/null
run_fsbench compare c2 --db "$DB"
like "$OUT" '^cmd +[0-9.]+ s +[0-9.]+ \?$' "2 rounds: a ratio marked ? (fewer than 3 pairs)"
like "$OUT" 'too few rounds for a verdict at cmd \(2 rounds; 3 needed\)' "and in words"
run_fsbench compare c3 --db "$DB"
like "$OUT" '^cmd +[0-9.]+ s +[0-9.]+ [*~o]$' "3 rounds: a verdict's mark (* on a quiet machine)"
SAID="^summary: (sleep 1 is [0-9.]+x slower than sleep 0\.05 at cmd \(95% CI [0-9.]+-[0-9.]+|no difference at cmd \(within ±[0-9]+%), 3 rounds\)"
like "$OUT" "$SAID" "compare says it in words"
like "$(cat c3.out)" "$SAID" "cmd says it in words after its table"
is "$(unmarked "$OUT")" "" "every cell of a cmd set carries a mark"
like "$OUT" "o no difference shown" "the legend names o"

# ---- no phase in common
run_fsbench compare L c3 --db "$DB"
is "$RC" 2 "compare of sets with no phase in common: exit 2"
like "$ERR" "have no phase in common" "says so"

# ---- a ratio far under 1: told from zero
"$FSBENCH" cmd --runs 3 --db "$DB" --label small --cmd 'sleep 0.5' --cmd 'true' >/dev/null 2>&1 </dev/null
run_fsbench compare small --db "$DB"
like "$OUT" '^cmd +[0-9.]+ s +0\.[0-9]+ [*~o?]$' "a ratio under 1, with its mark"
ok $(printf '%s\n' "$OUT" | grep -qE '^cmd .* 0\.00? ' && echo 1 || echo 0) \
    "never printed as 0.00 (test_compare: 0.005 prints 0.005)"
# ---- io_uring with threads counts what posix counts (deferred and bookkeeping closes)
mkdir "$SCRATCH/u"
for e in posix uring; do
    "$FSBENCH" run --no-save --engine $e -j 4 --dir "$SCRATCH/u" --tree tiny --scale 0.3 \
        --phases extract,walk,delete --runs 1 --json "$SCRATCH/$e.json" >/dev/null 2>&1
    eval "rc_$e=$?"
done
if [ "$rc_uring" -ne 0 ]; then
    skip "io_uring is not available here" 2
else
    ops() { jq -c '[.runs[0].phases[] | [.name, .ops.open, .ops.close]]' "$SCRATCH/$1.json"; }
    is "$(ops uring)" "$(ops posix)" "--engine uring -j 4: opens and closes per phase equal posix's"
    is "$(jq '.runs[0].phases[] | select(.name == "delete") | .ops.close' "$SCRATCH/uring.json")" \
        "$(jq '.runs[0].phases[] | select(.name == "delete") | .ops.open' "$SCRATCH/uring.json")" \
        "delete: as many closes as opens"
fi
done_testing
