#!/bin/bash
# mpirun -np 2 and -np 4 with unique placement (each rank its own tree in DIR/rank.N, seed
# + rank) on tmpfs: every count is N x the one-rank count, each rank's tree is the tree of
# seed + rank, the phase's wall is the slowest rank's, the table names the slowest and the
# fastest rank, compare works on the MPI run sets, and nothing is left behind.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/mpi.sh"
mpi_setup 512m
db="$SCRATCH/r.db"
# one process: the reference counts (seed 1 and seed 2)
run_fsbench run --dir "$SCRATCH/mnt" --tree tiny --seed 1 --json "$SCRATCH/one.json" --no-save
is "$RC" 0 "one process runs"
run_fsbench run --dir "$SCRATCH/mnt" --tree tiny --seed 2 --phases extract,delete \
    --json "$SCRATCH/seed2.json" --no-save
files=$(jq -r .tree.files "$SCRATCH/one.json")

for n in 2 4; do
    j="$SCRATCH/np$n.json"
    run_mpi "$n" run --dir "$SCRATCH/mnt" --tree tiny --seed 1 --json "$j" --db "$db" \
        --label "np$n" --runs 2
    is "$RC" 0 "-np $n exits 0"
    jq -e . "$j" >/dev/null
    ok $? "-np $n: JSON is valid"
    is "$(jq -r .ranks.count "$j")" "$n" "-np $n: ranks.count is $n"
    is "$(jq -r .ranks.placement "$j")" unique "-np $n: placement unique"
    is "$(jq -r .tree.files "$j")" "$((n * files))" "-np $n: the data set is $n trees"
    for p in extract walk statwalk read copy; do
        is "$(phase_field "$j" $p files)" "$((n * files))" "-np $n: $p handled $n x $files files"
    done
    is "$(phase_field "$j" extract ops.create)" "$((n * $(phase_field "$SCRATCH/one.json" extract ops.create)))" \
        "-np $n: extract made $n x the one-rank creates"
    is "$(phase_field "$j" delete files)" "$((2 * n * files))" "-np $n: delete removed trees and copies"
    is "$(phase_field "$j" extract 'ranks | length')" "$n" "-np $n: extract keeps $n per-rank figures"
    is "$(jq -r '[.runs[].phases[] | select(.ranks) | (.wall_s == ([.ranks[].wall_s] | max))] | all' "$j")" \
        true "-np $n: every phase's wall is its slowest rank's"
    is "$(jq -r '[.runs[].phases[] | select(.ranks) | (.ops_total == ([.ranks[].ops_total] | add))] | all' "$j")" \
        true "-np $n: every phase's ops are the sum of the ranks' ops"
    like "$OUT" "slow/fast" "-np $n: the table shows slowest and fastest rank"
    like "$OUT" "ranks: $n on 1 node, unique placement" "-np $n: the table says how ranks were placed"
    is "$(ls -A "$SCRATCH/mnt")" "" "-np $n: the directory is empty afterwards"
done
# seed + rank: rank 1's tree is the one-process tree of seed 2
is "$(jq -r '.runs[0].phases[] | select(.name == "extract") | .ranks[1].bytes' "$SCRATCH/np2.json")" \
    "$(phase_field "$SCRATCH/seed2.json" extract bytes_written)" "rank 1 made the tree of seed 2"
is "$(jq -r '.runs[0].phases[] | select(.name == "extract") | .ranks[0].bytes' "$SCRATCH/np2.json")" \
    "$(phase_field "$SCRATCH/one.json" extract bytes_written)" "rank 0 made the tree of seed 1"
# the store keeps the ranks; compare works on MPI run sets unchanged
"$FSBENCH" export np4 --json --db "$db" >"$SCRATCH/exp.json"
is "$(jq -r '.ranks.count' "$SCRATCH/exp.json")" 4 "the store keeps ranks.count"
is "$(phase_field "$SCRATCH/exp.json" read 'ranks | length')" 4 "the store keeps per-rank figures"
"$FSBENCH" compare np2 np4 --db "$db" >"$SCRATCH/cmp" 2>&1
is "$?" 0 "compare np2 np4 works"
grep -q '^extract' "$SCRATCH/cmp"
ok $? "compare has an extract row"
done_testing
