/* phase_age.c — age a file system by churn, so that later phases measure an aged one
 * (seed 001: "how does it stand up over time? ... continuous create/delete/truncate/append
 * usage for six months").
 *
 * In "tree/age" (32 subdirectories d00..d31) the phase draws, from ctx->seed, one operation
 * at a time: create 40% (a file sized from the tree's profile, wl_profile_size), append 20%
 * (half a profile-sized draw, at least one byte), truncate 10% (to a uniform length below
 * the current one), delete 20% and rename 10% (to a new name, usually in another
 * subdirectory). The mix grows the data set slowly (about one byte kept per 3.5 written),
 * so free space fragments while the file system fills.
 *
 * It stops when the first of these holds:
 *  - params->age_written x the file system's size (f_blocks * f_frsize) has been written
 *    (age_written <= 0: no such limit);
 *  - f_bavail * f_frsize < (1 - params->age_fullness) x the size (age_fullness outside
 *    (0, 1): no such limit); checked every 8 operations and whenever 1/256 of the size has
 *    been written since the last check;
 *  - WL_AGE_SAFETY x the size has been written (the safety limit);
 *  - a write or create fails with ENOSPC or EDQUOT (expected when fullness is high: a
 *    stop, not a failure).
 * The aged files stay. Bookkeeping is one 16-byte record per live file, capped at
 * AGE_MAX_LIVE files (creates turn into deletes at the cap), so memory stays bounded.
 * Same seed, same profile, same file system size and type: the same operations.
 * Counts: files created (res->files), directories made (res->dirs); the engine counts the
 * bytes; the note says how much was written, how full the file system is and why it ended.
 *
 * With params->age_profile set, the phase ages to that profile instead (phase/age.h): it
 * stops on convergence (params->age_converge), the written or the fullness target, and its
 * note gives the stop, the distance from the profile and the free space before and after;
 * the same figures go into the phase's own object (res->age_profile, age_figures.c) for
 * the run's JSON. With params->age_replay set, it ages by replaying that trace (phase_age_replay.c), with a
 * profile beside it until it converges to the profile, measured the same way.
 */
#include <errno.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "base/err.h"
#include "base/units.h"
#include "os/beneath.h"
#include "phase/age.h"
#include "phase/workload.h"

#define AGE_DIRS 32
#define AGE_MAX_LIVE (1u << 20)
#define AGE_CHECK_OPS 8

struct age_file {
    uint64_t size;
    uint32_t id; /* name "f<id hex>" in directory d<id % AGE_DIRS> */
};

struct age {
    struct phase_ctx *ctx;
    struct wl_rng rng;
    int dfd[AGE_DIRS];
    struct age_file *live;
    size_t n, cap;
    uint32_t next_id;
};

static void file_name(uint32_t id, char *buf, size_t len)
{
    snprintf(buf, len, "f%x", (unsigned)id);
}

static int fail_file(struct age *a, const char *op, uint32_t id, int rc)
{
    char path[96], name[16];
    file_name(id, name, sizeof name);
    snprintf(path, sizeof path, PHASE_TREE_DIR "/" WL_AGE_DIR "/d%02u/%s", id % AGE_DIRS, name);
    return phase_fail(a->ctx, op, path, rc);
}

static bool no_space(int rc)
{
    return rc == -ENOSPC || rc == -EDQUOT;
}

/* Each operation returns 0, 1 when the file system is full, or -1 after phase_fail. */
static int op_create(struct age *a)
{
    struct phase_ctx *ctx = a->ctx;
    if (a->n == a->cap) {
        size_t ncap = a->cap ? a->cap * 2 : 1024;
        struct age_file *p = realloc(a->live, ncap * sizeof *p);
        if (!p)
            return phase_fail(ctx, "age", PHASE_TREE_DIR "/" WL_AGE_DIR, -ENOMEM);
        a->live = p;
        a->cap = ncap;
    }
    uint32_t id = a->next_id++;
    uint64_t size = wl_profile_size(ctx->tree->prof, &a->rng);
    char name[16];
    file_name(id, name, sizeof name);
    size_t off = (size_t)wl_rng_below(&a->rng, 4096);
    int rc = ctx->eng->create_file(ctx->w, a->dfd[id % AGE_DIRS], name, 0644, wl_pattern() + off,
                                   WL_PATTERN_LEN - off, size, 0);
    if (no_space(rc))
        return 1;
    if (rc < 0)
        return fail_file(a, "create", id, rc);
    a->live[a->n++] = (struct age_file){size, id};
    ctx->res->files++;
    return 0;
}

