/* phase_age_replay.c — aging by a real program (--age-replay T.fsbt): the trace `fsbench
 * record` made is replayed again and again on the file system being aged, each repetition
 * in a directory of its own below tree/age-replay (r0001, r0002, ...), its initial state laid
 * down first; everything a repetition leaves stays, as a program run again and again leaves
 * its files (Conway et al., FAST 2017, age by repeated git pulls).
 *
 * It stops after `times` repetitions, or (age steps) once goal_bytes are written, or when
 * the file system is params->age_fullness full, whichever comes first, and says which. A
 * repetition whose calls diverge from the recording past the replay's limit fails the
 * phase with the replay's own note. The repetition count goes on across the steps of a set
 * (age_replay_reset() starts it again).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "os/beneath.h"
#include "phase/replay.h"
#include "phase/workload.h"
#include "trace/trace_read.h"

#define AGE_REPLAY_DIR PHASE_TREE_DIR "/age-replay"
#define AGE_REPLAY_MOST 100000 /* repetitions in one call, whatever else */

static unsigned age_replay_next = 1; /* the next repetition's number */

void age_replay_reset(void)
{
    age_replay_next = 1;
}

/* Bytes written by every worker of ctx so far. */
static uint64_t written_now(const struct phase_ctx *ctx)
{
    uint64_t b = 0;
    if (ctx->workers && ctx->nworkers)
        for (unsigned i = 0; i < ctx->nworkers; i++)
            b += ctx->workers[i].st->bytes_written;
    else
        b = ctx->w->st->bytes_written;
    return b;
}

/* Makes dir below the workspace (one level; its parent exists). 0, or -1 after phase_fail. */
static int make_dir(struct phase_ctx *ctx, const char *dir)
{
    const char *slash = strrchr(dir, '/');
    char parent[64];
    snprintf(parent, sizeof parent, "%.*s", slash ? (int)(slash - dir) : 0, dir);
    int pfd = slash ? os_open_beneath(ctx->ws_fd, parent, O_RDONLY | O_DIRECTORY, 0)
                    : dup(ctx->ws_fd);
    if (pfd < 0)
        return phase_fail_dir(ctx, "open", parent, -errno);
    int rc = mkdirat(pfd, slash ? slash + 1 : dir, 0755) < 0 && errno != EEXIST ? -errno : 0;
    close(pfd);
    return rc < 0 ? phase_fail(ctx, "mkdir", dir, rc) : 0;
}

int age_replay_run(struct phase_ctx *ctx, double goal_bytes, unsigned times, double *written)
{
    const struct phase_params *pp = ctx->params;
    *written = 0;
    if (!(ctx->eng->caps & ENG_CAP_REAL))
        return phase_skip(ctx, "the %s engine writes nothing to age with", ctx->eng->name);
    struct statvfs sv;
    if (fstatvfs(ctx->ws_fd, &sv) < 0)
        return phase_fail(ctx, "statvfs", ".", -errno);
    double fs_size = (double)sv.f_blocks * (double)sv.f_frsize;
    double fullness = pp->age_fullness;
    double floor = fullness > 0 && fullness < 1 ? (1 - fullness) * fs_size : -1;
    if (make_dir(ctx, PHASE_TREE_DIR) < 0 || make_dir(ctx, AGE_REPLAY_DIR) < 0)
        return -1;
    struct phase_params p2 = *pp;
    p2.replay = pp->age_replay;
    p2.replay_limit = 0;
    uint64_t w0 = written_now(ctx);
    unsigned done = 0, first = age_replay_next;
    const char *why = NULL;
    int rc = 0;
    while (rc == 0 && !why) {
        if (times && done >= times) {
            why = "repetitions done";
            break;
        }
        if (!times && (double)(written_now(ctx) - w0) >= goal_bytes) {
            why = "written target reached";
            break;
        }
        if (done >= AGE_REPLAY_MOST) {
            why = "repetition limit reached";
            break;
        }
        if (fstatvfs(ctx->ws_fd, &sv) == 0 && (double)sv.f_bavail * (double)sv.f_frsize < floor) {
            why = "fullness target reached";
            break;
        }
        if (phase_check_interrupt(ctx))
            return -1;
        char dir[64];
        snprintf(dir, sizeof dir, AGE_REPLAY_DIR "/r%04u", age_replay_next++);
        if (make_dir(ctx, dir) < 0)
            return -1;
        struct phase_ctx c2 = *ctx;
        c2.params = &p2;
        c2.replay_root = dir;
        uint64_t before = written_now(ctx);
        rc = phase_replay_setup(&c2);
        if (rc == 0)
            rc = phase_replay(&c2);
        done++;
        if (rc == 0 && !times && written_now(ctx) == before) {
            why = "a repetition wrote nothing";
            break;
        }
    }
    *written = (double)(written_now(ctx) - w0);
    if (rc < 0)
        return rc;
    double avail = fstatvfs(ctx->ws_fd, &sv) == 0 ? (double)sv.f_bavail * (double)sv.f_frsize
                                                  : -1;
    char replay_note[RES_NOTE_MAX];
    snprintf(replay_note, sizeof replay_note, "%s", ctx->res->note);
    snprintf(ctx->res->note, sizeof ctx->res->note,
             "replayed %s %u time%s (r%04u-r%04u): wrote %.1f MiB (%.2fx the fs), fs %.0f%% "
             "full; %s%s%s",
             trace_file_path(pp->age_replay), done, done == 1 ? "" : "s", first,
             age_replay_next - 1, *written / 1048576.0, fs_size > 0 ? *written / fs_size : 0,
             avail >= 0 && fs_size > 0 ? 100.0 * (1.0 - avail / fs_size) : 0, why,
             replay_note[0] ? "; last: " : "", replay_note);
    return 0;
}
