#!/bin/bash
# A plan must not cost the run: --dry-run of a 1 TB tree (130 million entries, which streaming
# takes a minute to count) or of a 10^11-file one answers in seconds, says its figures are
# estimates with their 95% intervals, and the estimates agree with the streamed truth
# (tree stats) within those intervals; a small tree's plan stays exact.
. "$(dirname "$0")/../lib/tap.sh"

# timed SECONDS NAME -- ARGS: fsbench ARGS within SECONDS (and at most 120 s in all).
timed() {
    local limit=$1 name=$2 t0 t1; shift 3
    t0=$(date +%s.%N)
    timeout 120 "$FSBENCH" "$@" >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null
    RC=$?
    t1=$(date +%s.%N)
    OUT=$(cat "$SCRATCH/out")
    ERR=$(cat "$SCRATCH/err")
    ELAPSED=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    is "$RC" 0 "$name: exit 0"
    ok "$(awk -v e="$ELAPSED" -v l="$limit" 'BEGIN { print (e < l) ? 0 : 1 }')" \
        "$name: answered in ${ELAPSED} s (under $limit s)"
}

# 1. --size 1T: sizing and the plan, in seconds; the tree line says what is estimated.
timed 20 "--dry-run --size 1T" -- run --dry-run --phases extract --size 1T
like "$OUT" "tree: tiny x[0-9.]+ seed 1: 1[0-9]{8} files, [0-9]+ dirs, about [0-9]+ \(\+-[0-9.]+%\) symlinks, 1\.0[0-9] TiB of content \(\+-0\.[0-9]+%\)" \
    "--size 1T: about 1 TiB of content, each estimate with its interval"
like "$OUT" "not streamed: sizes and symlinks estimated from 1048576 of its files; \+- is a 95% interval" \
    "--size 1T: the plan says its figures are estimates, and from what"

# 2. 10^11 files: still seconds (streaming would take days).
timed 30 "--dry-run --scale 1e8" -- run --dry-run --phases extract --scale 1e8
like "$OUT" "tree: tiny x1e\+08 seed 1: 100000000000 files, about [0-9]+ \(\+-[0-9.]+%\) dirs" \
    "--scale 1e8: the directory count estimated from sampled subtrees"

# 3. The estimates agree with the truth within their intervals (1.5 million files, streamed by
#    tree stats).
run_fsbench run --dry-run --phases extract --scale 1500
line=$(printf '%s\n' "$OUT" | grep '^  tree: ')
run_fsbench tree stats tiny --scale 1500
bytes=$(printf '%s\n' "$OUT" | awk '$1 == "bytes" { print $2 }')
dirs=$(printf '%s\n' "$OUT" | awk '$1 == "dirs" { print $2 }')
syms=$(printf '%s\n' "$OUT" | awk '$1 == "symlinks" { print $2 }')
gib=$(printf '%s\n' "$line" | sed -n 's/.* \([0-9.]*\) GiB of content (+-\([0-9.]*\)%).*/\1 \2/p')
ok "$(awk -v g="${gib% *}" -v p="${gib#* }" -v b="$bytes" 'BEGIN {
        e = g * 1073741824; d = e - b; if (d < 0) d = -d
        print (p > 0 && d <= e * p / 100 + 0.005 * 1073741824) ? 0 : 1 }')" \
    "content: the estimate (${gib% *} GiB +-${gib#* }%) holds the streamed $bytes bytes"
like "$line" " $dirs dirs" "directories: $dirs, exact (every subtree walked at this size)"
sym=$(printf '%s\n' "$line" | sed -n 's/.*about \([0-9]*\) (+-\([0-9.]*\)%) symlinks.*/\1 \2/p')
ok "$(awk -v s="${sym% *}" -v p="${sym#* }" -v t="$syms" 'BEGIN {
        d = s - t; if (d < 0) d = -d; print (p > 0 && d <= s * p / 100 + 1) ? 0 : 1 }')" \
    "symlinks: the estimate (${sym% *} +-${sym#* }%) holds the streamed $syms"

# 4. A small tree is streamed: exact figures, no interval.
run_fsbench run --dry-run --phases extract --tree kernel
like "$OUT" "tree: kernel x1 seed 1: 80000 files, [0-9]+ dirs, [0-9]+ symlinks, [0-9.]+ (MiB|GiB) of content, about" \
    "a small tree: exact figures"
ok "$(printf '%s\n' "$OUT" | grep -c 'not streamed')" "a small tree: not called an estimate"
done_testing
