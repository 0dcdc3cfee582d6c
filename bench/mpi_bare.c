/* mpi_bare.c — the bare MPI loop fsbench on N ranks is measured against (MPI build only):
 * every rank runs bench/bare's system calls (the leanest way, no accounting) on its own
 * tree in DIR/rank.N, of seed SEED + rank as fsbench's unique placement makes it, with an
 * MPI_Barrier before each phase; a phase's wall is the MPI_MAX of the ranks' own walls.
 *
 *   mpirun -np N mpi_bare DIR PROFILE SCALE SEED [PHASE...]   (default: extract statwalk
 *                                                              delete)
 *
 * Rank 0 prints "<phase> <wall s> <files> <dirs> <ops>" per phase, counts summed over ranks.
 * bare.c is compiled into this program (its main renamed), so both loops are one code.
 */
#define main bare_main
int bare_main(int argc, char **argv);
#include "bare.c"
#undef main

#include <mpi.h>

/* Runs bare_main with args, its one output line captured: 0, or -1. */
static int run_bare(int argc, char **argv, double *wall, unsigned long long c[3])
{
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    FILE *tmp = tmpfile();
    if (saved < 0 || !tmp)
        return -1;
    dup2(fileno(tmp), STDOUT_FILENO);
    tot_files = tot_dirs = tot_ops = 0;
    int rc = bare_main(argc, argv);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    rewind(tmp);
    char verb[32];
    double user;
    if (rc != 0 || fscanf(tmp, "%31s %lf %llu %llu %lf %llu", verb, wall, &c[0], &c[1], &user,
                          &c[2]) != 6)
        rc = -1;
    fclose(tmp);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 5) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np N mpi_bare DIR PROFILE SCALE SEED [PHASE...]\n");
        MPI_Finalize();
        return 2;
    }
    char dir[PATH_MAX], seed[32];
    snprintf(dir, sizeof dir, "%s/rank.%d", argv[1], rank);
    snprintf(seed, sizeof seed, "%llu", strtoull(argv[4], NULL, 10) + (unsigned long long)rank);
    if (mkdir(dir, 0755) < 0 && errno != EEXIST)
        die("mkdir", dir);
    static const char *const dflt[] = {"extract", "statwalk", "delete"};
    int nph = argc > 5 ? argc - 5 : 3;
    for (int p = 0; p < nph; p++) {
        const char *ph = argc > 5 ? argv[5 + p] : dflt[p];
        char *args[6] = {"bare", (char *)ph, dir, argv[2], argv[3], seed};
        int n = strcmp(ph, "extract") ? 3 : 6;
        double wall = 0, maxw = 0;
        unsigned long long c[3] = {0}, sum[3] = {0};
        MPI_Barrier(MPI_COMM_WORLD);
        if (run_bare(n, args, &wall, c) < 0) {
            fprintf(stderr, "mpi_bare: rank %d: %s failed\n", rank, ph);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        MPI_Reduce(&wall, &maxw, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        MPI_Reduce(c, sum, 3, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0)
            printf("%s %.6f %llu %llu %llu\n", ph, maxw, sum[0], sum[1], sum[2]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rmdir(dir);
    MPI_Finalize();
    return 0;
}
