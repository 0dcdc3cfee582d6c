/* phase_age_replay.c — aging by a real program (--age-replay T.fsbt): the trace `fsbench
 * record` made is replayed again and again on the file system being aged, each repetition
 * in a directory of its own below tree/age-replay (r0001, r0002, ...), its initial state laid
 * down first; everything a repetition leaves stays, as a program run again and again leaves
 * its files (Conway et al., FAST 2017, age by repeated git pulls).
 *
 * It stops, whichever comes first and saying which: after `times` repetitions; once
 * goal_bytes are written (an age step's share, or --age-written x the fs); at the
 * params->age_fullness; with a profile (--age-profile beside --age-replay) and converge > 0,
 * when every bucket of the repetitions' files' distributions is within converge of it; at
 * the free-space target (--age-free-target, age_free_target.c, measured after a repetition
 * when due); at WL_AGE_SAFETY x the fs written. A repetition whose calls diverge from the
 * recording past the replay's limit fails the phase with the replay's own note. The
 * repetition count and the books go on across the steps of a set (age_replay_reset()
 * starts them again).
 *
 * Measured as aging to a profile measures (phase/age.h): the free-space histogram before
 * the first repetition and after the last (after a syncfs), and after each repetition the
 * distributions of what the repetitions left (age_replay.h: sizes, ages from the real
 * clock, depths from each repetition's own directory) and their distance from the profile,
 * a progress line each on stderr (--age-progress) and the per-bucket table at the end.
 * Without a profile the note gives the distributions themselves, in tree capture's
 * buckets, for a later run to compare with.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/grow.h"
#include "os/beneath.h"
#include "phase/age.h"
#include "phase/age_replay.h"
#include "phase/replay.h"
#include "phase/workload.h"
#include "target/target.h"
#include "trace/trace_read.h"

#define AGE_REPLAY_DIR PHASE_TREE_DIR "/age-replay"
#define AGE_STEP_PREFIX 64     /* room an age step's note keeps for its own words */

static unsigned age_replay_next = 1;  /* the next repetition's number */
static struct age_replay_books books; /* the files of r0001 .. r(next - 1) */

void age_replay_reset(void)
{
    age_replay_next = 1;
    age_replay_books_free(&books);
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
    int pfd =
        slash ? os_open_beneath(ctx->ws_fd, parent, O_RDONLY | O_DIRECTORY, 0) : dup(ctx->ws_fd);
    if (pfd < 0)
        return phase_fail_dir(ctx, "open", parent, -errno);
    int rc = mkdirat(pfd, slash ? slash + 1 : dir, 0755) < 0 && errno != EEXIST ? -errno : 0;
    close(pfd);
    return rc < 0 ? phase_fail(ctx, "mkdir", dir, rc) : 0;
}

/* Counts the ended repetition's tree dir into the books. 0, or -1 after phase_fail. */
static int count_repetition(struct phase_ctx *ctx, const char *dir)
{
    int fd = os_open_beneath(ctx->ws_fd, dir, O_RDONLY | O_DIRECTORY, 0);
    if (fd < 0)
        return phase_fail_dir(ctx, "open", dir, -errno);
    int rc = age_replay_books_add(&books, fd) < 0 ? -errno : 0;
    close(fd);
    return rc < 0 ? phase_fail_dir(ctx, "read", dir, rc) : 0;
}

/* What one call measures: the profile (or tree capture's buckets), the distance after the
 * first and the last repetition. */
struct replay_measure {
    struct ageprof prof;
    bool has_prof;
    struct age_outcome o; /* hist, dist, free space before and after, free-space check */
    double first_dist;
    unsigned first_rep, last_rep;
};

static void measure_now(struct replay_measure *m)
{
    age_replay_books_hist(&books, &m->prof, (int64_t)time(NULL), &m->o.hist);
    if (m->has_prof)
        ageprof_distance(&m->prof, &m->o.hist, &m->o.dist);
}

