# page.sh — helpers for the HTML report's end-to-end tests (sourced after tap.sh, not
# run): the page opened in headless Chromium, the checks of its runs charts and of its
# overview.

# dump PAGE: the DOM after the page's scripts ran, into $DOM; console lines into $CONSOLE.
dump() {
    timeout 120 chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
        --user-data-dir="$SCRATCH/chromium" --dump-dom "file://$1" >"$SCRATCH/dom" 2>"$SCRATCH/chr"
    DOM=$(cat "$SCRATCH/dom")
    CONSOLE=$(grep ':CONSOLE' "$SCRATCH/chr")
}

# check_page NAME JSON: status, console, and the marks of every runs chart against JSON.
check_page() {
    local name=$1 json=$2
    like "$DOM" '<div id="status" data-errors="0" data-charts="[0-9]+" data-done="1">' \
        "$name: the page's script ran to the end with no error"
    is "$CONSOLE" "" "$name: nothing on the console"
    local got want
    got=$(printf '%s\n' "$DOM" | grep -o '<canvas class="runs-chart"[^>]*>' |
        sed -E 's/.*data-runs="([0-9]+)" data-medians="([0-9]+)".*/\1 \2/')
    # per phase of the first run: measured runs of it, and the groups that have one
    want=$(jq -r '[.runs[] | select(.warmup | not)] as $r | $r[0].phases | to_entries[] | .key as $k |
        [$r[] | select(.phases[$k].status == "ok")] | "\(length) \(map(.config) | unique | length)"' "$json")
    is "$got" "$want" "$name: each phase's chart has one mark per run and one median per configuration"
    ok $(printf '%s\n' "$DOM" | grep -o '<canvas class="runs-chart"[^>]*>' |
        grep -vE 'data-runs="([0-9]+)" data-medians="([0-9]+)" data-expect-runs="\1" data-expect-medians="\2"' |
        grep -q . && echo 1 || echo 0) "$name: marks drawn equal marks in the page's data"
}

# check_overview NAME HTML: the overview first, its chart drawing every ratio; the verdict
# table collapsed below it; every axis labelled in human units.
check_overview() {
    local name=$1 html=$2
    is "$(grep -o '<section id="[a-z]*"\|<h2>[^<]*</h2>\|<details id="[a-z]*"' "$html" | head -3 | tr '\n' ' ')" \
        '<section id="overview" <h2>Overview</h2> <h2>Set-up</h2> ' "$name: the page begins with the overview"
    local ov
    ov=$(printf '%s\n' "$DOM" | grep -o '<canvas class="overview-chart"[^>]*>')
    like "$ov" 'data-points="([1-9][0-9]*)" data-expect-points="\1"' "$name: the overview draws every ratio"
    is "$(printf '%s\n' "$DOM" | grep -oE '<section id="overview">|<details id="verdicts">' | tr '\n' ' ')" \
        '<section id="overview"> <details id="verdicts"> ' "$name: the verdict table below the overview"
    local n
    n=$(printf '%s\n' "$DOM" | perl -0ne 'print $1 if m{<details id="verdicts">(.*?)</details>}s' |
        grep -o '<tr><td>' | grep -c .)
    is "$n" "$(printf '%s\n' "$DOM" | grep -o 'verdict-count">[0-9]*' | sed 's/.*>//')" \
        "$name: the verdict table is collapsed in it, a row per verdict"
    ok $([ "$n" -gt 0 ] && echo 0 || echo 1) "$name: the verdict table has rows ($n)"
    local ticks bad
    ticks=$(printf '%s\n' "$DOM" | grep -o 'data-ticks-[xy]="[^"]*"' | sed 's/^[^"]*"//; s/"$//' | tr '|' '\n')
    bad=$(printf '%s\n' "$ticks" | grep -vE '^(0|[0-9.]+ (ns|µs|ms|s)|[0-9.]+×)$')
    is "$bad" "" "$name: every axis tick in human units (ns, µs, ms, s; ratios as 2×)"
    ok $([ -n "$ticks" ] && echo 0 || echo 1) "$name: ticks were labelled"
}
