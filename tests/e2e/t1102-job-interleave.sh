#!/bin/bash
# interleave = jobs (issue 14): the jobs of a file become the configurations of one run
# set, run in rounds (every job once a round, in a seeded random order), each job with its
# own settings; compare pairs them by round. Without it the same file makes one run set
# per job, one job after the other.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd jq

cd "$SCRATCH" || exit 1
DB="$SCRATCH/r.db"
cat >il.ini <<'INI'
# two thread counts, compared honestly: interleaved in rounds
[global]
interleave = jobs
tree = tiny
scale = 0.5
runs = 3
phases = extract,walk,delete
label = il

[one]
threads = 1

[two]
threads = 2
phases = extract,statwalk,delete
INI

run_fsbench run il.ini --dry-run --db "$DB"
is "$RC" 0 "--dry-run: exit 0"
like "$OUT" "2 jobs, interleaved: one run set, the jobs as its configurations" "--dry-run: says interleaved"
like "$OUT" "^rounds: 3, each running all 2 jobs: 6 runs in all$" "--dry-run: rounds x jobs"

run_fsbench run il.ini --db "$DB" --json "$SCRATCH/il.json"
is "$RC" 0 "interleave = jobs: exit 0"
[ "$RC" -eq 0 ] || diag "$ERR"
J="$SCRATCH/il.json"
is "$(jq '.runs | length' "$J")" 6 "one run set of 6 runs (3 rounds x 2 jobs)"
is "$(jq -c '[.runs[] | .round] | group_by(.) | map(length)' "$J")" "[2,2,2]" \
    "every round has both jobs"
is "$(jq -c '[.runs[] | select(.round == 1) | .config] | sort' "$J")" '["one","two"]' \
    "the jobs are the configurations, by name"
is "$(jq -c .target.configurations "$J")" '["one","two"]' "declared in file order (compare's baseline first)"
is "$(jq -r '[.runs[] | select(.config == "two") | .phases[1].name] | unique | join(",")' "$J")" \
    "statwalk" "each job keeps its own phases"
is "$(jq -r '[.runs[] | select(.config == "one") | .phases[1].name] | unique | join(",")' "$J")" \
    "walk" "and the other job its own"
like "$(jq -r .job.hash "$J")" "^[0-9a-f]{64}$" "the job file is stored with the one run set"
is "$(jq -r .scenario "$J")" "il" "the set is named after the file"
is "$("$FSBENCH" runs --db "$DB" | grep -c ' il ')" 1 "one run set in the store"
run_fsbench compare --verbose il --db "$DB"
is "$RC" 0 "compare il: exit 0"
like "$OUT" "two vs one: .*paired by round \(3 pairs\)" "compare pairs the jobs by round"

# the same file without interleave: one set per job, in file order
sed -e '/^interleave/d' -e '/^label/d' il.ini >seq.ini
run_fsbench run seq.ini --db "$DB" --runs 1 --format seeds
is "$RC" 0 "without interleave: exit 0"
like "$OUT" "== job one \(1 of 2\) ==" "without interleave: job one first"
is "$("$FSBENCH" runs --db "$DB" | grep -cE ' (one|two)-[0-9]{8}-')" 2 \
    "without interleave: a run set per job, labelled job-date-time"
done_testing
