#!/bin/bash
# Interleaved jobs whose phases record stalls and, under MPI, per-rank figures (issue 18):
# each job's runs are copied into the one run set, and every array a phase owns (time
# line, stalls, ranks) must be copied, not shared with the job's scratch set that is freed
# after the run. A shallow copy aborted with "free(): double free detected" whenever a
# phase of an interleaved job stalled (the default --stall 1 on a slow disk). The sanitizer
# suite runs this too, so a use after free fails it as well.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/mpi.sh"
need_cmd jq
need_cmd strace

cd "$SCRATCH" || exit 1
# stall = 0.001 with a 1 ms interval, and every syncfs held 100 ms (strace's fault
# injection): every sync phase of every run records a stall, whatever the disk
cat >stall.ini <<'INI'
[global]
interleave = jobs
runs = 2
tree = pkgsrc
scale = 0.05
phases = extract,sync,delete
stall = 0.001
interval = 1
label = st
[a]
[b]
INI
# LeakSanitizer cannot run under ptrace
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -o /dev/null -e trace=syncfs -e inject=syncfs:delay_enter=100000 \
    "$FSBENCH" run stall.ini --db "$SCRATCH/r.db" --json "$SCRATCH/st.json" -q \
    >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null
RC=$?
ERR=$(cat "$SCRATCH/err")
is "$RC" 0 "interleaved jobs with stalls: exit 0"
[ "$RC" -eq 0 ] || diag "$ERR"
unlike() { printf '%s\n' "$1" | grep -Eq -- "$2"; ok $((! $?)) "$3"; }
unlike "$ERR" "double free|AddressSanitizer|heap-use-after-free" "no double free or use after free"
is "$(jq '.runs | length' st.json 2>/dev/null)" 4 "4 runs (2 rounds x 2 jobs) in the JSON"
stalls=$(jq '[.runs[].phases[] | (.stalls // []) | length] | add' st.json 2>/dev/null)
ok "$([ "${stalls:-0}" -ge 4 ]; echo $?)" "the runs carry their stalls ($stalls, one a sync phase at least)"
# what the store kept is what the run set held: every run's stalls, readable
run_fsbench export st --json --db "$SCRATCH/r.db"
is "$RC" 0 "export of the stored set: exit 0"
is "$(printf '%s' "$OUT" | jq '[.runs[].phases[] | (.stalls // []) | length] | add')" "$stalls" \
    "the store kept every stall"

# the same under MPI: each phase also owns its ranks' figures
if [ -n "${FSBENCH_MPI:-}" ] && [ -x "${FSBENCH_MPI:-}" ] && command -v mpirun >/dev/null &&
    [ "$(id -u)" -eq 0 ] && mount_tmpfs "$SCRATCH/mnt" 256M; then
    sed -e 's/^label = st$/label = mp/' -e "s|^\[global\]|[global]\ndir = $SCRATCH/mnt|" \
        stall.ini >mpi.ini
    run_mpi 2 run mpi.ini --db "$SCRATCH/r.db" --json "$SCRATCH/mp.json" -q
    is "$RC" 0 "MPI, 2 ranks, interleaved jobs with stalls: exit 0"
    [ "$RC" -eq 0 ] || diag "$ERR"
    unlike "$ERR" "double free|AddressSanitizer|heap-use-after-free" "MPI: no double free"
    is "$(jq '[.runs[].phases[] | (.ranks // []) | length] | min' mp.json 2>/dev/null)" 2 \
        "MPI: every phase of every run keeps both ranks' figures"
else
    skip "no MPI build, mpirun, root or tmpfs" 3
fi
done_testing
