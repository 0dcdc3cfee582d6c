#!/bin/bash
# fsbench report at size: 20 configurations x 30 runs, each extract with a 1,000-point time
# line (cut to 600 points), make a page under 10 MB that still draws every mark, with a
# distinct colour for each of the 20 configurations; --points makes it smaller.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/page.sh"
need_cmd jq
need_cmd chromium

mkdir "$SCRATCH/w"
# One run of file-system phases with a time line: the model of every run below.
"$FSBENCH" run --no-save --phases extract,statwalk,delete --interval 10 --tree tiny --scale 2 \
    --dir "$SCRATCH/w" --json "$SCRATCH/a.json" >/dev/null 2>&1 </dev/null
is "$?" 0 "a run with time lines exits 0"

# 20 configurations x 30 runs, each extract with a 1,000-point time line: cut to 600.
jq --argjson n 1000 '[range($n) | [. / 10, . * 50, . * 4096]] as $tl | .runs[0] as $r0 |
    .runs = [range(30) as $round | range(20) as $c |
    $r0 | .config = "config-\($c)" | .round = $round | .index = ($round * 20 + $c) |
    .phases |= map(.wall_s *= (1 + ((($round * 7 + $c * 3) % 10) / 100)) |
        if .name == "extract" then .timeline = $tl else . end)]' \
    "$SCRATCH/a.json" >"$SCRATCH/big.json"
is "$(jq '.runs | length' "$SCRATCH/big.json")" 600 "big: 600 runs in 20 configurations"
run_fsbench report "$SCRATCH/big.json" -o "$SCRATCH/big.html"
is "$RC" 0 "report of 20 x 30 exits 0"
size=$(stat -c %s "$SCRATCH/big.html")
diag "20 x 30: $size bytes"
ok $([ "$size" -le 10000000 ] && echo 0 || echo 1) "20 x 30: the page is under 10 MB ($size bytes)"
dump "$SCRATCH/big.html"
check_page "20 x 30" "$SCRATCH/big.json"
colors=$(printf '%s\n' "$DOM" | grep -o '<span class="key" style="border-color: [^"]*"' | sed 's/.*border-color: //')
is "$(printf '%s\n' "$colors" | grep -c .)" 20 "20 x 30: a key for every configuration"
is "$(printf '%s\n' "$colors" | sort -u | grep -c .)" 20 "20 x 30: 20 distinct colours"
run_fsbench report "$SCRATCH/big.json" -o "$SCRATCH/cut.html" --points 16
is "$RC" 0 "--points 16 exits 0"
ok $([ "$(stat -c %s "$SCRATCH/cut.html")" -lt "$size" ] && echo 0 || echo 1) "--points 16: a smaller page"

done_testing
