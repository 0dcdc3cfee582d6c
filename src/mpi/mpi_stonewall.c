/* mpi_stonewall.c — --stonewall S, as mdtest -W: S seconds after the first rank ends a
 * phase, every rank still working stops (phase_stonewall) and what it did counts.
 *
 * Each rank, when its own work ends, sends one message to every rank (itself included).
 * A watcher thread per rank and phase receives the first one (the first rank to finish),
 * then waits S seconds or until its own rank ends, whichever is first, and raises
 * phase_stonewall if its rank is still working. After the phase the rank receives the
 * other N-1 messages, so none is left for the next phase. Needs MPI_THREAD_MULTIPLE.
 */
#include "mpi/mpi_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#define SW_TAG 7301

struct mpirun_stonewall {
    MPI_Comm comm;
    int size;
    double seconds;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool local_done;
    bool stopped;               /* the watcher raised phase_stonewall */
    MPI_Request *reqs;          /* this rank's sends */
    int token;
};

static void *watch(void *arg)
{
    struct mpirun_stonewall *sw = arg;
    int first;
    MPI_Recv(&first, 1, MPI_INT, MPI_ANY_SOURCE, SW_TAG, sw->comm, MPI_STATUS_IGNORE);
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    double whole = (double)until.tv_sec + (double)until.tv_nsec / 1e9 + sw->seconds;
    until.tv_sec = (time_t)whole;
    until.tv_nsec = (long)((whole - (double)until.tv_sec) * 1e9);
    pthread_mutex_lock(&sw->mu);
    int rc = 0;
    while (!sw->local_done && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&sw->cv, &sw->mu, &until);
    if (!sw->local_done) {
        atomic_store(&phase_stonewall, 1);
        sw->stopped = true;
    }
    pthread_mutex_unlock(&sw->mu);
    return NULL;
}

struct mpirun_stonewall *mpirun_stonewall_start(MPI_Comm comm, int size, double seconds)
{
    struct mpirun_stonewall *sw = calloc(1, sizeof *sw);
    if (!sw || !(sw->reqs = calloc((size_t)size, sizeof *sw->reqs)))
        mpirun_abort("out of memory");
    sw->comm = comm;
    sw->size = size;
    sw->seconds = seconds;
    pthread_mutex_init(&sw->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&sw->cv, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&sw->th, NULL, watch, sw) != 0)
        mpirun_abort("--stonewall: cannot start its thread");
    return sw;
}

void mpirun_stonewall_local_end(struct mpirun_stonewall *sw)
{
    pthread_mutex_lock(&sw->mu);
    sw->local_done = true;
    pthread_cond_signal(&sw->cv);
    pthread_mutex_unlock(&sw->mu);
    for (int r = 0; r < sw->size; r++)
        MPI_Isend(&sw->token, 1, MPI_INT, r, SW_TAG, sw->comm, &sw->reqs[r]);
}

bool mpirun_stonewall_finish(struct mpirun_stonewall *sw)
{
    pthread_join(sw->th, NULL);
    /* the watcher took the first rank's message; the other N-1 are for this rank too */
    for (int r = 1; r < sw->size; r++) {
        int x;
        MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, SW_TAG, sw->comm, MPI_STATUS_IGNORE);
    }
    MPI_Waitall(sw->size, sw->reqs, MPI_STATUSES_IGNORE);
    bool stopped = sw->stopped;
    pthread_cond_destroy(&sw->cv);
    pthread_mutex_destroy(&sw->mu);
    free(sw->reqs);
    free(sw);
    return stopped;
}