static void progress_line(const struct replay_measure *m, unsigned rep, double written,
                          double fs_size)
{
    char lbl[32], s[3][96];
    const struct ageprof_distance *d = &m->o.dist;
    if (m->has_prof) {
        unsigned wd = d->worst_dim, wb = d->worst_bucket;
        fprintf(
            stderr,
            "fsbench: age: replay r%04u: %.2fx the fs written, %llu files; distance %.1f%% "
            "(sizes %.1f%%, ages %.1f%%, depths %.1f%%; worst: %s %s %+.1f%%)\n",
            rep, fs_size > 0 ? written / fs_size : 0, (unsigned long long)m->o.hist.files,
            100 * d->max_abs, 100 * d->dim_max[AGEPROF_SIZE], 100 * d->dim_max[AGEPROF_AGE],
            100 * d->dim_max[AGEPROF_DEPTH], ageprof_dim_name((enum ageprof_dim)wd),
            ageprof_bucket_label((enum ageprof_dim)wd, m->prof.dist[wd].lo[wb], lbl, sizeof lbl),
            100 * d->diff[wd][wb]);
        return;
    }
    for (unsigned k = 0; k < AGEPROF_DIMS; k++)
        age_replay_shares(&m->o.hist, &m->prof, k, s[k], sizeof s[k]);
    fprintf(stderr,
            "fsbench: age: replay r%04u: %.2fx the fs written, %llu files; sizes %% %s; ages "
            "%% %s; depths %% %s\n",
            rep, fs_size > 0 ? written / fs_size : 0, (unsigned long long)m->o.hist.files, s[0],
            s[1], s[2]);
}

/* The per-bucket table at the end (stderr): against the profile, or the shares alone. */
static void print_table(const struct replay_measure *m)
{
    if (m->has_prof) {
        age_print_buckets(stderr, &m->prof, &m->o);
        return;
    }
    char lbl[32];
    fprintf(stderr, "age by replay: %llu files left (tree capture's buckets)\n",
            (unsigned long long)m->o.hist.files);
    for (unsigned d = 0; d < AGEPROF_DIMS; d++)
        for (unsigned b = 0; b < m->prof.dist[d].n; b++)
            if (m->o.hist.count[d][b])
                fprintf(stderr, "  %-6s %6s  now %5.1f%%\n", ageprof_dim_name((enum ageprof_dim)d),
                        ageprof_bucket_label((enum ageprof_dim)d, m->prof.dist[d].lo[b], lbl,
                                             sizeof lbl),
                        100.0 * (double)m->o.hist.count[d][b] / (double)m->o.hist.files);
}

/* The note: the repetitions, the stop, the distance (or the distributions), the free space
 * before and after, the free-space target, the last repetition's own note. */
static void write_note(struct phase_ctx *ctx, const struct replay_measure *m, unsigned done,
                       double written, double fs_size, const char *why)
{
    const struct phase_params *pp = ctx->params;
    char replay_note[RES_NOTE_MAX], what[200], before[300], after[300], ftext[128];
    snprintf(replay_note, sizeof replay_note, "%s", ctx->res->note);
    /* an age step puts "step to 2x: 1980.1 MiB in all (2.03x the fs); " before it */
    const size_t cap = sizeof ctx->res->note - (ctx->age_step ? AGE_STEP_PREFIX : 0);
    struct statvfs sv;
    double avail = fstatvfs(ctx->ws_fd, &sv) == 0 ? (double)sv.f_bavail * (double)sv.f_frsize : -1;
    const char *path = trace_file_path(pp->age_replay);
    const char *base = strrchr(path, '/');
    base = base && base[1] ? base + 1 : path;
    if (m->has_prof && m->o.hist.files) {
        char lbl[32];
        const struct ageprof_distance *d = &m->o.dist;
        unsigned wd = d->worst_dim, wb = d->worst_bucket;
        int n = snprintf(
            what, sizeof what,
            "profile %s: distance %.2f%% after r%04u (sizes %.1f%%, ages %.1f%%, depths "
            "%.1f%%; worst %s %s)",
            m->prof.name, 100 * d->max_abs, m->last_rep, 100 * d->dim_max[AGEPROF_SIZE],
            100 * d->dim_max[AGEPROF_AGE], 100 * d->dim_max[AGEPROF_DEPTH],
            ageprof_dim_name((enum ageprof_dim)wd),
            ageprof_bucket_label((enum ageprof_dim)wd, m->prof.dist[wd].lo[wb], lbl, sizeof lbl));
        if (m->first_rep != m->last_rep && n > 0 && (size_t)n < sizeof what)
            snprintf(what + n, sizeof what - (size_t)n, ", %.2f%% after r%04u", 100 * m->first_dist,
                     m->first_rep);
    } else if (m->has_prof) {
        snprintf(what, sizeof what, "profile %s: no files left to measure", m->prof.name);
    } else {
        char s[3][64];
        for (unsigned k = 0; k < AGEPROF_DIMS; k++)
            age_replay_shares(&m->o.hist, &m->prof, k, s[k], sizeof s[k]);
        snprintf(what, sizeof what, "%llu files left: sizes %% %s; ages %% %s; depths %% %s",
                 (unsigned long long)m->o.hist.files, s[0], s[1], s[2]);
    }
    int used = snprintf(
        ctx->res->note, cap,
        "replayed %s %u time%s (r%04u-r%04u): wrote %.1f MiB (%.2fx the fs), fs %.0f%% full; "
        "%s; %s; free space before: %s; after: %s",
        base, done, done == 1 ? "" : "s", m->first_rep, m->last_rep, written / 1048576.0,
        fs_size > 0 ? written / fs_size : 0,
        avail >= 0 && fs_size > 0 ? 100.0 * (1.0 - avail / fs_size) : 0, why, what,
        freefrag_summary(&m->o.free_before, before, sizeof before),
        freefrag_summary(&m->o.free_after, after, sizeof after));
    size_t at = used < 0 ? 0 : (size_t)used;
    if (at < cap && m->o.free_check.share > 0 && m->o.free_check.last >= 0)
        at += (size_t)snprintf(ctx->res->note + at, cap - at, "; free-space target: %s",
                               age_free_text(&m->o.free_check, ftext, sizeof ftext));
    /* the last repetition's own note where it fits; else only that none diverged (a
     * repetition past the replay's limit of diverged calls failed the phase) */
    size_t room = at < cap ? cap - at : 0;
    if (replay_note[0] && strlen(replay_note) + 8 < room)
        snprintf(ctx->res->note + at, room, "; last: %s", replay_note);
    else if (replay_note[0] && strstr(replay_note, "none diverged"))
        snprintf(ctx->res->note + at, room, "%s", room > 16 ? "; none diverged" : "");
    else if (replay_note[0])
        snprintf(ctx->res->note + at, room, "; last: %s", replay_note);
}

