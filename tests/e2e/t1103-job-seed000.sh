#!/bin/bash
# Seed 000's matrix as a job file (jobs/seed-000-dirpref.ini, run by name) gives the same
# run set as the command line it replaces: the same configurations in the same declared
# order, the same phases, the same rounds and run order (the order is seeded), the same
# tree; only the scenario's name (the job's) and the stored job text differ (issue 14).
# Small: a tenth of the tiny tree and one round, on 256 MiB images.
. "$(dirname "$0")/../lib/tap.sh"
need_root
need_cmd jq
need_cmd losetup
need_cmd mkfs.ext4
. "$(dirname "$0")/../lib/target.sh"

SMALL=(--tree tiny --scale 0.1 --runs 1 --image 256M --no-save)
# testdisk's phases as a plain command line (fsbench run testdisk runs jobs/testdisk.ini)
run_fsbench run --phases mount,extract,sync,umount,mount,delete,sync,umount --fs ext4 \
    --mount-opts defaults --mount-opts sync --mount-opts data=journal "${SMALL[@]}" \
    --json "$SCRATCH/cli.json"
is "$RC" 0 "the command line: exit 0"
[ "$RC" -eq 0 ] || diag "$ERR"
run_fsbench run seed-000-dirpref "${SMALL[@]}" --json "$SCRATCH/job.json"
is "$RC" 0 "the job file: exit 0"
[ "$RC" -eq 0 ] || diag "$ERR"
shape() { # what must be equal: configurations, and per run its round, config and phases
    jq -c '{configs: .target.configurations, tree: .tree,
            runs: [.runs[] | {round, config, phases: [.phases[] | .name + ":" + .status]}]}' "$1"
}
is "$(shape "$SCRATCH/job.json")" "$(shape "$SCRATCH/cli.json")" \
    "same configurations, tree, rounds, run order and phases"
is "$(jq -c .target.configurations "$SCRATCH/job.json")" \
    '["ext4:defaults","ext4:sync","ext4:data=journal"]' "the seed's matrix"
is "$(jq -r .scenario "$SCRATCH/job.json")" "dirpref" "the job's name is the scenario"
is "$(jq -r .job "$SCRATCH/cli.json")" "null" "the command line stores no job"
like "$(jq -r .job.text "$SCRATCH/job.json")" "^# seed 000" "the job keeps the seed's intent"
nothing_left "seed 000 job"
done_testing
