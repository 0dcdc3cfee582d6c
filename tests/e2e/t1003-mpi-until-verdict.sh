#!/bin/bash
# --runs until-verdict on two MPI ranks: rank 0 (which holds the figures summed over the
# ranks) decides after every round and every rank stops at the same round, with the
# sequential verdicts printed once; interleaved jobs in rounds, on tmpfs. Seconds.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/mpi.sh"
mpi_setup 512m
mkdir -p "$SCRATCH/mnt/d"
cat >"$SCRATCH/jobs.ini" <<JOB
[global]
interleave = jobs
runs = until-verdict
max-runs = 12
dir = $SCRATCH/mnt/d
phases = extract,delete

[small]
tree = tiny

[big]
tree = tiny
scale = 8
JOB
j="$SCRATCH/uv.json"
run_mpi 2 run "$SCRATCH/jobs.ini" --no-save -q --json "$j"
is "$RC" 0 "-np 2 with runs = until-verdict exits 0"
n=$(jq '[.runs[].round] | max + 1' "$j")
ok $([ "$n" -ge 4 ] && [ "$n" -lt 12 ] && echo 0 || echo 1) "it stopped before --max-runs ($n rounds)"
like "$OUT" "^until-verdict: every phase has a verdict after $n rounds: 2 different" \
    "the verdicts are reached and said"
is "$(printf '%s\n' "$OUT" | grep -c '^until-verdict:')" 1 "said once (rank 0 alone prints)"
is "$(jq '[.runs[].phases[] | select(.name == "extract") | .ranks | length] | unique' "$j" | tr -d ' \n')" \
    "[2]" "every extract ran on both ranks"
is "$(jq -r .stopping.rule "$j")" until-verdict "the JSON keeps the stopping rule"
is "$(ls -A "$SCRATCH/mnt/d")" "" "the directory is empty afterwards"
done_testing
