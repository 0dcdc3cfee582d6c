# mpi.sh — helpers for the end-to-end tests of fsbench on several MPI ranks (sourced after
# tap.sh). $FSBENCH_MPI is the MPI build's binary (make MPI=1; the Makefile's check sets it
# when build-mpi/fsbench exists); without it, or without mpirun, the test skips.

need_mpi() {
    need_cmd mpirun
    [ -n "${FSBENCH_MPI:-}" ] && [ -x "$FSBENCH_MPI" ] ||
        skip_all "no MPI build: make MPI=1 (the tests run in the gcc suite)"
}

# mpi_setup SIZE: what every MPI test needs (root, jq, the MPI build) and a tmpfs of SIZE
# at $SCRATCH/mnt.
mpi_setup() {
    need_root
    need_cmd jq
    need_mpi
    mount_tmpfs "$SCRATCH/mnt" "$1" || skip_all "cannot mount tmpfs"
}

# run_mpi N ARGS...: mpirun -np N fsbench ARGS (a 120 s limit: a hang fails the test
# with RC 124); sets OUT, ERR and RC like run_fsbench.
run_mpi() {
    local n=$1
    shift
    timeout 120 mpirun --allow-run-as-root --oversubscribe -np "$n" "$FSBENCH_MPI" "$@" \
        >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null
    RC=$?
    OUT=$(cat "$SCRATCH/out")
    ERR=$(cat "$SCRATCH/err")
}

# phase_field JSON PHASE FIELD: FIELD of the first phase named PHASE of run 0.
phase_field() {
    jq -r --arg p "$2" ".runs[0].phases | map(select(.name == \$p)) | .[0].$3" "$1"
}
