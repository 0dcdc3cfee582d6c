#!/bin/bash
# The report's overview with few rounds: the log axis spans the ratios and at most a factor 4
# beyond them (an interval of 2 rounds reaching 1e-6x .. 1e6x is drawn to the edge, an open
# arrow there), each point is named by its configuration, not a letter alone, and the page
# opens with compare's verdicts in words.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/page.sh"
need_cmd jq
need_cmd chromium

# Two commands, 2 rounds, walls set by hand: A 1, 1 s; B 2, 40 s (an interval of 2 pairs
# spanning orders of magnitude).
"$FSBENCH" cmd --runs 2 --no-save --json "$SCRATCH/m.json" --cmd 'true' --cmd 'true # b' \
    >/dev/null 2>&1 </dev/null
is "$?" 0 "two commands, 2 rounds"
jq '.runs |= (reduce range(length) as $i (.; (.[$i].config) as $c |
        ([.[0:$i][] | select(.config == $c)] | length) as $k |
        .[$i].phases[0].wall_s = (if $c == "true" then [1, 1][$k] else [2, 40][$k] end)))' \
    "$SCRATCH/m.json" >"$SCRATCH/w.json"
run_fsbench report "$SCRATCH/w.json" -o "$SCRATCH/w.html"
is "$RC" 0 "report exits 0"
dump "$SCRATCH/w.html"
like "$DOM" '<div id="status" data-errors="0"' "no script error"
ov=$(printf '%s\n' "$DOM" | grep -o '<canvas class="overview-chart"[^>]*>')
range=$(printf '%s\n' "$ov" | sed -nE 's/.*data-y-range="([^"]*)".*/\1/p')
lo=${range% *}
hi=${range#* }
ok $(awk -v l="$lo" -v h="$hi" 'BEGIN { exit !(l >= 0.2 && h <= 50) }' && echo 0 || echo 1) \
    "the axis is clamped to a readable range ($range, the ratio about 9)"
like "$ov" 'data-clipped="1"' "the interval beyond it is drawn to the edge (an open arrow)"
like "$ov" 'data-x-ticks="true # b"' "the point is named by its configuration"
like "$DOM" '<p class="plain">too few rounds for a verdict at cmd \(2 rounds; 3 needed\)</p>' \
    "the first screen opens with the verdicts in words"
done_testing