static int op_append(struct age *a, struct age_file *f)
{
    struct phase_ctx *ctx = a->ctx;
    char name[16];
    file_name(f->id, name, sizeof name);
    uint64_t len = wl_profile_size(ctx->tree->prof, &a->rng) / 2 + 1;
    int fd =
        ctx->eng->open(ctx->w, a->dfd[f->id % AGE_DIRS], name, O_WRONLY | O_APPEND | O_NOFOLLOW, 0);
    if (fd < 0)
        return fail_file(a, "open", f->id, fd);
    int rc = wl_write_pattern(ctx, fd, len, wl_rng_next(&a->rng));
    int rc2 = ctx->eng->close(ctx->w, fd);
    if (rc == 0)
        rc = rc2;
    if (no_space(rc))
        return 1;
    if (rc < 0)
        return fail_file(a, "append", f->id, rc);
    f->size += len;
    return 0;
}

static int op_truncate(struct age *a, struct age_file *f)
{
    struct phase_ctx *ctx = a->ctx;
    char name[16];
    file_name(f->id, name, sizeof name);
    uint64_t len = wl_rng_below(&a->rng, f->size + 1);
    int fd = ctx->eng->open(ctx->w, a->dfd[f->id % AGE_DIRS], name, O_WRONLY | O_NOFOLLOW, 0);
    if (fd < 0)
        return fail_file(a, "open", f->id, fd);
    int rc = ctx->eng->ftruncate(ctx->w, fd, len);
    ctx->eng->close(ctx->w, fd);
    if (rc < 0)
        return fail_file(a, "truncate", f->id, rc);
    f->size = len;
    return 0;
}

static int op_delete(struct age *a, size_t i)
{
    struct phase_ctx *ctx = a->ctx;
    char name[16];
    file_name(a->live[i].id, name, sizeof name);
    int rc = ctx->eng->unlink(ctx->w, a->dfd[a->live[i].id % AGE_DIRS], name, 0);
    if (rc < 0)
        return fail_file(a, "unlink", a->live[i].id, rc);
    a->live[i] = a->live[--a->n];
    return 0;
}

static int op_rename(struct age *a, struct age_file *f)
{
    struct phase_ctx *ctx = a->ctx;
    char from[16], to[16];
    uint32_t id = a->next_id++;
    file_name(f->id, from, sizeof from);
    file_name(id, to, sizeof to);
    int rc = ctx->eng->rename(ctx->w, a->dfd[f->id % AGE_DIRS], from, a->dfd[id % AGE_DIRS], to);
    if (no_space(rc))
        return 1;
    if (rc < 0)
        return fail_file(a, "rename", f->id, rc);
    f->id = id;
    return 0;
}

static int step(struct age *a)
{
    unsigned r = (unsigned)wl_rng_below(&a->rng, 100);
    if (a->n == 0)
        return op_create(a);
    size_t i = (size_t)wl_rng_below(&a->rng, a->n);
    if (r < 40)
        return a->n >= AGE_MAX_LIVE ? op_delete(a, i) : op_create(a);
    if (r < 60)
        return op_append(a, &a->live[i]);
    if (r < 70)
        return op_truncate(a, &a->live[i]);
    if (r < 90)
        return op_delete(a, i);
    return op_rename(a, &a->live[i]);
}

/* Opens (making them if needed) tree/age and its subdirectories. 0 or -1. */
static int open_dirs(struct age *a)
{
    struct phase_ctx *ctx = a->ctx;
    const struct engine *e = ctx->eng;
    const char *const path = PHASE_TREE_DIR "/" WL_AGE_DIR;
    int afd = age_root_open(ctx);
    if (afd < 0)
        return -1;
    int rc;
    ctx->res->dirs++;
    for (unsigned d = 0; d < AGE_DIRS; d++) {
        char name[8];
        snprintf(name, sizeof name, "d%02u", d);
        rc = wl_mkdir_p(ctx, afd, name);
        bool made = rc == 0;
        if (made)
            rc = a->dfd[d] = e->opendir(ctx->w, afd, name);
        if (rc < 0) {
            char p[64];
            snprintf(p, sizeof p, "%s/%s", path, name);
            e->close(ctx->w, afd);
            return made ? phase_fail_dir(ctx, "open", p, rc) : phase_fail(ctx, "mkdir", p, rc);
        }
        ctx->res->dirs++;
    }
    e->close(ctx->w, afd);
    return 0;
}

