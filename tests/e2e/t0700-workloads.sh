#!/bin/bash
# The workload scenarios of issue 5 on small settings, on a plain directory and (root) on a
# 128 MiB tmpfs: compilebench (-i/-r, its summary table, determinism by seed), cvs
# (fsyncstorm: one fsync and one rename per file; --fsync-dir adds the directory fsyncs),
# createsync (one fsync per file), and age on the tmpfs (stops at the written target, says
# so; layout is skipped there for lack of FIEMAP; the aged files are measured).
. "$(dirname "$0")/../lib/tap.sh"
need_cmd jq

# phase J NAME [N]: the N-th (0-based) phase called NAME of run 0 of JSON file J.
phase() { jq -c --arg p "$2" --argjson n "${3:-0}" \
    '[.runs[0].phases[] | select(.name == $p)][$n]' "$1"; }
# field JSON-OBJECT FILTER
field() { printf '%s\n' "$1" | jq -r "$2"; }
# cmp_ok A OP B NAME: numeric comparison (awk), OP one of < <= > >= ==.
cmp_ok() {
    local a=$1 op=$2 b=$3; shift 3
    if awk -v a="$a" -v b="$b" -v op="$op" 'BEGIN {
        if (a !~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/ || b !~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) exit 1
        a += 0; b += 0
        exit !((op == "<" && a < b) || (op == "<=" && a <= b) || (op == ">" && a > b) ||
               (op == ">=" && a >= b) || (op == "==" && a == b)) }'; then
        ok 0 "$*"
    else
        ok 1 "$*"
        diag "  got: '$a' $op '$b'"
    fi
}
# skeleton NOTE: a compilebench note without its timing-dependent averages
# ("create 3 runs 74.19 MB/s; delete tree 2 runs 0.35 s" -> "create 3 runs; delete tree 2 runs").
skeleton() { printf '%s\n' "$1" | sed -E 's/^(no sync|warm caches): //; s/ [0-9]+(\.[0-9]+)? (MB\/s|s)(;|$)/\3/g'; }
# kind_runs_of_note NOTE: "kind=runs" lines, sorted.
kind_runs_of_note() {
    skeleton "$1" | tr ';' '\n' | sed -E 's/^ +//; s/^(.*) ([0-9]+) runs$/\1=\2/' | grep . | sort
}
CB_KINDS="create|patch|compile|clean|read tree|read compiled tree|delete tree|delete compiled tree|stat tree|stat compiled tree"

# compilebench WHERE DIR: the compilebench scenario, two initial kernel-shaped trees and 12
# random operations (no sync, no caches dropped: t0704 runs the method's).
compilebench() {
    local where=$1 dir=$2 j=$SCRATCH/cb.json
    run_fsbench run compilebench -i 2 -r 12 --tree kernel --scale 0.01 --cb-no-sync --dir "$dir" \
        --no-save --json "$j"
    is "$RC" 0 "$where: compilebench exits 0"
    [ "$RC" -eq 0 ] || diag "$ERR"
    local init rand tfiles
    init=$(phase "$j" cb_initial)
    rand=$(phase "$j" cb_random)
    tfiles=$(jq -r '.tree.files' "$j")
    is "$(field "$init" .status):$(field "$rand" .status)" ok:ok "$where: cb_initial and cb_random ok"
    cmp_ok "$(field "$init" .files)" ">" 0 "$where: cb_initial created files"
    is "$(field "$init" .files)" $((2 * tfiles)) "$where: cb_initial created 2 trees of $tfiles files"
    like "$(field "$init" .note)" '^no sync: initial create 2 runs [0-9.]+ MB/s; native unpatched 1 runs [0-9.]+ MB/s; native patched 1 runs [0-9.]+ MB/s; native patched compiled 1 runs [0-9.]+ MB/s$' \
        "$where: cb_initial note: initial create 2 runs ... MB/s and the reference figures"
    # compilebench's own table on stdout: one line per kind, 11 in all.
    local summary
    summary=$(printf '%s\n' "$OUT" | sed -n "/^compilebench's summary of the last run:/,\$p" | sed 1d)
    like "$summary" '^initial create total runs 2 avg [0-9]+\.[0-9]{2} MB/s \(user [0-9.]+s sys [0-9.]+s\)$' \
        "$where: summary: initial create total runs 2 avg ... MB/s"
    local k bad=""
    for k in create patch compile clean "read tree" "read compiled tree" "delete tree" \
        "delete compiled tree" "stat tree" "stat compiled tree"; do
        printf '%s\n' "$summary" | grep -Eq "^($k total runs [0-9]+ avg [0-9]+\.[0-9]{2} (MB/s|seconds) \(user [0-9.]+s sys [0-9.]+s\)|no runs for $k)\$" ||
            bad="$bad [$k]"
    done
    is "$bad" "" "$where: summary has 'total runs' or 'no runs for' for every random kind"
    is "$(printf '%s\n' "$summary" | grep -Ec "^(initial create|$CB_KINDS) total runs |^no runs for ($CB_KINDS)\$")" \
        11 "$where: summary has exactly 11 kind lines"
    # The summary's runs per kind agree with cb_random's note, and add up to -r 12.
    local from_summary
    from_summary=$(printf '%s\n' "$summary" | grep -Ev '^(initial create|native )' |
        sed -nE 's/^(.*) total runs ([0-9]+) avg .*/\1=\2/p' | sort)
    is "$from_summary" "$(kind_runs_of_note "$(field "$rand" .note)")" \
        "$where: summary's runs per kind match cb_random's note"
    is "$(printf '%s\n' "$from_summary" | awk -F= '{s += $2} END {print s + 0}')" 12 \
        "$where: 12 random operations in all"
    is "$(ls -A "$dir")" "" "$where: workspace is empty after compilebench"
    CB_RAND=$rand
}

