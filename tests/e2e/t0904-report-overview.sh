#!/bin/bash
# The report at a glance, on six configurations of file-system phases (jobs interleaved in
# rounds, on tmpfs when root may mount one): the overview comes first and draws every
# ratio with its interval, each coloured as compare's matrix marks it; the matrix is
# compare's; the verdicts are collapsed below; every axis is in human units; latency is a
# chart with a line per configuration. A screenshot of the first screen is kept as
# $FSBENCH_BUILD/artefacts/t0904-overview.png.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/page.sh"
need_cmd jq
need_cmd chromium
need_cmd perl

DB=$SCRATCH/r.db
mkdir "$SCRATCH/w"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=256m fsbench-t0904 "$SCRATCH/w" 2>/dev/null; then
    diag "on tmpfs"
fi
cat >"$SCRATCH/six.ini" <<'INI'
# six configurations, interleaved in rounds
[global]
interleave = jobs
tree = tiny
scale = 0.5
runs = 3
phases = extract,copy,delete
label = six

[base]
threads = 1

[threads-2]
threads = 2

[threads-4]
threads = 4

[uring]
engine = uring

[bigger]
scale = 1

[smaller]
scale = 0.25
INI
run_fsbench run "$SCRATCH/six.ini" --dir "$SCRATCH/w" --db "$DB" --json "$SCRATCH/six.json"
is "$RC" 0 "six configurations, 3 rounds: exit 0"
[ "$RC" -eq 0 ] || diag "$ERR"
is "$(jq '[.runs[].config] | unique | length' "$SCRATCH/six.json")" 6 "six configurations"

run_fsbench report --db "$DB" six -o "$SCRATCH/six.html"
is "$RC" 0 "report six exits 0"
dump "$SCRATCH/six.html"
like "$DOM" '<div id="status" data-errors="0" data-charts="[0-9]+" data-done="1">' "no script error"
is "$CONSOLE" "" "nothing on the console"
check_overview "six" "$SCRATCH/six.html"
ov=$(printf '%s\n' "$DOM" | grep -o '<canvas class="overview-chart"[^>]*>')
like "$ov" 'data-expect-points="15"' "a ratio for each of 3 phases x 5 configurations"

# each point's colour is the verdict compare's matrix marks: * better or worse by the
# ratio's side of 1, ~ below the effect of interest, ? too few runs, nothing: no difference
run_fsbench compare --db "$DB" six
want=$(printf '%s\n' "$OUT" | awk '$1 ~ /^(extract|copy|delete)$/ {
    for (i = 4; i <= NF; i++) {
        if ($i !~ /^[0-9.]+$/) continue
        m = (i < NF && $(i + 1) ~ /^[*~?]$/) ? $(i + 1) : " "
        if (m == "*") c = ($i < 1) ? "better" : "worse"; else if (m == "~") c = "small"
        else if (m == "?") c = "few"; else c = "same"
        seen[c] = 1
    } } END { n = split("better worse small same few", o, " ")
    for (k = 1; k <= n; k++) if (o[k] in seen) printf "%s%s", s++ ? " " : "", o[k] }')
got=$(printf '%s\n' "$ov" | sed -E 's/.*data-classes="([^"]*)".*/\1/')
is "$got" "$want" "the overview's colours are compare's verdicts ($want)"
cells=$(printf '%s\n' "$DOM" | grep -o '<td class="v-[a-z]*">[^<]*</td>' | grep -c .)
is "$cells" 15 "every ratio cell of the matrix coloured by its verdict"
like "$DOM" "<p class=\"legend-text\">cells: the baseline's geometric mean" "the matrix names its statistic"

lat=$(printf '%s\n' "$DOM" | grep -o '<canvas class="latency-chart"[^>]*>')
is "$(printf '%s\n' "$lat" | grep -c .)" 3 "a latency chart per phase"
is "$(printf '%s\n' "$lat" | grep -c 'data-lines="6" data-expect-lines="6"')" 3 \
    "every latency chart has a line per configuration"
like "$lat" 'data-ticks-y="[0-9.]+ (ns|µs|ms)\|' "latency ticks in ns, µs, ms"
like "$DOM" '<details class="latency-table"><summary>latency table' "the latency table kept below the chart"

ART=${FSBENCH_BUILD:-$(cd "$(dirname "$0")/../.." && pwd)/build}/artefacts
mkdir -p "$ART"
rm -f "$ART/t0904-overview.png"
timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$SCRATCH/chromium" --window-size=1280,900 \
    --screenshot="$ART/t0904-overview.png" "file://$SCRATCH/six.html" >/dev/null 2>&1
is "$(head -c 8 "$ART/t0904-overview.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" 89504e470d0a1a0a \
    "the first screen's screenshot is a PNG ($ART/t0904-overview.png)"
size=$(stat -c %s "$ART/t0904-overview.png" 2>/dev/null || echo 0)
ok $([ "$size" -gt 30000 ] && echo 0 || echo 1) "the screenshot shows something ($size bytes)"
done_testing
