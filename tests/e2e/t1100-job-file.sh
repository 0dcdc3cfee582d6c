#!/bin/bash
# Job files (issue 14): `fsbench run FILE.ini` runs its jobs in file order, each inheriting
# [global] and overriding it; ${} expands; the command line overrides the file; the
# expanded text and its SHA-256 are stored with each run set, shown by `show`, in the JSON,
# and `export --job` writes them back so that rerunning gives the same hash; --dry-run
# prints the plan and touches nothing; `fsbench list` shows the shipped jobs and
# `make install` installs them.
. "$(dirname "$0")/../lib/tap.sh"
need_cmd jq
need_cmd sha256sum

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$SCRATCH" || exit 1
DB="$SCRATCH/r.db"
export FSBENCH_TEST_TREE=tiny
cat >exp.ini <<'INI'
# an experiment: one tree, two thread counts
[global]
tree = ${FSBENCH_TEST_TREE}
runs = 2
phases = extract,sync,walk,delete
label = exp

[one]
threads = 1
label = exp-one

[all]
threads = ${ncpus}
label = exp-all
INI

# ---- --dry-run: the plan, and nothing touched
mkdir empty
run_fsbench run exp.ini --dry-run --db "$DB" --dir "$SCRATCH/empty"
is "$RC" 0 "--dry-run: exit 0"
like "$OUT" "^job file exp.ini \(sha256 [0-9a-f]{16}\.\.\.\): 2 jobs, run one after the other" \
    "--dry-run: names the file, its hash and how the jobs run"
like "$OUT" "^job one$" "--dry-run: job one"
like "$OUT" "^job all$" "--dry-run: job all"
like "$OUT" "rounds: 2 \(2 runs\)" "--dry-run: rounds"
like "$OUT" "phases: extract,sync,walk,delete \(4\)" "--dry-run: phases"
like "$OUT" "tree: tiny x1 seed 1: 1000 files, [0-9]+ dirs" "--dry-run: the tree's size"
like "$OUT" "space: about [0-9.]+ MiB needed in $SCRATCH/empty; .* free" "--dry-run: space"
like "$OUT" "root: not needed" "--dry-run: root"
like "$OUT" "engine: posix, threads $(nproc)" "--dry-run: \${ncpus} expanded"
ok "$([ ! -e "$DB" ] && echo 0 || echo 1)" "--dry-run: no results store created"
is "$(ls -A empty)" "" "--dry-run: the directory is untouched"

# ---- the jobs run in file order, each its own run set
run_fsbench run exp.ini --db "$DB" --format seeds
is "$RC" 0 "run exp.ini: exit 0"
[ "$RC" -eq 0 ] || diag "$ERR"
like "$(printf '%s\n' "$OUT" | grep '^== job')" "^== job one \(1 of 2\) ==$" "job one runs first"
is "$(printf '%s\n' "$OUT" | grep -c '^== job')" 2 "two jobs ran"
"$FSBENCH" export exp-one --json --db "$DB" >one.json
"$FSBENCH" export exp-all --json --db "$DB" >all.json
is "$(jq '.runs | length' one.json)" 2 "job one: runs = 2 from [global]"
is "$(jq -r .scenario one.json)" "one" "the run set's scenario is the job's name"
is "$(jq -r '[.runs[0].phases[].name] | join(",")' one.json)" "extract,sync,walk,delete" \
    "phases from [global]"
if [ "$(nproc)" -gt 1 ]; then
    like "$(jq -r .engine all.json)" "-j $(nproc)\$" "job all: threads = \${ncpus}"
else
    skip "one CPU: threads = \${ncpus} is the default" 1
fi
like "$(jq -r .engine one.json)" "^posix$" "job one: threads = 1 overrides nothing else"

# ---- the job text and hash, stored
H=$(jq -r .job.hash one.json)
like "$H" "^[0-9a-f]{64}$" "JSON: job.hash is a SHA-256"
is "$(jq -r .job.hash all.json)" "$H" "both run sets carry the same job file"
"$FSBENCH" export exp-one --job --db "$DB" >back.ini
is "$(sha256sum <back.ini | cut -c1-64)" "$H" "export --job: the text hashes to the stored hash"
is "$(jq -j .job.text one.json)" "$(cat back.ini)" "export --job writes the JSON's job.text"
like "$(cat back.ini)" "^tree = tiny$" "the stored text has \${} expanded"
like "$(cat back.ini)" "^# an experiment" "the stored text keeps the comments"
run_fsbench show exp-one --db "$DB"
like "$OUT" "^job file, sha256 $H" "show: the job's hash"
like "$OUT" "^  threads = 1$" "show: the job's text"