/* The aged directory of the last completed aging (device and inode): a later run of this
 * process that finds it still there (--keep-fs) skips aging. Kept in memory, not in a marker
 * file, so the measuring phases count only the aged files. */
static dev_t aged_dev;
static ino_t aged_ino;
static int aged_known;

/* The phase's own figures for the run's JSON (phase_result.age_profile), as far as the
 * engine got: without memory, the note alone (the figures are a copy of what it says). */
static void attach_figures(struct phase_ctx *ctx, const struct ageprof *p,
                           const struct age_outcome *o, const char *stop)
{
    struct age_replay_result *a = malloc(sizeof *a);
    if (!a)
        return;
    age_profile_figures(a, p, o, stop ? stop : "stopped");
    age_replay_result_free(ctx->res->age_profile);
    ctx->res->age_profile = a;
}

/* The age phase with a profile: age_profile_run, then the note and (with progress) the
 * per-bucket table on stderr. more_bytes > 0 (an age step): write that much more, whatever
 * the distance. */
static int age_by_profile(struct phase_ctx *ctx, double more_bytes)
{
    struct ageprof prof;
    char msg[RES_NOTE_MAX];
    err_capture_begin(msg, sizeof msg);
    int lrc = ageprof_load(ctx->params->age_profile, &prof);
    err_capture_end();
    if (lrc < 0) {
        ctx->res->status = PHASE_FAILED;
        snprintf(ctx->res->note, sizeof ctx->res->note, "%s", msg);
        return -1;
    }
    struct statvfs sv;
    if (fstatvfs(ctx->ws_fd, &sv) < 0)
        return phase_fail(ctx, "statvfs", ".", -errno);
    double fs_size = (double)sv.f_blocks * (double)sv.f_frsize;
    struct age_budget b = {
        .written_bytes = ctx->params->age_written > 0 ? ctx->params->age_written * fs_size : 0,
        .converge = ctx->params->age_converge,
        .fullness = ctx->params->age_fullness,
        .progress = ctx->params->age_progress,
    };
    if (more_bytes > 0) { /* a step of --age-steps: its share of the writing */
        b.written_bytes = more_bytes;
        b.converge = 0;
    }
    struct age_outcome o;
    memset(&o, 0, sizeof o);
    int rc = age_profile_run(ctx, &prof, &b, &o);
    if (ctx->res->status == PHASE_SKIPPED)
        return rc;
    attach_figures(ctx, &prof, &o, rc < 0 ? "failed" : o.why);
    if (rc < 0)
        return rc;
    char wr[32], before[300], after[300], lbl[32];
    unsigned wd = o.dist.worst_dim, wb = o.dist.worst_bucket;
    snprintf(ctx->res->note, sizeof ctx->res->note,
             "profile %s: %s after %llu ops; wrote %s (%.2fx the fs), %llu files in %llu dirs, "
             "fs %.0f%% full; distance %.2f%% (worst %s %s); free space before: %s; after: %s",
             prof.name, o.why, (unsigned long long)o.ops,
             units_bytes(wr, sizeof wr, (double)o.written), (double)o.written / fs_size,
             (unsigned long long)o.live_files, (unsigned long long)o.dirs, 100 * o.fs_full,
             100 * o.dist.max_abs, ageprof_dim_name((enum ageprof_dim)wd),
             ageprof_bucket_label((enum ageprof_dim)wd, prof.dist[wd].lo[wb], lbl, sizeof lbl),
             freefrag_summary(&o.free_before, before, sizeof before),
             freefrag_summary(&o.free_after, after, sizeof after));
    if (o.free_check.share > 0 && o.free_check.last >= 0) {
        size_t used = strlen(ctx->res->note);
        snprintf(ctx->res->note + used, sizeof ctx->res->note - used, "; free-space target: %s",
                 age_free_text(&o.free_check, before, sizeof before));
    }
    if (ctx->params->age_progress) {
        fprintf(stderr, "fsbench: age: stopped: %s\n", o.why);
        age_print_buckets(stderr, &prof, &o);
    }
    return 0;
}