/* Adds one repetition's figures to a (*cap: the room of a->reps). 0, or -1 after phase_fail
 * (no memory). */
static int add_rep(struct phase_ctx *ctx, struct age_replay_result *a, size_t *cap,
                   uint64_t bytes, double distance)
{
    void *v = a->reps;
    if (grow_to(&v, cap, a->nreps + 1, 16, sizeof *a->reps) < 0)
        return phase_fail(ctx, "age", AGE_REPLAY_DIR, -ENOMEM);
    a->reps = v;
    a->reps[a->nreps++] = (struct age_rep_figure){bytes, distance};
    return 0;
}

/* The end's figures into a: the stop, the free space, the distance or the distributions. */
static void fill_result(struct phase_ctx *ctx, struct age_replay_result *a,
                        const struct replay_measure *m, double written, double fs_size,
                        const char *why)
{
    const char *path = trace_file_path(ctx->params->age_replay);
    const char *base = strrchr(path, '/');
    snprintf(a->trace, sizeof a->trace, "%s", base && base[1] ? base + 1 : path);
    snprintf(a->profile, sizeof a->profile, "%s", m->has_prof ? m->prof.name : "");
    snprintf(a->stop, sizeof a->stop, "%s", why);
    a->first = m->first_rep;
    a->last = m->last_rep;
    a->bytes_written = (uint64_t)written;
    a->fs_bytes = fs_size;
    struct statvfs sv;
    a->fullness = fstatvfs(ctx->ws_fd, &sv) == 0 && fs_size > 0
                      ? 1.0 - (double)sv.f_bavail * (double)sv.f_frsize / fs_size
                      : 0;
    age_free_figures(&a->free_before, &m->o.free_before);
    age_free_figures(&a->free_after, &m->o.free_after);
    a->files = m->o.hist.files;
    bool dist = m->has_prof && m->o.hist.files;
    a->distance = dist ? m->o.dist.max_abs : -1;
    for (unsigned d = 0; d < AGEPROF_DIMS; d++)
        a->dim_distance[d] = dist ? m->o.dist.dim_max[d] : -1;
    age_bucket_figures(a, &m->prof, m->has_prof, &m->o.hist);
}

/* Loads the profile into m (or tree capture's buckets without one). 0, or -1 with the
 * phase failed and the loader's message as its note. */
static int load_profile(struct phase_ctx *ctx, struct replay_measure *m)
{
    if (!ctx->params->age_profile) {
        ageprof_capture_buckets(&m->prof);
        return 0;
    }
    char msg[RES_NOTE_MAX];
    err_capture_begin(msg, sizeof msg);
    int rc = ageprof_load(ctx->params->age_profile, &m->prof);
    err_capture_end();
    if (rc < 0) {
        ctx->res->status = PHASE_FAILED;
        snprintf(ctx->res->note, sizeof ctx->res->note, "%s", msg);
        return -1;
    }
    m->has_prof = true;
    return 0;
}

