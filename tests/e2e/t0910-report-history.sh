#!/bin/bash
# report --history (issue 33): the series' page in headless Chromium: the script runs to the
# end with nothing on the console, a chart per phase drawing a point per label and a marker
# per change point (as many as the data holds), the table below; a screenshot kept as
# $FSBENCH_BUILD/artefacts/t0910-history.png.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd python3
need_cmd chromium
need_cmd jq
. "$(dirname "$0")/../lib/page.sh"

DB="$SCRATCH/h.db"
GEN="$(dirname "$0")/../lib/series_gen.py"
mkdir -p "$SCRATCH/d" "$SCRATCH/g"
run_fsbench run --dir "$SCRATCH/d" --tree tiny --runs 1 --phases extract,delete --db "$DB" --label tpl -q
run_fsbench export tpl --db "$DB" --json -o "$SCRATCH/tpl.json"
for f in $(python3 "$GEN" "$SCRATCH/tpl.json" "$SCRATCH/g" k- 1,1,1,1,1,1,1,1.2,1.2,1.2,1.2,1.2,1.2,1.2 \
    --phase extract --cov 0.02 --meta kernel=6.{i} --seed 8); do
    "$FSBENCH" import --db "$DB" "$f" >/dev/null
done

run_fsbench report --db "$DB" --history 'k-*' --by kernel -o "$SCRATCH/trend.html"
is "$RC" 0 "report --history: exit 0"
run_fsbench history --db "$DB" 'k-*' --by kernel --json
want=$(printf '%s\n' "$OUT" | jq -r '.phases[] | "\(.labels | map(select(.median != null)) | length) \(.change_points | length)"')
is "$(printf '%s\n' "$want" | head -1)" "14 1" "the data: 14 labels and one change point in extract"

dump "$SCRATCH/trend.html"
like "$DOM" "<div id=\"status\" data-errors=\"0\" data-charts=\"$(printf '%s\n' "$want" | grep -c .)\" data-done=\"1\">" \
    "the page's script ran to the end, a chart per phase, no error"
is "$CONSOLE" "" "nothing on the console"
got=$(printf '%s\n' "$DOM" | grep -o '<canvas class="history-chart"[^>]*>' |
    sed -E 's/.*data-expect-points="([0-9]+)" data-expect-markers="([0-9]+)".*data-markers="([0-9]+)" data-points="([0-9]+)".*/\4 \3 \1 \2/')
is "$(printf '%s\n' "$got" | awk '{print $1, $2}')" "$want" \
    "each chart: a point per label and a marker per change point, as in history --json"
ok $(printf '%s\n' "$got" | awk '$1 != $3 || $2 != $4' | grep -q . && echo 1 || echo 0) \
    "marks drawn equal marks in the page's data"
like "$DOM" 'extract: \+[0-9.]+ % \(95 % CI [0-9.]+-[0-9.]+ %\) from k-007 on \(first bad\)' \
    "the change point's sentence under its chart"
like "$DOM" '<tr class="change"><td>k-007</td>' "the table marks the first bad label"

run_fsbench report --db "$DB" --history 'zz-*' -o "$SCRATCH/none.html"
is "$RC" 2 "report --history of nothing: exit 2"
ok $([ ! -e "$SCRATCH/none.html" ] && echo 0 || echo 1) "no page written"

ART=${FSBENCH_BUILD:-$(cd "$(dirname "$0")/../.." && pwd)/build}/artefacts
mkdir -p "$ART"
rm -f "$ART/t0910-history.png"
timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$SCRATCH/chromium" --window-size=1280,900 \
    --screenshot="$ART/t0910-history.png" "file://$SCRATCH/trend.html" >/dev/null 2>&1
is "$(head -c 8 "$ART/t0910-history.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" 89504e470d0a1a0a \
    "the screenshot is a PNG ($ART/t0910-history.png)"
size=$(stat -c %s "$ART/t0910-history.png" 2>/dev/null || echo 0)
ok $([ "$size" -gt 30000 ] && echo 0 || echo 1) "the screenshot shows something ($size bytes)"
done_testing