/* The age phase by replay (--age-replay): without a profile, --age-replay-times
 * repetitions (default 1); with one (--age-profile), repetitions until convergence
 * (--age-converge), or --age-replay-times when given; --age-written x the fs (default 4)
 * stops both, as do the fullness and the free-space target. */
static int age_by_replay(struct phase_ctx *ctx)
{
    const struct phase_params *pp = ctx->params;
    struct statvfs sv;
    if (fstatvfs(ctx->ws_fd, &sv) < 0)
        return phase_fail(ctx, "statvfs", ".", -errno);
    double fs_size = (double)sv.f_blocks * (double)sv.f_frsize;
    double w;
    unsigned times = pp->age_replay_times;
    if (!times && !pp->age_profile)
        times = 1;
    age_replay_reset();
    return age_replay_run(ctx, pp->age_written > 0 ? pp->age_written * fs_size : 0, times,
                          pp->age_profile ? pp->age_converge : 0, 0, &w);
}

static int age_run(struct phase_ctx *ctx, double more_bytes);
static void age_steps_resume(struct age *a);
static void age_steps_keep(struct age *a, double written);
static void age_steps_note(struct phase_ctx *ctx, const struct age *a, double written,
                           double fs_size, double avail, const char *why);
static void age_steps_profile_done(struct phase_ctx *ctx);

int phase_age(struct phase_ctx *ctx)
{
    if (ctx->age_step)
        return phase_age_further(ctx);
    if (ctx->params && ctx->params->age_replay) /* aging by a real program */
        return age_by_replay(ctx);
    return age_run(ctx, 0);
}

/* Ages; more_bytes > 0 (age steps): go on from the state kept by the last aging, write
 * more_bytes, and hold the fullness (delete instead of stopping above it). */
