#!/bin/bash
# fsbench report: one self-contained HTML page, opened in headless Chromium. No script
# errors and nothing on the console; every runs chart draws one mark per measured run and
# one median per group, as many as the data holds; a label from the store and the same run
# set exported to JSON give the same page (the same bytes); bad input is one line and exit 2
# (t0906: 20 configurations x 30 runs).
# The page begins with the overview: every ratio with its interval (one point per verdict
# that has a ratio, coloured by verdict), then compare's matrix cell for cell as compare
# prints it; the verdict table below it, collapsed. Axis ticks are in human units; latency
# is a chart of percentiles per group (t0904: six configurations and the first screen's
# screenshot).
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/page.sh"
need_cmd jq
need_cmd chromium

DB=$SCRATCH/r.db
mkdir "$SCRATCH/w"

# Three commands as configurations of one label, interleaved in rounds.
"$FSBENCH" cmd --runs 3 --db "$DB" --label three --json "$SCRATCH/three.json" \
    --cmd 'true' --cmd 'sleep 0.02' --cmd 'sleep 0.04' >/dev/null 2>&1 </dev/null
is "$?" 0 "cmd with three commands exits 0"
run_fsbench report --db "$DB" three -o "$SCRATCH/store.html"
is "$RC" 0 "report LABEL exits 0"
is "$OUT$ERR" "" "report prints nothing"
ok $(grep -qiE '<script[^>]+src=|<link[^>]+href=|<img[^>]+src=' "$SCRATCH/store.html" && echo 1 || echo 0) \
    "the page loads nothing from elsewhere"
ok $(grep -q 'Chart.js v' "$SCRATCH/store.html" && echo 0 || echo 1) "Chart.js is inlined"
dump "$SCRATCH/store.html"
check_page "store" "$SCRATCH/three.json"
like "$DOM" '<td>cmd</td><td>sleep 0.04</td><td>[0-9.]+</td>' "verdict table: a row per phase and configuration"
check_overview "store" "$SCRATCH/store.html"
# the matrix is compare's, cell for cell
run_fsbench compare --db "$DB" three
want=$(printf '%s\n' "$OUT" | awk '$1 == "cmd"' | sed -E 's/ *$//; s/  +/|/g')
got=$(printf '%s\n' "$DOM" | tr -d '\n' | grep -o '<table class="matrix">.*</table>' | sed 's/<\/table>.*//' |
    grep -o '<tr><td>cmd</td>.*' | sed -E 's/<\/tr>.*//; s/<t[dr][^>]*>//g; s/<\/td>/|/g; s/ *\|/|/g; s/\|$//')
is "$got" "$want" "the overview's matrix is compare's row for row"
like "$DOM" "cells: the baseline's geometric mean, then each group's geometric-mean ratio" \
    "the overview names the statistic as compare does"

run_fsbench report "$SCRATCH/three.json" -o "$SCRATCH/json.html"
is "$RC" 0 "report FILE.json exits 0"
ok $(cmp -s "$SCRATCH/store.html" "$SCRATCH/json.html" && echo 0 || echo 1) \
    "the JSON file and the store give the same page, byte for byte"

# Two labels of file-system phases: time lines, stalls list, latency.
for l in a b; do
    "$FSBENCH" run --db "$DB" --label $l --runs 3 --phases extract,statwalk,delete --interval 10 \
        --tree tiny --scale 2 --dir "$SCRATCH/w" --json "$SCRATCH/$l.json" >/dev/null 2>&1 </dev/null
    is "$?" 0 "run --label $l exits 0"
done
run_fsbench report --db "$DB" a b -o "$SCRATCH/ab.html"
is "$RC" 0 "report a b exits 0"
dump "$SCRATCH/ab.html"
like "$DOM" '<div id="status" data-errors="0" data-charts="([6-9]|10)" data-done="1">' \
    "a b: the overview, three runs charts, time lines (phases of 3 samples or more) and latency charts, no error"
ok $(printf '%s\n' "$DOM" | grep -q '<canvas class="timeline-chart"[^>]*data-stalls="0"' && echo 0 || echo 1) \
    "a b: extract's time line is drawn"
is "$CONSOLE" "" "a b: nothing on the console"
is "$(printf '%s\n' "$DOM" | grep -o '<canvas class="runs-chart"[^>]*>' | grep -c 'data-runs="6" data-medians="2"')" 3 \
    "a b: every phase shows 6 runs and 2 medians"
like "$DOM" '<th>p99.9</th>' "a b: latency percentiles"
lat=$(printf '%s\n' "$DOM" | grep -o '<canvas class="latency-chart"[^>]*>')
ok $([ -n "$lat" ] && echo 0 || echo 1) "a b: latency as a chart of percentiles"
is "$(printf '%s\n' "$lat" | grep -cvE 'data-lines="2" data-expect-lines="2"')" 0 "a b: a line per group in every latency chart"
check_overview "a b" "$SCRATCH/ab.html"
like "$DOM" '<td>create</td><td>a</td>' "a b: per operation kind and group"
like "$DOM" 'batches' "a b: the design of the comparison is named"

# Bad input.
lines() { if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l; fi; }
run_fsbench report --db "$DB" three
is "$RC" 2 "report without -o exits 2"
like "$ERR" '^fsbench: report: -o FILE.html' "without -o: says what is missing"
run_fsbench report --db "$DB" nosuch -o "$SCRATCH/x.html"
is "$RC" 2 "report of an unknown label exits 2"
like "$ERR" "^fsbench: report: no runs labelled 'nosuch'" "unknown label: named"
is "$(lines "$ERR")" 1 "unknown label: one line"
ok $([ -e "$SCRATCH/x.html" ] && echo 1 || echo 0) "unknown label: no page written"
run_fsbench report --db "$DB" three -o "$SCRATCH/nodir/x.html"
is "$RC" 2 "report to an unwritable path exits 2, before any work (issue 30)"
is "$ERR" "fsbench: report: -o: cannot write $SCRATCH/nodir/x.html: its directory $SCRATCH/nodir: No such file or directory" \
    "unwritable path: named, with its directory"
done_testing
