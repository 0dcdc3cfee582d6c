#!/bin/bash
# What changes the work is kept as fields of the set (threads, mkfs options, a replayed
# trace's identity, extract's calls and their version: "work" in JSON, "_work" in the
# store's meta_json) and compare reads them: two sets differing only in threads are different
# work, in words and in compare's JSON; an extract made before extract made tar's calls is
# different work from one after; a set made before the records were kept is read from its
# stored arguments and counts.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd jq
need_cmd sqlite3

DB=$SCRATCH/w.db
mkdir "$SCRATCH/w"
cd "$SCRATCH" || exit 1
quick() { # quick LABEL ARGS...: 5 runs of tiny x0.3
    local l=$1; shift
    run_fsbench run --db "$DB" --dir "$SCRATCH/w" --tree tiny --scale 0.3 --runs 5 \
        --phases extract,walk,delete --label "$l" "$@"
}
quick one
quick four -j 4
is "$RC" 0 "two sets, -j 1 and -j 4"

# ---- the records, in the store and in JSON
is "$(sqlite3 "$DB" "SELECT json_extract(meta_json, '\$._work[0].threads') FROM run_sets WHERE label = 'four'")" 4 \
    "the store keeps threads in meta_json's _work"
"$FSBENCH" export four --json --db "$DB" >four.json
is "$(jq -c '.work' four.json)" '[{"config":"","threads":4,"mkfs_opts":"","trace":null,"extract_calls":"tar","extract_version":2}]' \
    "JSON: the work records"
is "$(jq -r '.meta // "none"' four.json)" none "and no meta of the user's appears"

# ---- threads alone differ: different work
run_fsbench compare one four --db "$DB"
is "$RC" 0 "compare one four: exit 0"
like "$OUT" "^differs: four vs one: threads 1 vs 4; .*\(different work: no verdict, marked !" "differs names threads"
like "$OUT" "no verdict at extract: four and one did different work \(threads 1 vs 4\)" "said in words"
like "$OUT" '^extract +[0-9.]+ s +[0-9.]+ !$' "the cell is marked !"
run_fsbench compare one four --db "$DB" --json -
is "$(jq -r '[.verdicts[] | select(.verdict == "different-work" and .different_work == ["threads 1 vs 4"])] | length' <<<"$OUT")" 3 \
    "JSON: every phase different-work, the reason threads 1 vs 4"
is "$(jq -r '.differs[0].items[] | select(.what == "threads") | "\(.a) \(.b) \(.work)"' <<<"$OUT")" "1 4 true" \
    "JSON differs: threads 1 vs 4, work"
# the stored command line is not what decides: a record says 4 threads whatever it says
sqlite3 "$DB" "UPDATE run_sets SET command_line = 'fsbench run -j 1' WHERE label = 'four'"
run_fsbench compare one four --db "$DB"
like "$OUT" "^differs: four vs one: threads 1 vs 4" "the record, not the stored command line"

# ---- an extract made before extract made tar's calls (as root: about one setattr an entry)
if [ "$(id -u)" -eq 0 ]; then
    "$FSBENCH" export one --json --db "$DB" >one.json
    jq 'del(.work) | .runs |= map(.phases |= map(if .name == "extract"
            then .ops.setattr = ((.files + .dirs) * 11 / 10 | floor) else . end))' one.json >old.json
    run_fsbench import old.json --label old --db "$DB"
    is "$RC" 0 "import a set as an older fsbench made it (no records, tar's calls not made)"
    run_fsbench compare old one --db "$DB"
    like "$OUT" "^differs: one vs old: extract calls before tar's calls \(v1\) vs tar .*different work" \
        "an extract from before tar's calls is different work"
    run_fsbench compare old one --db "$DB" --json -
    is "$(jq -r '.verdicts[0].different_work[0]' <<<"$OUT")" "extract calls before tar's calls (v1) vs tar" \
        "and says so in JSON"
    # the same older set with tar's counts: the same work
    jq 'del(.work)' one.json >old2.json
    run_fsbench import old2.json --label old2 --db "$DB"
    run_fsbench compare old2 one --db "$DB"
    ok $(printf '%s\n' "$OUT" | grep -q '^differs:' && echo 1 || echo 0) \
        "an older set whose counts show tar's calls: nothing differs"
    # an older set made with -j 4: its stored arguments say so
    jq 'del(.work) | .command_line = "fsbench run --dir w -j 4"' one.json >old4.json
    run_fsbench import old4.json --label old4 --db "$DB"
    run_fsbench compare old4 four --db "$DB"
    ok $(printf '%s\n' "$OUT" | grep -q 'threads' && echo 1 || echo 0) \
        "an older set's -j 4 is read from its arguments: no threads difference with four"
else
    skip "the extract's calls as root" 5
fi

# ---- hostile records are refused by name
jq '.work[0].threads = "many"' four.json >bad.json
run_fsbench import bad.json --label bad --db "$DB"
is "$RC" 1 "import of a bad work record: refused"
like "$ERR" "work\[0\]\.threads: expected an integer" "names the member"

done_testing
