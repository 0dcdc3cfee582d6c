#!/bin/bash
# The scenarios are the shipped job files (issue 14): `fsbench run NAME` runs jobs/NAME.ini
# exactly as running the file would (same phases, same stored job text and hash, so
# `export --job` gives the shipped file back), `fsbench run` alone runs basic's job, a
# directory named like a scenario does not shadow it, and what used to be scenario code is
# in the files' keys (compilebench's tree and scale, cvs's fsync-rounds) or keyed on
# phases (--fsync-rounds repeats every run of fsyncstorm phases; mount needs a target).
. "$(dirname "$0")/../lib/tap.sh"
need_cmd jq
need_cmd sha256sum

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$SCRATCH" || exit 1
DB="$SCRATCH/r.db"
mkdir basic # a directory named like the scenario, in the current directory

run_fsbench run basic --db "$DB" --label by-name --json by-name.json
is "$RC" 0 "run basic: exit 0"
[ "$RC" -eq 0 ] || diag "$ERR"
run_fsbench run "$ROOT/jobs/basic.ini" --db "$DB" --label by-file --json by-file.json
is "$RC" 0 "run jobs/basic.ini: exit 0"
run_fsbench run --db "$DB" --label default --json default.json
is "$RC" 0 "run with no scenario: exit 0"
H=$(sha256sum <"$ROOT/jobs/basic.ini" | cut -c1-64)
for l in by-name by-file default; do
    is "$(jq -r .job.hash $l.json)" "$H" "$l: the stored job is jobs/basic.ini (its hash)"
    is "$(jq -r .scenario $l.json)" basic "$l: scenario basic"
done
is "$(jq -c '[.runs[].phases[].name]' by-name.json)" "$(jq -c '[.runs[].phases[].name]' by-file.json)" \
    "run basic and run jobs/basic.ini run the same phases"
"$FSBENCH" export by-name --job --db "$DB" >back.ini
ok "$(cmp -s back.ini "$ROOT/jobs/basic.ini" && echo 0 || echo 1)" \
    "export --job of run basic gives the shipped file back"
is "$(jq -r .command_line by-name.json)" "fsbench run basic --db $DB --label by-name --json by-name.json" \
    "the stored command line is the one typed"

# compilebench: the tree and scale are the job's keys; the command line replaces them
run_fsbench run compilebench --dry-run
like "$OUT" "tree: kernel x0.266 seed 1" "compilebench: kernel tree at 0.266 from its job"
run_fsbench run compilebench --scale 0.1 --dry-run
like "$OUT" "tree: kernel x0.1 seed 1" "compilebench --scale 0.1: the command line's scale"
# cvs: fsync-rounds = 2 in its job; --fsync-rounds N makes each run of fsyncstorms N long
run_fsbench run cvs --fsync-rounds 3 --dry-run
like "$OUT" "phases: extract,sync,fsyncstorm,fsyncstorm,fsyncstorm,delete,sync \(7\)" \
    "cvs --fsync-rounds 3: three fsyncstorms"
run_fsbench run --phases extract,fsyncstorm,sync,fsyncstorm --fsync-rounds 2 --dry-run
like "$OUT" "phases: extract,fsyncstorm,fsyncstorm,sync,fsyncstorm,fsyncstorm \(6\)" \
    "--fsync-rounds is keyed on the phases, in any list"
# testdisk: its phases need a managed target, said as before
run_fsbench run testdisk --dir "$SCRATCH/basic"
is "$RC" 2 "testdisk without a target: exit 2"
is "$ERR" "fsbench: phase mount needs a managed target (--image SIZE or --device DEV)" \
    "testdisk without a target: the phase's one line"
is "$(ls -A basic)" "" "nothing ran"
done_testing