# ---- rerun the exported job under a new label: the same experiment, the same hash
run_fsbench run back.ini --db "$DB" --label again --format seeds
is "$RC" 0 "rerun of the exported job: exit 0"
"$FSBENCH" export again-one --json --db "$DB" >again.json
is "$(jq -r .job.hash again.json)" "$H" "the rerun stored the same job hash"
is "$(jq '.runs | length' again.json)" 2 "--label on the command line overrides the file's: a label names one set, so each job's is LABEL-JOB"
is "$("$FSBENCH" runs --labels --db "$DB" | grep -c '^again')" 2 "again-one and again-all, no set 'again'"
run_fsbench compare exp-one again-one --db "$DB"
is "$RC" 0 "compare of the original and the rerun: exit 0"

# ---- options on the command line override the file and are folded into the stored job
run_fsbench run exp.ini --db "$DB" --runs 1 -j 1 --label folded-one --format seeds
is "$RC" 0 "run with --runs 1 -j 1 overriding the file: exit 0"
"$FSBENCH" export folded-one-one --job --db "$DB" >folded.ini
is "$(grep -c '^# runs = 2   (the command line replaced it)$' folded.ini)" 1 \
    "the stored job comments out the file's runs"
is "$(sed -n '/^# from the command line:$/,/^\[/p' folded.ini | tr '\n' ' ')" \
    "# from the command line: runs = 1 threads = 1 [one] " "and sets the command line's in [global]"
FH=$("$FSBENCH" export folded-one-one --json --db "$DB" | jq -r .job.hash)
ok "$([ "$FH" != "$H" ] && echo 0 || echo 1)" "a different experiment, a different hash"
run_fsbench run folded.ini --db "$DB" --label refolded --format seeds
"$FSBENCH" export refolded-one --json --db "$DB" >refolded.json
"$FSBENCH" export refolded-all --json --db "$DB" >refolded-all.json
is "$(( $(jq '.runs | length' refolded.json) + $(jq '.runs | length' refolded-all.json) ))" 2 \
    "the exported folded job reruns what ran (1 run a job)"
is "$(jq -r .job.hash refolded.json)" "$FH" "with the same hash"

# ---- --json with several jobs in file order: one file per job
run_fsbench run exp.ini --no-save --runs 1 --json "$SCRATCH/o.json"
is "$(ls "$SCRATCH"/o.*json | xargs -n1 basename | tr '\n' ' ')" "o.all.json o.one.json " \
    "--json out.json with two jobs writes out.JOB.json for each"
is "$(jq -r .scenario "$SCRATCH/o.one.json")" "one" "out.one.json holds job one"

# ---- --job FILE, and a command line alone is not stored as a job
run_fsbench run --job exp.ini --db "$DB" --runs 1 --label viajob --phases extract,delete
is "$RC" 0 "--job FILE: exit 0"
is "$("$FSBENCH" export viajob-one --json --db "$DB" | jq -r '[.runs[0].phases[].name] | join(",")')" \
    "extract,delete" "--phases on the command line overrides the file's"
"$FSBENCH" run --db "$DB" --label plain --runs 1 --phases extract,delete >/dev/null 2>&1
is "$("$FSBENCH" export plain --json --db "$DB" | jq -r .job)" "null" "a plain command line stores no job"
run_fsbench export plain --job --db "$DB"
is "$RC" 2 "export --job of a command-line run set: exit 2"
like "$ERR" "^fsbench: export: 'plain' was run from a command line, not a job file" \
    "export --job of a command-line run set: says why"

# ---- shipped jobs: listed, runnable by name, installed
run_fsbench list
like "$OUT" "^  seed-000-dirpref +seed 000:" "list: seed 000's job"
like "$OUT" "^  seed-003-softdep .*" "list: seed 003's job"
like "$OUT" "jobs: extract cvs \(interleaved in rounds\)" "list: a file's jobs"
run_fsbench run basic.ini --dry-run
is "$RC" 0 "a shipped job by file name (basic.ini): --dry-run exit 0"
like "$OUT" "phases: extract,sync,dropcaches,walk,statwalk,read,copy,delete,sync" \
    "basic.ini: the basic scenario's phases"
if [ -n "${FSBENCH_BUILD:-}" ] && [ -f "$ROOT/Makefile" ]; then
    make -s -C "$ROOT" install BUILD="$FSBENCH_BUILD" PREFIX=/usr \
        DESTDIR="$SCRATCH/inst" >/dev/null 2>&1
    ok "$([ -f "$SCRATCH/inst/usr/share/fsbench/jobs/seed-000-dirpref.ini" ] && echo 0 || echo 1)" \
        "make install puts the jobs in PREFIX/share/fsbench/jobs"
    run_fsbench run "$SCRATCH/inst/usr/share/fsbench/jobs/cvs.ini" --dry-run
    like "$OUT" "phases: extract,sync,fsyncstorm,fsyncstorm,delete,sync" "the installed cvs.ini runs"
else
    skip "no build directory to install from" 2
fi
done_testing
