/* phase_layout.c — the `layout` phase: where the workspace's tree lies on disk (extents,
 * layout score, directory locality; see layout.h). The phase result has no layout fields
 * yet, so the key numbers go into res->note and the full result is kept for
 * phase_layout_last(); the free space's fragmentation (measure/freefrag.h) follows the
 * score in the note. The scan does not go through the engine: FIEMAP is not an engine
 * operation, and nothing here is meant to be timed per call.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "measure/freefrag.h"
#include "measure/layout.h"
#include "os/beneath.h"
#include "phase/phase.h"
#include "phase/workload.h"
#include "target/target.h"

static pthread_mutex_t layout_last_lock = PTHREAD_MUTEX_INITIALIZER;
static struct layout_result layout_last;
static bool layout_last_valid;

int phase_layout_last(struct layout_result *out)
{
    pthread_mutex_lock(&layout_last_lock);
    bool valid = layout_last_valid;
    if (valid)
        *out = layout_last;
    pthread_mutex_unlock(&layout_last_lock);
    return valid ? 0 : -1;
}

static void layout_remember(const struct layout_result *r)
{
    pthread_mutex_lock(&layout_last_lock);
    layout_last = *r;
    layout_last_valid = true;
    pthread_mutex_unlock(&layout_last_lock);
}

/* "layout score 0.9871, 1.02 extents/file, dir spread 512 blocks, 1 group/dir", then
 * ", 12 unwritten extents" where some are preallocated. */
static void layout_note(const struct layout_result *r, char *buf, size_t len)
{
    char score[32], spread[48], groups[48];
    if (r->score >= 0)
        snprintf(score, sizeof score, "%.4f", r->score);
    else
        snprintf(score, sizeof score, "n/a");
    if (r->dir_spread_median_blocks >= 0)
        snprintf(spread, sizeof spread, "%.0f blocks", r->dir_spread_median_blocks);
    else
        snprintf(spread, sizeof spread, "n/a");
    if (r->dir_groups_median >= 0)
        snprintf(groups, sizeof groups, ", %g groups/dir", r->dir_groups_median);
    else
        groups[0] = '\0';
    char unwritten[48] = "";
    if (r->extents_unwritten)
        snprintf(unwritten, sizeof unwritten, ", %llu unwritten extents",
                 (unsigned long long)r->extents_unwritten);
    snprintf(buf, len, "layout score %s, %.2f extents/file, dir spread %s%s%s", score,
             r->extents_per_file, spread, groups, unwritten);
}

int phase_layout(struct phase_ctx *ctx)
{
    struct phase_result *res = ctx->res;
    if (!(ctx->eng->caps & ENG_CAP_REAL))
        return phase_skip(ctx, "the %s engine writes no blocks to lay out", ctx->eng->name);
    int fd = os_open_beneath(ctx->ws_fd, PHASE_TREE_DIR, O_RDONLY | O_DIRECTORY, 0);
    if (fd < 0)
        return phase_fail_dir(ctx, "open", PHASE_TREE_DIR, -errno);
    struct layout_result r;
    char msg[RES_NOTE_MAX];
    err_capture_begin(msg, sizeof msg);
    int rc = layout_scan(fd, &r);
    err_capture_end();
    close(fd);
    if (rc < 0) {
        if (res->status != PHASE_FAILED) {
            res->status = PHASE_FAILED;
            snprintf(res->note, sizeof res->note, "%s", msg);
        }
        return -1;
    }
    layout_remember(&r);
    res->files = r.files;
    res->dirs = r.dirs;
    if (!r.supported)
        return phase_skip(ctx, "FIEMAP is not supported by %s", r.fstype);
    layout_note(&r, res->note, sizeof res->note);
    /* beside the score: the free space's fragmentation (GETFSMAP; else the file system's
     * tool on the run's own device; else "unknown") */
    struct freefrag ff;
    char free_text[300];
    freefrag_measure_dev(ctx->ws_fd, ctx->tgt ? target_device(ctx->tgt) : NULL, &ff);
    size_t used = strlen(res->note);
    snprintf(res->note + used, sizeof res->note - used, "; free space: %s",
             freefrag_summary(&ff, free_text, sizeof free_text));
    return 0;
}
