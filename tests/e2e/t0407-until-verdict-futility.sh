#!/bin/bash
# --runs until-verdict ends early in real jobs: the same command twice stops on futility (an
# effect of --min-effect or more ruled out: "no difference of P% or more", never
# "equivalent") before --max-runs, and a phase too short to judge (sync on a tmpfs, tens
# of microseconds) is reported as negligible instead of holding the set up to --max-runs;
# --negligible 0 turns the floor off, and the floor and min-effect are kept with the set.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd jq

rounds() { jq '[.runs[].round] | max + 1' "$1"; }

# on a tmpfs when root (a busy disk makes the set far longer and noisier)
mkdir -p "$SCRATCH/d"
if [ "$(id -u)" -eq 0 ] && mount_tmpfs "$SCRATCH/mem" 256m; then
    JOBDIR=$SCRATCH/mem
else
    JOBDIR=$SCRATCH/d
fi

# A/A: the same command twice, in interleaved rounds. Its noise must not depend on how busy
# the machine is, or the test fails on a loaded one (an A/A extract on a tmpfs has paired log
# ratios with an sd of 0.3-1.3 at a load of 10-20 on 2 CPUs: it once ran 40 rounds without
# ruling out even 90 %). A sleep of 1 s is one second whatever the load; what the load adds
# (starting sh and sleep, some 10-100 ms there) is a few percent of it: futility at 20 % is
# reached in 3-8 rounds there, in 3-4 on a quiet machine; 30 rounds leave room.
J=$SCRATCH/aa.json
run_fsbench cmd --runs until-verdict --max-runs 30 --min-effect 20 --no-save --json "$J" \
    --cmd 'sleep 1' --cmd 'sleep  1'
is "$RC" 0 "an A/A set (the same command twice) with --runs until-verdict exits 0"
n=$(rounds "$J")
ok $([ "$n" -lt 30 ] && echo 0 || echo 1) "the A/A set stops before --max-runs 30 ($n rounds)"
like "$OUT" "^until-verdict: every phase has a verdict after $n rounds: 0 different, 1 futile \\(no difference of 20% or more\\)$" \
    "the phase is futile, not different"
like "$OUT" '^  cmd: sleep  1 vs sleep 1: no difference of 20% or more \(futile: effect < 20% shown, CS [-+][0-9.]+\.\.[-+][0-9.]+ %; geometric-mean ratio' \
    "the futility verdict names its interval, and says no difference of 20% or more"
like "$OUT" '^summary: no difference of 20% or more at cmd \(futile; ' "said in words"
ok $(printf '%s\n' "$OUT" | grep -qi equivalent && echo 1 || echo 0) "nothing is called equivalent"
is "$(jq -r '.stopping | [.min_effect, .negligible_s] | join(" ")' "$J")" "0.2 0.001" \
    "JSON: the set keeps its min-effect and its negligible floor"
# the same rule from a saved set: compare marks it =
run_fsbench compare "$J" --json -
is "$(jq -r '.verdicts[0] | "\(.mark) \(.verdict) \(.rule) \(.method)"' <<<"$OUT")" \
    "= futile futility-interval sequential" "compare --json of the set: = futile, by the futility interval"

# A/B with a negligible phase: extract of an 8x larger tree is slower; sync on the tmpfs
# takes microseconds and its ratio wanders: without the floor it never gets a verdict.
cat >"$SCRATCH/negl.ini" <<EOF2
[global]
interleave = jobs
runs = until-verdict
max-runs = 12
tree = tiny
dir = $JOBDIR
phases = extract,sync

[small]

[big]
scale = 8
EOF2
if [ "$JOBDIR" = "$SCRATCH/mem" ]; then
    J=$SCRATCH/negl.json
    run_fsbench run "$SCRATCH/negl.ini" --no-save -q --json "$J"
    is "$RC" 0 "a job file with a negligible phase exits 0"
    n=$(rounds "$J")
    ok $([ "$n" -lt 12 ] && echo 0 || echo 1) "the negligible sync does not hold the set to --max-runs 12 ($n rounds)"
    like "$OUT" "^until-verdict: every phase has a verdict after $n rounds: 1 different, 0 futile \\(no difference of 10% or more\\), the rest negligible$" \
        "the stop counts the difference and says the rest is negligible"
    like "$OUT" '^until-verdict: negligible \(median under 1 ms on both sides, --negligible\): sync$' \
        "sync is named as negligible"
    # the floor off: sync holds the set up to --max-runs
    J=$SCRATCH/negl0.json
    run_fsbench run "$SCRATCH/negl.ini" --negligible 0 --max-runs 5 --no-save -q --json "$J"
    is "$RC" 0 "--negligible 0 exits 0"
    # Without the floor sync is judged on its own numbers like any phase. Its ratio usually
    # wanders and holds the set to --max-runs, but a slow machine (a sanitizer build, say)
    # can give the two trees' syncs a real, steady difference that is found in time: then
    # sync must have a verdict of its own. Either way it is never called negligible.
    n=$(rounds "$J")
    ok $([ "$n" -le 5 ] && echo 0 || echo 1) "--negligible 0: the set stays within --max-runs 5 ($n rounds)"
    if [ "$n" -eq 5 ] && printf '%s\n' "$OUT" | grep -q '^until-verdict: stopped at --max-runs'; then
        like "$OUT" '^until-verdict: stopped at --max-runs \(5 rounds\) with [12] of 2 comparisons undecided: (extract, )?sync$' \
            "sync holds the set to --max-runs and is named undecided"
    else
        like "$OUT" "^until-verdict: every phase has a verdict after $n rounds: [0-9]+ different, [0-9]+ futile \\(no difference of 10% or more\\)$" \
            "sync reached a verdict of its own, and nothing is left as negligible"
    fi
    ok $(printf '%s\n' "$OUT" | grep -q '^until-verdict: negligible' && echo 1 || echo 0) \
        "--negligible 0: no phase is called negligible"
    is "$(jq -r .stopping.negligible_s "$J")" 0 "JSON: the floor 0 is kept"
else
    skip "sync is negligible on a tmpfs (needs root)" 7
fi

# Bad values, one line each.
run_fsbench run "$SCRATCH/negl.ini" --negligible -1 --no-save
is "$RC" 2 "--negligible -1: exit 2"
like "$ERR" "negl\\.ini:[0-9]+: .*--negligible: '-1' is not a number from 0 to 3600" "--negligible -1: the message names the option, the value and what would do"
is "$(printf '%s\n' "$ERR" | wc -l)" 1 "--negligible -1: one line"
printf '[global]\ninterleave = jobs\nphases = extract\nruns = until-verdict\ndir = %s\n[a]\n[b]\nnegligible = 0.5\n' \
    "$SCRATCH/d" >"$SCRATCH/mixed.ini"
run_fsbench run "$SCRATCH/mixed.ini" --no-save
is "$RC" 2 "jobs with different floors: exit 2"
like "$ERR" 'job b: runs, max-runs, min-effect and negligible differ from the first job' \
    "jobs with different floors: set it in [global]"
done_testing
