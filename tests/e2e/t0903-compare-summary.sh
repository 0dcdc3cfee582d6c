#!/bin/bash
# compare's compact summary: one matrix, phases x configurations, the baseline's geometric mean
# then each configuration's ratio to it with a mark for a shown difference, and each kind
# of warning once below it; the detailed blocks only with --verbose.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd jq

DB=$SCRATCH/c.db
"$FSBENCH" cmd --runs 3 --db "$DB" --label m --cmd 'sleep 0.05' --cmd 'sleep 0.5' \
    --cmd 'sleep 0.051' --json "$SCRATCH/m.json" >/dev/null 2>&1 </dev/null
is "$?" 0 "three commands, 3 rounds"
run_fsbench compare --db "$DB" m
is "$RC" 0 "compare exits 0"
like "$OUT" '^compare wall \(s, lower is better\), 95% confidence, baseline sleep 0\.05$' "header"
like "$OUT" '^phase +sleep 0\.05 +sleep 0\.5 +sleep 0\.051$' "one column per configuration"
like "$OUT" '^cmd +0\.[0-9]+ s +[0-9]+\.[0-9][0-9] \* +[0-9]\.[0-9][0-9] [*~?o]$' \
    "one row per phase: the baseline's geometric mean, the ratios, each with a mark (* a shown difference)"
is "$(printf '%s\n' "$OUT" | grep -c '^cmd ')" 1 "exactly one row for the phase"
ok $(printf '%s\n' "$OUT" | grep -q ' vs sleep' && echo 1 || echo 0) "no detail block without --verbose"
w=$(printf '%s\n' "$OUT" | grep '^warning: ' | sed 's/^warning: \([^:]*\):.*/\1/' | sort | uniq -d)
is "$w" "" "no warning kind printed twice"
like "$(printf '%s\n' "$OUT" | wc -l)" '^ *[0-9]$|^ *1[0-9]$' "the summary is short (under 20 lines)"

# the ratio shown is compare's: about 0.5 / 0.05 (the baseline also pays a fork and exec)
r=$(printf '%s\n' "$OUT" | awk '$1 == "cmd" {print $4}')
ok $(awk -v r="$r" 'BEGIN { exit !(r > 3 && r < 12) }' && echo 0 || echo 1) "sleep 0.5 is several times the baseline ($r)"

run_fsbench compare --db "$DB" --verbose m
is "$RC" 0 "compare --verbose exits 0"
like "$OUT" '^phase +sleep 0\.05 +sleep 0\.5' "--verbose: the matrix first"
like "$OUT" '^  sleep 0\.5 vs sleep 0\.05: sleep 0\.5 is [0-9.]+x slower' "--verbose: then the detail"

# Many configurations: columns become letters with a legend.
"$FSBENCH" cmd --runs 2 --db "$DB" --label wide --cmd 'true # a-rather-long-name-one' \
    --cmd 'true # a-rather-long-name-two' --cmd 'true # a-rather-long-name-three' \
    --cmd 'true # a-rather-long-name-four' --cmd 'true # a-rather-long-name-five' >/dev/null 2>&1 </dev/null
run_fsbench compare --db "$DB" wide
is "$RC" 0 "compare of five long-named configurations exits 0"
like "$OUT" '^phase +A +B +C +D +E$' "wide: letters as column heads"
like "$OUT" '^  C = true # a-rather-long-name-three$' "wide: each letter named below"
ok $(printf '%s\n' "$OUT" | awk 'length($0) > 110 && !/^(warning|advice|cells)/' | grep -q . && echo 1 || echo 0) \
    "wide: the matrix fits in 110 columns"
done_testing
