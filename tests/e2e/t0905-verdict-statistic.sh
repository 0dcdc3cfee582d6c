#!/bin/bash
# Verdicts that say exactly what they are. compare's matrix: the baseline's geometric mean,
# then each group's geometric-mean ratio, and the legend says so; on a set whose medians'
# ratio (2.00) and geometric-mean ratio (1.59) differ clearly the cell is the named one.
# Outliers are looked for only from 5 runs on. The text table's latency column shows the
# operation that took most of the phase's time.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd jq

# Two commands, 3 rounds, then their wall times set by hand: A 1, 1, 8 s; B 1, 2, 16 s.
"$FSBENCH" cmd --runs 3 --no-save --json "$SCRATCH/m.json" --cmd 'true' --cmd 'true # b' \
    >/dev/null 2>&1 </dev/null
is "$?" 0 "two commands, 3 rounds"
# set WALLS_A WALLS_B OUT: each configuration's k-th measured run gets the k-th wall time
set_walls() {
    jq --argjson a "$1" --argjson b "$2" '.runs |= (
        [.[] | select(.config == "true")] as $A | . as $all | reduce range(length) as $i ($all;
        (.[$i].config) as $c | ([$all[0:$i][] | select(.config == $c)] | length) as $k |
        .[$i].phases[0].wall_s = (if $c == "true" then $a[$k] else $b[$k] end)))' \
        "$SCRATCH/m.json" >"$3"
}
set_walls '[1,1,8]' '[1,2,16]' "$SCRATCH/g.json"
is "$(jq -c '[.runs[] | .phases[0].wall_s]' "$SCRATCH/g.json" | tr -d ' ')" \
    "$(jq -c '[.runs[] | if .config == "true" then "a" else "b" end]' "$SCRATCH/m.json" |
        jq -c --argjson a '[1,1,8]' --argjson b '[1,2,16]' 'reduce .[] as $x ({o: [], i: 0, j: 0};
        if $x == "a" then .o += [$a[.i]] | .i += 1 else .o += [$b[.j]] | .j += 1 end) | .o')" \
    "the walls as set"
run_fsbench compare "$SCRATCH/g.json"
is "$RC" 0 "compare exits 0"
row=$(printf '%s\n' "$OUT" | awk '$1 == "cmd"')
base=$(printf '%s\n' "$row" | awk '{print $2}')
cell=$(printf '%s\n' "$row" | awk '{print $4}')
want=$(awk 'BEGIN { printf "%.2f", exp((log(1) + log(2) + log(2)) / 3) }')
is "$cell" "$want" "the cell is the geometric-mean ratio exp(mean ln B/A) = $want"
ok $([ "$cell" != "2.00" ] && echo 0 || echo 1) "not the medians' ratio 2.00"
is "$base" 2 "the baseline's cell is its geometric mean (2 s; its median is 1 s)"
like "$OUT" "^cells: the baseline's geometric mean, then each group's geometric-mean ratio to" \
    "the legend names both statistics"
ok $(printf '%s\n' "$OUT" | grep -q median && echo 1 || echo 0) "the matrix says nothing of medians"

# Outliers: a far run among 3 is not called one; among 5 it is.
set_walls '[1,1.01,3]' '[1,1.01,1.02]' "$SCRATCH/o3.json"
run_fsbench compare "$SCRATCH/o3.json"
ok $(printf '%s\n' "$OUT" | grep -q 'outliers' && echo 1 || echo 0) "3 runs: no outlier flagged"
"$FSBENCH" cmd --runs 5 --no-save --json "$SCRATCH/m.json" --cmd 'true' --cmd 'true # b' \
    >/dev/null 2>&1 </dev/null
set_walls '[1,1.01,0.99,1.02,3]' '[1,1.01,1.02,0.99,1]' "$SCRATCH/o5.json"
run_fsbench compare "$SCRATCH/o5.json"
like "$OUT" '^warning: outliers \(modified z-score above 3\.5, from 5 runs on\): cmd \(true\)$' \
    "5 runs: the far run is an outlier, and the warning says from how many runs"

# The latency column: the operation that took most of the phase's time.
mkdir "$SCRATCH/w"
run_fsbench run --wide --runs 1 --no-save --tree tiny --scale 0.5 --phases extract,copy --dir "$SCRATCH/w" \
    --json "$SCRATCH/c.json"
is "$RC" 0 "extract and copy: exit 0"
got=$(printf '%s\n' "$OUT" | awk '$1 == "copy" {print $(NF-5)}')
want=$(jq -r '.runs[0].phases[] | select(.name == "copy") | .latency | to_entries |
    max_by(.value.count * .value.mean_ns) | .key' "$SCRATCH/c.json")
is "$got" "$want" "copy's latency column names the operation that took most time ($want)"
most=$(jq -r '.runs[0].phases[] | select(.name == "copy") | .latency | to_entries |
    max_by(.value.count) | .key' "$SCRATCH/c.json")
diag "copy: most time in $want, most calls $most"
done_testing