static int age_run(struct phase_ctx *ctx, double more_bytes)
{
    double want_written = ctx->params ? ctx->params->age_written : WL_DEFAULT_AGE_WRITTEN;
    double fullness = ctx->params ? ctx->params->age_fullness : WL_DEFAULT_AGE_FULLNESS;
    /* With --keep-fs the file system is aged once and measured many times. */
    struct stat mst;
    if (more_bytes <= 0 && ctx->params && ctx->params->age_once && aged_known &&
        os_stat_beneath(ctx->ws_fd, PHASE_TREE_DIR "/" WL_AGE_DIR, &mst) == 0 &&
        mst.st_dev == aged_dev && mst.st_ino == aged_ino)
        return phase_skip(ctx, "already aged by an earlier run (--keep-fs)");
    if (ctx->params && ctx->params->age_profile) {
        int prc = age_by_profile(ctx, more_bytes);
        if (prc == 0 && more_bytes > 0 && ctx->res->status == PHASE_OK)
            age_steps_profile_done(ctx);
        if (prc == 0 && ctx->res->status == PHASE_OK &&
            os_stat_beneath(ctx->ws_fd, PHASE_TREE_DIR "/" WL_AGE_DIR, &mst) == 0) {
            aged_dev = mst.st_dev;
            aged_ino = mst.st_ino;
            aged_known = 1;
        }
        return prc;
    }
    if (!ctx->tree || !ctx->tree->prof)
        return phase_fail(ctx, "age", PHASE_TREE_DIR, -EINVAL);
    struct statvfs sv;
    if (fstatvfs(ctx->ws_fd, &sv) < 0)
        return phase_fail(ctx, "statvfs", ".", -errno);
    double fs_size = (double)sv.f_blocks * (double)sv.f_frsize;
    if (fs_size <= 0)
        return phase_skip(ctx, "the file system reports no size (f_blocks 0): nothing to age");
    double limit = WL_AGE_SAFETY * fs_size;
    if (want_written > 0 && want_written * fs_size < limit)
        limit = want_written * fs_size;
    if (more_bytes > 0)
        limit = more_bytes;
    double floor = fullness > 0 && fullness < 1 ? (1 - fullness) * fs_size : -1;
    struct age_free_check fc;
    if (age_free_begin(ctx, &fc, fs_size) < 0)
        return -1;

    struct age a = {.ctx = ctx};
    for (unsigned d = 0; d < AGE_DIRS; d++)
        a.dfd[d] = -1;
    wl_rng_seed(&a.rng, ctx->seed, 0xa9e0ull);
    bool over_full = false;
    if (more_bytes > 0)
        age_steps_resume(&a);
    const uint64_t w0 = ctx->w->st->bytes_written;
    uint64_t checked_at = w0, written = 0;
    double avail = (double)sv.f_bavail * (double)sv.f_frsize;
    const char *why = NULL;
    int rc = open_dirs(&a);
    for (uint64_t ops = 0; rc == 0 && !why; ops++) {
        uint64_t now = ctx->w->st->bytes_written;
        written = now - w0;
        if (ops % AGE_CHECK_OPS == 0 || (double)(now - checked_at) * 256 >= fs_size) {
            checked_at = now;
            if (fstatvfs(ctx->ws_fd, &sv) < 0) {
                rc = phase_fail(ctx, "statvfs", ".", -errno);
                break;
            }
            avail = (double)sv.f_bavail * (double)sv.f_frsize;
            over_full = avail < floor;
            if (over_full && more_bytes <= 0) {
                why = "fullness target reached";
                break;
            }
            int fr = age_free_reached(ctx, &fc, (double)written);
            if (fr != 0) {
                rc = fr < 0 ? -1 : 0;
                why = fr > 0 ? "free-space target reached" : NULL;
                break;
            }
        }
        if ((double)written >= limit) {
            why = want_written > 0 && want_written < WL_AGE_SAFETY ? "written target reached"
                                                                   : "safety limit reached";
            break;
        }
        if (phase_check_interrupt(ctx)) {
            rc = -1;
            break;
        }
        /* age steps: above the fullness, deletes bring it back under (no write) */
        int s = over_full && a.n ? op_delete(&a, (size_t)wl_rng_below(&a.rng, a.n)) : step(&a);
        if (s < 0)
            rc = -1;
        else if (s > 0)
            why = "file system full (ENOSPC)";
    }
    written = ctx->w->st->bytes_written - w0;
    char ftext[128];
    if (rc == 0 && ctx->eng->drain(ctx->w) < 0)
        rc = phase_fail(ctx, "age", PHASE_TREE_DIR "/" WL_AGE_DIR, -EIO);
    if (rc == 0 && fstatvfs(ctx->ws_fd, &sv) == 0)
        avail = (double)sv.f_bavail * (double)sv.f_frsize;
    for (unsigned d = 0; d < AGE_DIRS; d++)
        if (a.dfd[d] >= 0)
            ctx->eng->close(ctx->w, a.dfd[d]);
    if (rc == 0 && os_stat_beneath(ctx->ws_fd, PHASE_TREE_DIR "/" WL_AGE_DIR, &mst) == 0) {
        aged_dev = mst.st_dev;
        aged_ino = mst.st_ino;
        aged_known = 1;
    }
    if (rc == 0 && more_bytes > 0)
        age_steps_note(ctx, &a, (double)written, fs_size, avail, why);
    else if (rc == 0)
        snprintf(ctx->res->note, sizeof ctx->res->note,
                 "wrote %.1f MiB (%.2fx the fs), %zu files live, fs %.0f%% full; %s%s%s",
                 (double)written / 1048576.0, (double)written / fs_size, a.n,
                 100.0 * (1.0 - avail / fs_size), why ? why : "stopped",
                 fc.share > 0 && fc.last >= 0 ? "; free-space target: " : "",
                 fc.share > 0 && fc.last >= 0 ? age_free_text(&fc, ftext, sizeof ftext) : "");
    if (more_bytes > 0 && rc == 0)
        age_steps_keep(&a, (double)written); /* takes a.live */
    else
        free(a.live);
    return rc;
}

/* ---- age steps: "age further by this many bytes written" (--age-steps) ----
 *
 * Between the steps of one set the file system stays mounted and the aged files stay; the
 * live-file records, the next name and the bytes written in all are kept here, in memory
 * (as aged_dev is), so the next step goes on where the last one left off. A step's first
 * run ages; the later runs of the step find the total reached and skip. */
static struct age_file *steps_live;
static size_t steps_n, steps_cap;
static uint32_t steps_next_id;
static double steps_written; /* bytes written by every step so far */
static unsigned steps_done;

/* Takes over the records the last step left (none at the first). */
static void age_steps_resume(struct age *a)
{
    a->live = steps_live;
    a->n = steps_n;
    a->cap = steps_cap;
    a->next_id = steps_next_id;
    steps_live = NULL;
    steps_n = steps_cap = 0;
    /* each step its own stream of choices, the same for the same seed */
    wl_rng_seed(&a->rng, a->ctx->seed ^ (0x9e3779b97f4a7c15ull * (steps_done + 1)), 0xa9e0ull);
}