# cvs_createsync WHERE DIR
cvs_createsync() {
    local where=$1 dir=$2 j=$SCRATCH/cvs.json jd=$SCRATCH/cvsd.json jc=$SCRATCH/cs.json
    run_fsbench run cvs --tree tiny --dir "$dir" --no-save --json "$j"
    is "$RC" 0 "$where: cvs exits 0"
    [ "$RC" -eq 0 ] || diag "$ERR"
    local files bytes n i s
    files=$(jq -r '.tree.files' "$j")
    bytes=$(jq -r '.tree.bytes' "$j")
    n=$(jq '[.runs[0].phases[] | select(.name == "fsyncstorm")] | length' "$j")
    is "$n" 2 "$where: cvs runs fsyncstorm twice"
    is "$(jq -r '[.runs[0].phases[].status] | unique | join(",")' "$j")" ok "$where: every cvs phase ok"
    for i in 0 1; do
        s=$(phase "$j" fsyncstorm $i)
        is "$(field "$s" .files)" "$files" "$where: fsyncstorm $((i + 1)) rewrote all $files files"
        is "$(field "$s" .ops.fsync)" "$files" "$where: fsyncstorm $((i + 1)): one fsync per file"
        is "$(field "$s" .ops.rename)" "$files" "$where: fsyncstorm $((i + 1)): one rename per file"
        is "$(field "$s" '"\(.bytes_read) \(.bytes_written)"')" "$bytes $bytes" \
            "$where: fsyncstorm $((i + 1)) read and wrote every byte ($bytes)"
    done
    local plain
    plain=$(field "$(phase "$j" fsyncstorm)" .ops.fsync)
    is "$(ls -A "$dir")" "" "$where: workspace is empty after cvs"

    run_fsbench run cvs --tree tiny --fsync-dir --dir "$dir" --no-save --json "$jd"
    is "$RC" 0 "$where: cvs --fsync-dir exits 0"
    s=$(phase "$jd" fsyncstorm)
    cmp_ok "$(field "$s" .ops.fsync)" ">" "$plain" \
        "$where: --fsync-dir raises the fsync count above $plain"
    is "$(field "$s" .ops.fsync)" $((2 * files)) \
        "$where: --fsync-dir: a file and a directory fsync per file"
    is "$(field "$s" .ops.rename)" "$files" "$where: --fsync-dir: still one rename per file"

    run_fsbench run createsync --tree tiny --dir "$dir" --no-save --json "$jc"
    is "$RC" 0 "$where: createsync exits 0"
    s=$(phase "$jc" createsync)
    is "$(field "$s" .status)" ok "$where: createsync ok"
    is "$(field "$s" .files)" "$files" "$where: createsync created all $files files"
    is "$(field "$s" .ops.fsync)" "$files" "$where: createsync: ops.fsync == files"
    is "$(field "$s" .ops.create)" "$files" "$where: createsync: one create per file"
    is "$(ls -A "$dir")" "" "$where: workspace is empty after createsync"
}

# ---- plain directory ----
mkdir "$SCRATCH/plain"
compilebench "dir" "$SCRATCH/plain"
PLAIN_RAND=$CB_RAND
cvs_createsync "dir" "$SCRATCH/plain"

# compilebench's model says its trees are kernel-shaped (WL_CB_KERNEL_SCALE, about a 2.6.20
# checkout); without --tree the scenario should use them. The null engine touches nothing.
run_fsbench run compilebench -i 1 -r 1 --engine null --no-save --json "$SCRATCH/cbdef.json"
is "$RC" 0 "compilebench without --tree (null engine) exits 0"
is "$(jq -r '.tree.profile' "$SCRATCH/cbdef.json")" kernel \
    "compilebench without --tree uses kernel-shaped trees"

# ---- tmpfs ----
if [ "$(id -u)" -ne 0 ]; then
    skip "needs root (tmpfs)" 58
    done_testing
    exit
fi
T=$SCRATCH/tmpfs
if ! mount_tmpfs "$T" 128m; then
    skip "cannot mount tmpfs" 58
    done_testing
    exit
