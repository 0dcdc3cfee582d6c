#!/bin/bash
# --dry-run says how long a run would take (issue 32): per configuration and in all, in
# human units, from the work model when nothing of the job has run, from the store's
# earlier runs of the same job (tree, engine, phases, configuration) when it holds some;
# the figure grows with --runs; a job file of several jobs gives its total.
. "$(dirname "$0")/../lib/tap.sh"

# secs TEXT: the seconds of the first "estimated duration: [at most ]about ..." in TEXT
secs() {
    printf '%s\n' "$1" | sed -n 's/.*estimated duration: \(at most \)\{0,1\}about \(.*\) (.*/\2/p' |
        head -1 | awk '{ t = 0; for (i = 1; i < NF; i += 2) {
            if ($(i+1) == "h") t += $i * 3600; else if ($(i+1) == "min") t += $i * 60;
            else t += $i } print t }'
}

# 1. a 2-configuration image matrix: one line in all, one per configuration
run_fsbench run --image 512M --fs ext4,xfs --runs 3 --dry-run
is "$RC" 0 "matrix dry-run: exit 0"
like "$OUT" "estimated duration: about [0-9]+ (s|min [0-9]+ s|min) \(3 runs x 2 configurations; from the work model, no earlier runs of this job in the store\)" \
    "matrix dry-run: the duration in all, in human units, and where it comes from"
like "$OUT" "    ext4:defaults: about [0-9].* \(runs of [0-9].*: the work model\)" "the ext4 configuration's own figure"
like "$OUT" "    xfs:defaults: about [0-9].* \(runs of [0-9].*: the work model\)" "the xfs configuration's own figure"
like "$OUT" "an assumed [0-9]+ ops/s, 2 s a mkfs" "the model says what it assumes"
M3=$(secs "$OUT")
run_fsbench run --image 512M --fs ext4,xfs --runs 9 --dry-run
M9=$(secs "$OUT")
ok "$(awk -v a="$M3" -v b="$M9" 'BEGIN { print (a > 0 && b > 2 * a) ? 0 : 1 }')" \
    "matrix: --runs 9 ($M9 s) takes more than twice --runs 3 ($M3 s)"

# 2. a directory run: one configuration; grows with --runs
mkdir -p "$SCRATCH/d"
run_fsbench run --dir "$SCRATCH/d" --runs 2 --dry-run
is "$RC" 0 "directory dry-run: exit 0"
like "$OUT" "estimated duration: about [0-9]+ s \(2 runs x 1 configuration; from the work model" \
    "directory dry-run: a duration line"
D2=$(secs "$OUT")
run_fsbench run --dir "$SCRATCH/d" --runs 10 --dry-run
D10=$(secs "$OUT")
ok "$(awk -v a="$D2" -v b="$D10" 'BEGIN { print (a > 0 && b > a) ? 0 : 1 }')" \
    "directory: --runs 10 ($D10 s) takes longer than --runs 2 ($D2 s)"
run_fsbench run --dir "$SCRATCH/d" --tree kernel --runs 2 --dry-run
ok "$(awk -v a="$D2" -v b="$(secs "$OUT")" 'BEGIN { print (b > a) ? 0 : 1 }')" \
    "a bigger tree takes longer by the model"

# 3. after a real run of the same job, its measured time is preferred, and said so
run_fsbench run --dir "$SCRATCH/d" --runs 2 --label before
is "$RC" 0 "a real run of the job"
run_fsbench run --dir "$SCRATCH/d" --runs 4 --dry-run
like "$OUT" "estimated duration: about [0-9].* \(4 runs x 1 configuration; measured: earlier runs of this job in the store\)" \
    "the store's earlier runs are preferred"
like "$OUT" "this job: about .* \(runs of .*: the median of 2 earlier runs\)" "and the figure says from how many"
run_fsbench run --dir "$SCRATCH/d" --runs 4 --tree kernel --dry-run
like "$OUT" "from the work model, no earlier runs of this job in the store" \
    "another tree is another job: the model again"

# 4. a job file of two jobs: each its own, and in all
cat >"$SCRATCH/two.ini" <<INI
[global]
dir = $SCRATCH/d
runs = 2
[a]
[b]
runs = 3
INI
run_fsbench run "$SCRATCH/two.ini" --dry-run
is "$RC" 0 "job file dry-run: exit 0"
is "$(printf '%s\n' "$OUT" | grep -c '^  estimated duration: ')" 2 "a duration line per job"
like "$OUT" "estimated duration in all: about [0-9].* \(2 jobs, one after the other\)" "and one in all"

done_testing