/* Keeps a's records for the next step; takes a->live. */
static void age_steps_keep(struct age *a, double written)
{
    free(steps_live);
    steps_live = a->live;
    steps_n = a->n;
    steps_cap = a->cap;
    steps_next_id = a->next_id;
    steps_written += written;
    steps_done++;
    a->live = NULL;
}

static void age_steps_note(struct phase_ctx *ctx, const struct age *a, double written,
                           double fs_size, double avail, const char *why)
{
    double all = steps_written + written;
    snprintf(ctx->res->note, sizeof ctx->res->note,
             "step to %gx: wrote %.1f MiB, %.1f MiB in all (%.2fx the fs), %zu files live, fs "
             "%.0f%% full%s%s",
             ctx->age_until_x, written / 1048576.0, all / 1048576.0, all / fs_size, a->n,
             100.0 * (1.0 - avail / fs_size), why && strcmp(why, "written target reached")
                                                 ? "; "
                                                 : "",
             why && strcmp(why, "written target reached") ? why : "");
}

/* A step aged by a profile (which keeps no records: it rescans tree/age): counts what it
 * wrote into the steps' total, so the step's later rounds skip, and says the total. */
static void age_steps_profile_done(struct phase_ctx *ctx)
{
    struct age_outcome o;
    if (age_last_outcome(&o) < 0)
        return;
    steps_written += (double)o.written;
    steps_done++;
    char note[RES_NOTE_MAX];
    snprintf(note, sizeof note, "%s", ctx->res->note);
    snprintf(ctx->res->note, sizeof ctx->res->note, "step to %gx: %.1f MiB in all (%.2fx the fs); %s",
             ctx->age_until_x, steps_written / 1048576.0,
             o.fs_size > 0 ? steps_written / o.fs_size : 0, note);
}

void phase_age_steps_reset(void)
{
    age_replay_reset();
    free(steps_live);
    steps_live = NULL;
    steps_n = steps_cap = 0;
    steps_next_id = 0;
    steps_written = 0;
    steps_done = 0;
}

double phase_age_steps_written(void)
{
    return steps_written;
}

int phase_age_further(struct phase_ctx *ctx)
{
    struct statvfs sv;
    if (fstatvfs(ctx->ws_fd, &sv) < 0)
        return phase_fail(ctx, "statvfs", ".", -errno);
    double fs_size = (double)sv.f_blocks * (double)sv.f_frsize;
    double goal = ctx->age_until_x * fs_size;
    if (ctx->age_until_x <= 0) {
        /* the fresh point: the directories only, so the probe finds the tree */
        struct age a = {.ctx = ctx};
        for (unsigned d = 0; d < AGE_DIRS; d++)
            a.dfd[d] = -1;
        int rc = open_dirs(&a);
        for (unsigned d = 0; d < AGE_DIRS; d++)
            if (a.dfd[d] >= 0)
                ctx->eng->close(ctx->w, a.dfd[d]);
        if (rc < 0)
            return rc;
        return phase_skip(ctx, "the fresh file system: nothing aged yet (step 0x)");
    }
    if (steps_written >= goal) {
        phase_skip(ctx, "aged to %gx already (%.1f MiB written in all, %.2fx the fs)",
                   ctx->age_until_x, steps_written / 1048576.0,
                   fs_size > 0 ? steps_written / fs_size : 0);
        return 0;
    }
    if (ctx->params && ctx->params->age_replay) { /* steps of a real program's replays */
        double w;
        int rc = age_replay_run(ctx, goal - steps_written, 0, 0, steps_written, &w);
        steps_written += w;
        steps_done++;
        if (rc == 0) {
            char note[RES_NOTE_MAX];
            snprintf(note, sizeof note, "%s", ctx->res->note);
            snprintf(ctx->res->note, sizeof ctx->res->note,
                     "step to %gx: %.1f MiB in all (%.2fx the fs); %s", ctx->age_until_x,
                     steps_written / 1048576.0, fs_size > 0 ? steps_written / fs_size : 0,
                     note);
        }
        return rc;
    }
    return age_run(ctx, goal - steps_written);
}