fi
compilebench "tmpfs" "$T"
TMPFS_RAND=$CB_RAND
# Same seed, same operations: on another file system, and again on the same one.
is "$(skeleton "$(field "$TMPFS_RAND" .note)")" "$(skeleton "$(field "$PLAIN_RAND" .note)")" \
    "same seed: same cb_random operations on tmpfs as on the plain directory"
is "$(field "$TMPFS_RAND" '"\(.files) \(.dirs) \(.bytes_written) \(.bytes_read)"')" \
    "$(field "$PLAIN_RAND" '"\(.files) \(.dirs) \(.bytes_written) \(.bytes_read)"')" \
    "same seed: same cb_random files, dirs and bytes on tmpfs as on the plain directory"
run_fsbench run compilebench -i 2 -r 12 --tree kernel --scale 0.01 --cb-no-sync --dir "$T" \
    --no-save --json "$SCRATCH/cb2.json"
is "$RC" 0 "tmpfs: compilebench again exits 0"
again=$(phase "$SCRATCH/cb2.json" cb_random)
diag "cb_random, seed 1: $(field "$TMPFS_RAND" .note)" "cb_random, seed 1 again: $(field "$again" .note)"
is "$(skeleton "$(field "$again" .note)")" "$(skeleton "$(field "$TMPFS_RAND" .note)")" \
    "same seed twice: the same cb_random note (kinds and runs)"
is "$(field "$again" '"\(.files) \(.dirs) \(.bytes_written) \(.bytes_read)"')" \
    "$(field "$TMPFS_RAND" '"\(.files) \(.dirs) \(.bytes_written) \(.bytes_read)"')" \
    "same seed twice: the same cb_random files, dirs and bytes"
run_fsbench run compilebench -i 2 -r 12 --tree kernel --scale 0.01 --seed 3 --cb-no-sync \
    --dir "$T" --no-save --json "$SCRATCH/cb3.json"
is "$RC" 0 "tmpfs: compilebench --seed 3 exits 0"
other=$(phase "$SCRATCH/cb3.json" cb_random)
diag "cb_random, seed 3: $(field "$other" .note)"
ok $([ "$(skeleton "$(field "$other" .note)")" != "$(skeleton "$(field "$TMPFS_RAND" .note)")" ] \
    && echo 0 || echo 1) "another seed: other cb_random operations"
is "$(ls -A "$T")" "" "tmpfs: empty after the compilebench runs"

cvs_createsync "tmpfs" "$T"

# age: half the file system's size written, on 128 MiB.
run_fsbench run age --tree tiny --age-written 0.5 --dir "$T" --age-host-fs --no-save --json "$SCRATCH/age.json"
is "$RC" 0 "tmpfs: age exits 0"
[ "$RC" -eq 0 ] || diag "$ERR"
J=$SCRATCH/age.json
age=$(phase "$J" age)
note=$(field "$age" .note)
diag "age: $note"
is "$(field "$age" .status)" ok "age phase ok"
like "$note" '^wrote [0-9]+\.[0-9] MiB \([0-9]+\.[0-9]{2}x the fs\), [0-9]+ files live, fs [0-9]+% full; ' \
    "age note says how much it wrote, what is live and how full"
like "$note" '; written target reached$' "age note says why it stopped: the written target"
like "$note" '\(0\.50x the fs\)' "age note: 0.50x the fs written"
written=$(field "$age" .bytes_written)
cmp_ok "$written" ">" 0 "age wrote bytes ($written)"
cmp_ok "$written" ">=" $((128 * 1048576 / 2)) "age wrote at least half of the 128 MiB"
cmp_ok "$written" "<" $((128 * 1048576 * 6 / 10)) "age stopped soon after the written target"
live=$(printf '%s\n' "$note" | sed -nE 's/.*, ([0-9]+) files live,.*/\1/p')
lay=$(phase "$J" layout)
is "$(field "$lay" .status)" skipped "layout skipped on tmpfs"
like "$(field "$lay" .note)" 'FIEMAP is not supported by tmpfs' "layout's note names FIEMAP and tmpfs"
sw=$(phase "$J" statwalk)
rd=$(phase "$J" read)
is "$(field "$sw" .status):$(field "$rd" .status)" ok:ok "statwalk and read ok"
cmp_ok "$(field "$sw" .files)" ">=" "${live:-x}" "statwalk saw the $live live files"
cmp_ok "$(field "$sw" .files)" "<=" "$((${live:-0} + 1))" "statwalk saw the live files (and at most a marker)"
is "$(field "$rd" .files)" "$(field "$sw" .files)" "read read what statwalk saw"
cmp_ok "$(field "$rd" .bytes_read)" ">" 0 "read read the aged data"
is "$(ls -A "$T")" "" "tmpfs: empty after age"
# Same seed, same file system size: the same aging.
run_fsbench run age --tree tiny --age-written 0.5 --dir "$T" --age-host-fs --no-save --json "$SCRATCH/age2.json"
is "$(field "$(phase "$SCRATCH/age2.json" age)" .note)" "$note" "age again: the same note (deterministic)"
done_testing
