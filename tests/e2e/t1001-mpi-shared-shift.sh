#!/bin/bash
# Shared placement (one tree of scale x N, top-level directories divided among ranks) at
# -np 2 and -np 4, and --rank-shift in both placements: the counts are N x the one-rank
# counts, and with a shift each rank reads the tree (or share) another rank made.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/mpi.sh"
mpi_setup 512m
files=$("$FSBENCH" tree stats tiny | awk '/^files/ {print $2; exit}')
[ -n "$files" ] || files=1000
for n in 2 4; do
    j="$SCRATCH/shared$n.json"
    run_mpi "$n" run --dir "$SCRATCH/mnt" --tree tiny --ranks-dir shared --json "$j" --no-save
    is "$RC" 0 "shared -np $n exits 0"
    is "$(jq -r .ranks.placement "$j")" shared "shared -np $n: placement shared"
    is "$(jq -r .tree.scale "$j")" "$n" "shared -np $n: one tree of scale $n"
    for p in extract walk statwalk read copy; do
        is "$(phase_field "$j" $p files)" "$((n * files))" "shared -np $n: $p handled $n x $files files"
    done
    is "$(phase_field "$j" delete files)" "$((2 * n * files))" "shared -np $n: delete removed tree and copy"
    is "$(jq -r '[.runs[0].phases[] | select(.name == "extract") | .ranks[] | select(.entries > 0)] | length' "$j")" \
        "$n" "shared -np $n: every rank extracted a share"
    is "$(ls -A "$SCRATCH/mnt")" "" "shared -np $n: the directory is empty afterwards"
done

# unique + shift 1 at -np 2: rank 0 reads rank 1's tree (seed 2) and the other way round
j="$SCRATCH/shift.json"
run_mpi 2 run --dir "$SCRATCH/mnt" --tree tiny --rank-shift 1 --json "$j" --no-save
is "$RC" 0 "unique --rank-shift 1 exits 0"
is "$(jq -r .ranks.rank_shift "$j")" 1 "rank_shift recorded"
x0=$(phase_field "$j" extract 'ranks[0].bytes')
x1=$(phase_field "$j" extract 'ranks[1].bytes')
ok $([ "$x0" != "$x1" ] && echo 0 || echo 1) "the two ranks' trees differ ($x0 and $x1 bytes)"
is "$(phase_field "$j" read 'ranks[0].bytes')" "$x1" "rank 0 read rank 1's tree"
is "$(phase_field "$j" read 'ranks[1].bytes')" "$x0" "rank 1 read rank 0's tree"
is "$(phase_field "$j" copy files)" "$((2 * files))" "copy of the shifted trees handled every file"
like "$OUT" "rank shift 1" "the table says rank shift 1"
is "$(ls -A "$SCRATCH/mnt")" "" "unique shift: the directory is empty afterwards"

# shared + shift 1 at -np 4: each rank reads another rank's share; totals unchanged
j="$SCRATCH/sshift.json"
run_mpi 4 run --dir "$SCRATCH/mnt" --tree tiny --ranks-dir shared --rank-shift 1 --json "$j" --no-save
is "$RC" 0 "shared --rank-shift 1 exits 0"
is "$(phase_field "$j" read 'ranks[0].entries')" "$(phase_field "$j" extract 'ranks[1].entries')" \
    "shared shift: rank 0 read rank 1's share"
is "$(phase_field "$j" read files)" "$((4 * files))" "shared shift: read handled every file"

# --stonewall: ranks still working 1 ms after the first one finished stop; what they
# did counts, and delete (never stonewalled) removes exactly that
j="$SCRATCH/sw.json"
run_mpi 4 run --dir "$SCRATCH/mnt" --tree pkgsrc --scale 0.05 --phases extract,walk,delete \
    --stonewall 0.001 --json "$j" --no-save
is "$RC" 0 "--stonewall exits 0"
is "$(phase_field "$j" extract status)" ok "a stonewalled extract is ok"
made=$(phase_field "$j" extract files)
is "$(phase_field "$j" delete files)" "$made" "delete removed what extract made ($made files)"
is "$(phase_field "$j" delete stonewalled)" false "delete is never stonewalled"
if [ "$(phase_field "$j" extract stonewalled)" = true ]; then
    full=$((4 * $("$FSBENCH" tree stats pkgsrc --scale 0.05 | awk '/^files/ {print $2; exit}')))
    ok $([ "$made" -lt "$full" ] && echo 0 || echo 1) "stonewalled extract made less than all ($made < $full)"
    like "$(phase_field "$j" extract note)" "stonewall" "its note says so"
else
    skip "the ranks finished within 1 ms of each other: nothing to stonewall" 2
fi
is "$(ls -A "$SCRATCH/mnt")" "" "stonewall: the directory is empty afterwards"

# refusals
run_mpi 2 run --dir "$SCRATCH/mnt" --rank-shift 2 --no-save
is "$RC" 2 "--rank-shift N is refused"
like "$ERR" "every rank would read its own tree" "it says why"
run_mpi 2 run --dir "$SCRATCH/mnt" --ranks-dir shared createsync --no-save
is "$RC" 2 "shared placement refuses a phase that cannot divide the tree"
like "$ERR" "phase createsync cannot divide a shared tree" "it names the phase"
done_testing