int age_replay_run(struct phase_ctx *ctx, double goal_bytes, unsigned times, double converge,
                   double earlier, double *written)
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
    double safety = WL_AGE_SAFETY * fs_size;
    static struct replay_measure m; /* large (a profile and two histograms); one age phase */
    memset(&m, 0, sizeof m);
    m.first_dist = -1;
    if (load_profile(ctx, &m) < 0)
        return -1;
    /* the phase's own figures for the run's JSON, attached now: kept as far as they got */
    struct age_replay_result *ar = calloc(1, sizeof *ar);
    if (!ar)
        return phase_fail(ctx, "age", AGE_REPLAY_DIR, -ENOMEM);
    age_replay_result_free(ctx->res->age_replay);
    ctx->res->age_replay = ar;
    size_t reps_cap = 0;
    const char *dev = ctx->tgt ? target_device(ctx->tgt) : NULL;
    freefrag_measure_dev(ctx->ws_fd, dev, &m.o.free_before);
    if (age_free_begin(ctx, &m.o.free_check, fs_size) < 0)
        return -1;
    if (make_dir(ctx, PHASE_TREE_DIR) < 0 || make_dir(ctx, AGE_REPLAY_DIR) < 0)
        return -1;
    struct phase_params p2 = *pp;
    p2.replay = pp->age_replay;
    p2.replay_limit = 0;
    uint64_t w0 = written_now(ctx);
    unsigned done = 0;
    m.first_rep = m.last_rep = age_replay_next;
    const char *why = NULL;
    int rc = 0;
    while (rc == 0 && !why) {
        double w = (double)(written_now(ctx) - w0);
        if (times && done >= times)
            why = "repetitions done";
        else if (goal_bytes > 0 && w >= goal_bytes)
            why = "written target reached";
        else if (w >= safety)
            why = "safety limit reached";
        else if (done >= WL_AGE_REPLAY_MOST)
            why = "repetition limit reached";
        else if (fstatvfs(ctx->ws_fd, &sv) == 0 &&
                 (double)sv.f_bavail * (double)sv.f_frsize < floor)
            why = "fullness target reached";
        if (why)
            break;
        if (phase_check_interrupt(ctx))
            return -1;
        char dir[64];
        unsigned rep = age_replay_next++;
        snprintf(dir, sizeof dir, AGE_REPLAY_DIR "/r%04u", rep);
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
        if (rc == 0)
            rc = count_repetition(ctx, dir);
        if (rc < 0)
            break;
        m.last_rep = rep;
        measure_now(&m);
        w = (double)(written_now(ctx) - w0);
        if (m.first_dist < 0)
            m.first_dist = m.o.dist.max_abs;
        if (add_rep(ctx, ar, &reps_cap, written_now(ctx) - before,
                    m.has_prof && m.o.hist.files ? m.o.dist.max_abs : -1) < 0)
            return -1;
        if (pp->age_progress) /* in a step: what every step wrote, as its note says */
            progress_line(&m, rep, earlier + w, fs_size);
        if (m.has_prof && converge > 0 && m.o.hist.files && m.o.dist.max_abs <= converge) {
            why = "converged";
            break;
        }
        int fr = age_free_reached(ctx, &m.o.free_check, w);
        if (fr < 0)
            return -1;
        if (fr > 0) {
            why = "free-space target reached";
            break;
        }
        if (written_now(ctx) == before && !times) {
            why = "a repetition wrote nothing";
            break;
        }
    }
    *written = (double)(written_now(ctx) - w0);
    if (rc < 0) {
        snprintf(m.o.free_after.why, sizeof m.o.free_after.why, "not measured: the phase failed");
        fill_result(ctx, ar, &m, *written, fs_size, "failed");
        return rc;
    }
    if (ctx->eng->drain(ctx->w) < 0)
        return phase_fail(ctx, "age", AGE_REPLAY_DIR, -EIO);
    if (ctx->eng->syncfs(ctx->w, ctx->ws_fd) < 0)
        return phase_fail(ctx, "syncfs", ".", -EIO);
    freefrag_measure_dev(ctx->ws_fd, dev, &m.o.free_after);
    if (!done)
        m.first_rep = m.last_rep = age_replay_next - 1;
    measure_now(&m); /* the ages as they are now */
    write_note(ctx, &m, done, *written, fs_size, why ? why : "stopped");
    fill_result(ctx, ar, &m, *written, fs_size, why ? why : "stopped");
    if (pp->age_progress) {
        fprintf(stderr, "fsbench: age: stopped: %s\n", why ? why : "stopped");
        print_table(&m);
    }
    return 0;
}
