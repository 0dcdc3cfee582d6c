/* replay.c — the replay phase (replay.h): its set-up, the dispatcher and the result (its
 * threads: replay_thread.c).
 *
 * The dispatcher is the phase's own thread: it decodes the trace (streamed: memory does
 * not grow with its length), gives each recorded thread a replay thread (the one with the
 * fewest live recorded threads when it first appears), works out what each call waits for
 * (replay_deps.c; nothing when there is one replay thread) and hands calls out in chunks of
 * up to RP_CHUNK_CALLS from a pool of RP_POOL_CHUNKS. A chunk goes to its thread when full,
 * when its thread runs dry, or when another thread's call waits for one of its calls;
 * before the dispatcher waits for a free chunk it hands every partial chunk out, so the
 * earliest unfinished call can always run and the replay cannot deadlock.
 *
 * Each replay thread runs its chunks in order: for each call it waits for its
 * dependencies ((thread, position) pairs: done counters, then a condition variable),
 * waits its think time with original timing, makes the call (replay_exec.c) and counts it
 * done.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "os/beneath.h"
#include "phase/replay_internal.h"
#include "phase/workload.h"
#include "trace/trace_stats.h"

#define NO_THREAD UINT32_MAX
#define BUF_MIN ((size_t)64 * 1024)
#define BUF_MAX ((size_t)4 << 20)

unsigned replay_threads_wanted(const struct trace_info *info, unsigned cap)
{
    unsigned want = info->max_concurrency ? info->max_concurrency : 1;
    unsigned most = cap && cap < REPLAY_THREADS_MAX ? cap : REPLAY_THREADS_MAX;
    return want < most ? want : most;
}

static int fail_note(struct phase_ctx *ctx, const char *fmt, const char *s)
{
    ctx->res->status = PHASE_FAILED;
    snprintf(ctx->res->note, sizeof ctx->res->note, fmt, s);
    return -1;
}

/* The replay's root, "tree" (made when missing). A descriptor, or -1 after phase_fail. */
static int open_root(struct phase_ctx *ctx)
{
    if (ctx->replay_root) { /* made by the caller (age by replay: tree/age-replay/rNNNN) */
        int fd = os_open_beneath(ctx->ws_fd, ctx->replay_root, O_RDONLY | O_DIRECTORY, 0);
        if (fd < 0)
            return phase_fail_dir(ctx, "open", ctx->replay_root, -errno);
        return fd;
    }
    if (mkdirat(ctx->ws_fd, PHASE_TREE_DIR, 0755) < 0 && errno != EEXIST)
        return phase_fail(ctx, "mkdir", PHASE_TREE_DIR, -errno);
    int fd = os_open_beneath(ctx->ws_fd, PHASE_TREE_DIR, O_RDONLY | O_DIRECTORY, 0);
    if (fd < 0)
        return phase_fail_dir(ctx, "open", PHASE_TREE_DIR, -errno);
    return fd;
}

/* Enough descriptors for the trace's slots, the threads' directory caches and ours. */
static int raise_fd_limit(struct phase_ctx *ctx, const struct trace_info *in, unsigned threads)
{
    struct rlimit rl;
    rlim_t need = (rlim_t)in->nslots + (rlim_t)threads * (RP_DIRCACHE + 2) + 64;
    if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= need)
        return 0;
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
        ctx->res->status = PHASE_FAILED;
        snprintf(ctx->res->note, sizeof ctx->res->note,
                 "the trace holds %u descriptors open at once, and ulimit -n allows at most "
                 "%llu here (%llu needed)",
                 in->nslots, (unsigned long long)rl.rlim_max, (unsigned long long)need);
        return -1;
    }
    rl.rlim_cur = need;
    setrlimit(RLIMIT_NOFILE, &rl);
    return 0;
}

int phase_replay_setup(struct phase_ctx *ctx)
{
    struct trace_file *t = ctx->params ? ctx->params->replay : NULL;
    if (!t)
        return fail_note(ctx, "%s", "no trace to replay (--replay FILE)");
    if (!(ctx->eng->caps & ENG_CAP_REAL))
        return phase_replay_arm(ctx); /* the null engine makes nothing */
    const struct trace_info *in = trace_file_info(t);
    if (raise_fd_limit(ctx, in, replay_threads_wanted(in, ctx->params->replay_threads)) < 0)
        return -1;
    int root = open_root(ctx);
    if (root < 0)
        return -1;
    char why[RES_NOTE_MAX];
    uint64_t dropped = 0;
    int rc = rp_state_lay(ctx, t, root, &dropped, why, sizeof why);
    close(root);
    if (rc < 0)
        return fail_note(ctx, "%s", why);
    /* said in the phase's note (phase_replay keeps what setup left there); no note of an
     * earlier use of the result is left for it to take as setup's */
    ctx->res->note[0] = '\0';
    if (dropped)
        snprintf(ctx->res->note, sizeof ctx->res->note,
                 "setuid/setgid dropped from %" PRIu64 " file%s of the initial state", dropped,
                 dropped == 1 ? "" : "s");
    return phase_replay_arm(ctx);
}

/* ---- the dispatcher ---- */

static void push(struct replay *rp, struct rp_thread *t)
{
    struct rp_chunk *c = t->partial;
    if (!c)
        return;
    t->partial = NULL;
    c->next = NULL;
    pthread_mutex_lock(&t->mu);
    if (t->tail)
        t->tail->next = c;
    else
        t->head = c;
    t->tail = c;
    atomic_fetch_add(&t->queued, 1);
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
    (void)rp;
}

static void push_all(struct replay *rp)
{
    for (unsigned i = 0; i < rp->nthreads; i++)
        push(rp, &rp->th[i]);
}

static struct rp_chunk *chunk_get(struct replay *rp)
{
    pthread_mutex_lock(&rp->pool_mu);
    if (!rp->free) {
        pthread_mutex_unlock(&rp->pool_mu);
        push_all(rp); /* so the earliest waiting call can run, and free a chunk */
        pthread_mutex_lock(&rp->pool_mu);
        while (rp->nfree < RP_POOL_REFILL && !atomic_load(&rp->stop) && !phase_interrupt) {
            rp_cond_wait_briefly(&rp->pool_cv, &rp->pool_mu);
        }
    }
    struct rp_chunk *c = rp->free;
    if (c) {
        rp->free = c->next;
        rp->nfree--;
        c->n = c->ndeps = c->arena_used = 0;
    }
    pthread_mutex_unlock(&rp->pool_mu);
    return c;
}

/* The replay thread of recorded thread r: given when first seen, to the thread with the
 * fewest recorded threads alive. */
static unsigned thread_of(struct replay *rp, uint32_t r)
{
    if (rp->map[r] != NO_THREAD)
        return rp->map[r];
    unsigned best = 0;
    for (unsigned i = 1; i < rp->nthreads; i++)
        if (rp->th[i].live < rp->th[best].live)
            best = i;
    rp->map[r] = best;
    rp->th[best].live++;
    return best;
}

/* Copies n bytes of s into the chunk's arena: its offset. */
static uint32_t keep(struct rp_chunk *ch, const char *s, uint32_t n)
{
    uint32_t at = ch->arena_used;
    memcpy(ch->arena + at, s, n);
    ch->arena[at + n] = '\0';
    ch->arena_used += n + 1;
    return at;
}

/* Hands out call c. 0, or -1 when the replay stops. */
static int dispatch(struct replay *rp, const struct trace_call *c, uint64_t seq)
{
    uint32_t r = c->thread;
    if (c->kind == TK_AWAY) {
        if (rp->timing == REPLAY_ORIGINAL) {
            rp->away_ns[r] += c->dur_ns;
            rp->away_stops[r] += c->size;
        }
        return 0;
    }
    unsigned ti = thread_of(rp, r);
    struct rp_thread *t = &rp->th[ti];
    uint64_t think = 0;
    if (c->kind == TK_EXIT) {
        if (t->live)
            t->live--;
        if (rp->timing != REPLAY_ORIGINAL)
            return 0;
    }
    uint32_t mode = c->mode;
    if (!rp->keep_setid && (mode & (S_ISUID | S_ISGID)) &&
        (c->kind == TK_OPEN || c->kind == TK_MKDIR || c->kind == TK_CHMOD ||
         c->kind == TK_FCHMOD)) {
        mode &= ~(uint32_t)(S_ISUID | S_ISGID); /* no setuid file made from a trace */
        rp->unsetid++;
    }
    if (rp->timing == REPLAY_ORIGINAL) {
        if (c->kind == TK_SPAWN) {
            rp->rec_end[r] = c->start_ns;
        } else if (c->kind < TK_CALL_KINDS) {
            uint64_t last = rp->rec_end[r];
            uint64_t gap = last && c->start_ns > last ? c->start_ns - last : 0;
            /* the program's own time: the gap less what it waited (for a child, a pipe)
             * and the tracer's part, a gap per stop (trace_record.h) */
            think = trace_thread_think_ns(rp->info, r, gap, rp->away_ns[r],
                                          rp->away_stops[r]);
            rp->away_ns[r] = rp->away_stops[r] = 0;
            rp->rec_end[r] = c->start_ns + c->dur_ns;
        }
        /* format 5: what its process's gaps could not hold (a process that makes no
         * call: its CPU time) is worked on its own thread over its life, before each of
         * its records (its pipes' reads and writes, its exit) as the time between them,
         * beside the others; its parent's wait waits for it */
        if (c->kind != TK_SPAWN)
            think += trace_tail_think_ns(rp->info, r, rp->tail_prev[r], c->start_ns,
                                         c->kind == TK_EXIT, &rp->tail_spent[r]);
        rp->tail_prev[r] = c->start_ns;
        if (think > TRACE_THINK_MAX_NS) {
            think = TRACE_THINK_MAX_NS; /* said in the note */
            rp->capped++;
        }
        if (c->kind == TK_EXIT && !think)
            return 0;
    }
    uint32_t slot = c->slot, slot2 = c->slot2;
    int64_t result = c->result;
    if (rp->nthreads > 1)
        rp_slots_rename(rp, c->kind, &slot, &slot2, &result);
    for (int attempt = 0;; attempt++) {
        uint32_t need = c->path_len + c->path2_len + 2;
        struct rp_chunk *ch = t->partial;
        if (ch && (ch->n == RP_CHUNK_CALLS || ch->arena_used + need > RP_CHUNK_ARENA ||
                   ch->ndeps + REPLAY_THREADS_MAX > RP_CHUNK_DEPS)) {
            push(rp, t);
            ch = NULL;
        }
        if (!ch) {
            if (!(ch = chunk_get(rp)))
                return -1;
            ch->first_pos = t->dispatched;
            t->partial = ch;
        }
        struct rp_call *k = &ch->call[ch->n];
        *k = (struct rp_call){
            .kind = c->kind, .opk = (uint8_t)trace_op_kind(c->kind, c->flags),
            .rk = (uint8_t)trace_kind_result(c->kind), .rthread = r, .seq = seq,
            .result = result, .slot = slot, .slot2 = slot2, .size = c->size, .off = c->off,
            .off2 = c->off2, .soff = c->soff, .flags = c->flags, .mode = mode, .aux = c->aux,
            .path = UINT32_MAX, .path2 = UINT32_MAX, .path_len = c->path_len,
            .path2_len = c->path2_len, .think_ns = think, .start_ns = c->start_ns,
            .dep = ch->ndeps,
        };
        uint32_t saved = ch->arena_used;
        if (c->path)
            k->path = keep(ch, c->path, c->path_len);
        if (c->path2)
            k->path2 = keep(ch, c->path2, c->path2_len);
        if (rp->nthreads > 1) {
            int n = rp_deps_of(rp, k, ch->arena, ti, t->dispatched, ch->deps + ch->ndeps,
                               RP_CHUNK_DEPS - (int)ch->ndeps);
            if (n < 0) {
                ch->arena_used = saved;
                if (n == -1) {
                    push(rp, t); /* no room left for its dependencies: a new chunk */
                } else {
                    /* a full bucket of the resource table: let the calls in it finish */
                    push_all(rp);
                    struct timespec ts = {0, 50000};
                    nanosleep(&ts, NULL);
                }
                if (atomic_load(&rp->stop))
                    return -1;
                continue;
            }
            k->ndeps = (uint16_t)n;
            /* a call waiting for calls not handed out yet: hand them out now */
            for (int i = 0; i < n; i++) {
                struct rp_thread *o = &rp->th[RP_DEP_THREAD(ch->deps[ch->ndeps + i])];
                if (o != t && o->partial &&
                    RP_DEP_POS(ch->deps[ch->ndeps + i]) >= o->partial->first_pos)
                    push(rp, o);
            }
            ch->ndeps += (uint32_t)n;
        }
        ch->n++;
        t->dispatched++;
        /* keep a thread that runs dry fed; a full chunk goes at once */
        if (ch->n == RP_CHUNK_CALLS || (atomic_load_explicit(&t->queued, memory_order_relaxed) == 0 &&
                                        ch->n >= 16))
            push(rp, t);
        return 0;
    }
}

/* ---- the phase ---- */

/* Appends to the phase's note what the replay changed on purpose: think times cut to the
 * limit, setuid/setgid bits dropped (calls, and the initial state as setup said). */
static void note_more(const struct replay *rp, struct phase_ctx *ctx, const char *setup_note)
{
    char *note = ctx->res->note;
    size_t cap = sizeof ctx->res->note, used = strlen(note);
    unsigned lim = (unsigned)(TRACE_THINK_MAX_NS / 1000000000u);
    if (rp->capped && used < cap)
        used += (size_t)snprintf(note + used, cap - used,
                                 "; %" PRIu64 " think time%s over %u s cut to %u s", rp->capped,
                                 rp->capped == 1 ? "" : "s", lim, lim);
    if (rp->unsetid && used < cap)
        used += (size_t)snprintf(note + used, cap - used,
                                 "; setuid/setgid dropped from the modes of %" PRIu64 " call%s",
                                 rp->unsetid, rp->unsetid == 1 ? "" : "s");
    if (setup_note[0] && used < cap)
        used += (size_t)snprintf(note + used, cap - used, "; %s", setup_note);
    if ((rp->unsetid || setup_note[0]) && used < cap)
        snprintf(note + used, cap - used,
                 " (kept when asked: run --replay-keep-setid, trace replay --keep-setid)");
}

static void free_replay(struct replay *rp, struct rp_chunk *chunks)
{
    if (rp->slots)
        for (uint32_t i = 0; i < rp->nslots; i++)
            if (rp->slots[i] >= 0)
                close(rp->slots[i]);
    for (unsigned i = 0; rp->th && i < rp->nthreads; i++) {
        if (!rp->th[i].rp)
            continue; /* never set up */
        pthread_mutex_destroy(&rp->th[i].mu);
        pthread_cond_destroy(&rp->th[i].cv);
        free(rp->th[i].rbuf);
    }
    for (int i = 0; i < RP_INVAL_RING; i++)
        free(rp->inval[i]);
    free(rp->th);
    free(rp->slots);
    free(rp->wbuf);
    free(rp->rec_end);
    free(rp->rep_end);
    free(rp->away_ns);
    free(rp->away_stops);
    free(rp->tail_prev);
    free(rp->tail_spent);
    free(rp->map);
    free(chunks);
    rp_deps_free(rp);
    pthread_mutex_destroy(&rp->pool_mu);
    pthread_cond_destroy(&rp->pool_cv);
    pthread_mutex_destroy(&rp->inval_mu);
    if (rp->root >= 0)
        close(rp->root);
}

/* Sets up everything but the threads. 0, or -1 after phase_fail. */
static int prepare(struct replay *rp, struct phase_ctx *ctx, struct rp_chunk **chunks)
{
    const struct trace_info *in = rp->info;
    pthread_mutex_init(&rp->pool_mu, NULL);
    pthread_cond_init(&rp->pool_cv, NULL);
    pthread_mutex_init(&rp->inval_mu, NULL);
    size_t buf = in->max_io > BUF_MAX ? BUF_MAX : in->max_io < BUF_MIN ? BUF_MIN : in->max_io;
    size_t thsz = (sizeof(struct rp_thread) * rp->nthreads + 63) & ~(size_t)63;
    rp->th = aligned_alloc(64, thsz);
    rp->slots = malloc((rp->nslots ? rp->nslots : 1) * sizeof *rp->slots);
    rp->wbuf = malloc(buf);
    rp->wbuf_len = buf;
    rp->map = malloc(in->nthreads * sizeof *rp->map);
    /* not zeroed: a chunk's fields are set as it is taken and filled (chunk_get,
     * dispatch), and 6 MiB zeroed is a short trace's replay's largest fixed cost */
    *chunks = malloc(RP_POOL_CHUNKS * sizeof **chunks);
    if (rp->timing == REPLAY_ORIGINAL) {
        rp->rec_end = calloc(in->nthreads, sizeof *rp->rec_end);
        rp->rep_end = calloc(in->nthreads, sizeof *rp->rep_end);
        rp->away_ns = calloc(in->nthreads, sizeof *rp->away_ns);
        rp->away_stops = calloc(in->nthreads, sizeof *rp->away_stops);
        rp->tail_prev = calloc(in->nthreads, sizeof *rp->tail_prev);
        rp->tail_spent = calloc(in->nthreads, sizeof *rp->tail_spent);
    }
    if (!rp->th || !rp->slots || !rp->wbuf || !rp->map || !*chunks ||
        (rp->timing == REPLAY_ORIGINAL &&
         (!rp->rec_end || !rp->rep_end || !rp->away_ns || !rp->away_stops || !rp->tail_prev ||
          !rp->tail_spent)) ||
        (rp->nthreads > 1 && rp_deps_init(rp) < 0))
        return phase_fail(ctx, "prepare", "the replay", -ENOMEM);
    memset(rp->th, 0, thsz);
    for (uint32_t i = 0; i < rp->nslots; i++)
        rp->slots[i] = -1;
    for (uint32_t i = 0; i < in->nthreads; i++)
        rp->map[i] = NO_THREAD;
    const unsigned char *p = wl_pattern();
    for (size_t o = 0; o < buf; o += WL_PATTERN_LEN)
        memcpy(rp->wbuf + o, p, buf - o < WL_PATTERN_LEN ? buf - o : WL_PATTERN_LEN);
    for (int i = 0; i < RP_POOL_CHUNKS; i++)
        rp_chunk_put(rp, &(*chunks)[i]);
    for (unsigned i = 0; i < rp->nthreads; i++) {
        struct rp_thread *t = &rp->th[i];
        t->rp = rp;
        t->idx = i;
        pthread_mutex_init(&t->mu, NULL);
        pthread_cond_init(&t->cv, NULL);
        atomic_store(&t->wake_at, UINT64_MAX);
        t->t = *ctx;
        t->t.w = ctx->workers ? &ctx->workers[i] : ctx->w;
        for (int k = 0; k < RP_DIRCACHE; k++)
            t->cache[k].fd = -1;
        t->rbuf_len = buf;
        if (!(t->rbuf = malloc(buf)))
            return phase_fail(ctx, "prepare", "the replay", -ENOMEM);
    }
    return 0;
}

/* The phase's note: what diverged, or that nothing did. Fails the phase past 1 %. */
static int conclude(struct replay *rp, struct phase_ctx *ctx)
{
    uint64_t issued = 0, diverged = 0, by[TK_CALL_KINDS] = {0};
    const struct rp_divergence *first = NULL;
    for (unsigned i = 0; i < rp->nthreads; i++) {
        const struct rp_thread *t = &rp->th[i];
        for (unsigned k = 0; k < TK_CALL_KINDS; k++) {
            issued += t->issued[k];
            diverged += t->diverged[k];
            by[k] += t->diverged[k];
        }
        if (t->first.seq && (!first || t->first.seq < first->seq))
            first = &t->first;
    }
    char a[32], b[32];
    uint64_t calls = rp->ctx->params->replay_limit && rp->handed < rp->info->ncalls
                         ? rp->handed
                         : rp->info->ncalls;
    if (!diverged) {
        snprintf(ctx->res->note, sizeof ctx->res->note,
                 "%s calls replayed on %u thread%s (%s), none diverged",
                 trace_count_str(issued, a, sizeof a), rp->nthreads,
                 rp->nthreads == 1 ? "" : "s", rp->timing == REPLAY_AFAP ? "afap" : "original");
        return 0;
    }
    char kinds[200] = "";
    size_t used = 0;
    for (unsigned k = 1; k < TK_CALL_KINDS && used < sizeof kinds - 40; k++)
        if (by[k])
            used += (size_t)snprintf(kinds + used, sizeof kinds - used, "%s%s %s",
                                     used ? ", " : "", trace_kind_name(k),
                                     trace_count_str(by[k], b, sizeof b));
    char line[RES_NOTE_MAX];
    snprintf(line, sizeof line, "%s of %s calls diverged; first: %s (by kind: %s)",
             trace_count_str(diverged, a, sizeof a), trace_count_str(calls, b, sizeof b),
             first ? first->text : "?", kinds);
    snprintf(ctx->res->note, sizeof ctx->res->note, "%s", line);
    if (diverged * 100 > calls) {
        ctx->res->status = PHASE_FAILED;
        return -1;
    }
    return 0;
}

/* A replay made ready and stopped: its threads told to end and joined, everything freed. */
static void disarm(struct replay *rp)
{
    rp_stop_all(rp);
    atomic_store(&rp->eof, 1);
    for (unsigned i = 0; i < rp->nthreads; i++)
        rp_wake(&rp->th[i]);
    for (unsigned i = 0; i < rp->started; i++)
        pthread_join(rp->th[i].tid, NULL);
    trace_stream_close(rp->calls);
    free_replay(rp, rp->chunks);
    free(rp);
}

/* The replay made ready to take its first call: memory, the tree's descriptor, the
 * calls' stream, its threads (waiting for chunks). NULL after phase_fail or fail_note. */
static struct replay *arm(struct phase_ctx *ctx)
{
    struct trace_file *tf = ctx->params ? ctx->params->replay : NULL;
    if (!tf) {
        fail_note(ctx, "%s", "no trace to replay (--replay FILE)");
        return NULL;
    }
    struct replay *rp = calloc(1, sizeof *rp);
    if (!rp) {
        phase_fail(ctx, "prepare", "the replay", -ENOMEM);
        return NULL;
    }
    *rp = (struct replay){.ctx = ctx, .info = trace_file_info(tf), .root = -1};
    rp->keep_setid = ctx->params->replay_keep_setid;
    rp->timing = ctx->params->replay_timing == REPLAY_ORIGINAL ? REPLAY_ORIGINAL : REPLAY_AFAP;
    rp->real = (ctx->eng->caps & ENG_CAP_REAL) != 0;
    unsigned n = replay_threads_wanted(rp->info, ctx->params->replay_threads);
    rp->nthreads = n < phase_threads(ctx) ? n : phase_threads(ctx);
    /* several threads rename descriptors (replay_deps.c): room for the ones given back
     * whose close has not run yet */
    rp->nslots = rp->nthreads > 1 ? rp->info->nslots * 2 + 256 : rp->info->nslots;
    char why[RES_NOTE_MAX];
    int rc = prepare(rp, ctx, &rp->chunks);
    if (rc == 0 && rp->real && (rp->root = open_root(ctx)) < 0)
        rc = -1;
    if (rc == 0 && !(rp->calls = trace_calls_open(tf, why, sizeof why)))
        rc = fail_note(ctx, "%s", why);
    for (; rc == 0 && rp->started < rp->nthreads; rp->started++)
        if (pthread_create(&rp->th[rp->started].tid, NULL, rp_thread_main,
                           &rp->th[rp->started]) != 0)
            rc = phase_fail(ctx, "start threads for", "the replay", -EAGAIN);
    if (rc < 0) {
        disarm(rp);
        return NULL;
    }
    return rp;
}

int phase_replay_arm(struct phase_ctx *ctx)
{
    if (ctx->replay_armed)
        return 0;
    ctx->replay_armed = arm(ctx);
    return ctx->replay_armed ? 0 : -1;
}

void phase_replay_disarm(struct phase_ctx *ctx)
{
    if (ctx->replay_armed)
        disarm(ctx->replay_armed);
    ctx->replay_armed = NULL;
}

int phase_replay(struct phase_ctx *ctx)
{
    char setup_note[RES_NOTE_MAX] = ""; /* what setup said (setuid dropped from the state) */
    if (!strncmp(ctx->res->note, "setuid/setgid dropped from ", 27))
        snprintf(setup_note, sizeof setup_note, "%s", ctx->res->note);
    /* made ready by setup, before the clocks started; else here */
    struct replay *rp = ctx->replay_armed ? ctx->replay_armed : arm(ctx);
    ctx->replay_armed = NULL;
    if (!rp)
        return -1;
    rp->ctx = ctx;
    int rc = 0;
    /* the dispatcher */
    struct trace_call c;
    uint64_t seq = 0;
    int r = 0;
    uint64_t limit = ctx->params->replay_limit;
    while ((r = trace_next_call(rp->calls, &c)) > 0) {
        seq++;
        if (c.kind < TK_CALL_KINDS && limit && ++rp->handed > limit)
            break; /* the first `limit` calls only */
        if ((seq & 1023) == 0) {
            if (phase_interrupt || atomic_load(&rp->stop))
                break;
            /* every so often: a thread that ran dry gets what is waiting for it */
            for (unsigned i = 0; i < rp->nthreads; i++)
                if (rp->th[i].partial && atomic_load(&rp->th[i].queued) == 0)
                    push(rp, &rp->th[i]);
        }
        if (dispatch(rp, &c, seq) < 0)
            break;
    }
    if (r < 0)
        rc = fail_note(ctx, "%s", trace_stream_error(rp->calls));
    if (rc == 0 && phase_interrupt)
        rc = phase_check_interrupt(ctx);
    if (rc < 0)
        rp_stop_all(rp);
    push_all(rp);
    atomic_store(&rp->eof, 1);
    for (unsigned i = 0; i < rp->nthreads; i++)
        rp_wake(&rp->th[i]);
    for (unsigned i = 0; i < rp->started; i++) {
        pthread_join(rp->th[i].tid, NULL);
        ctx->helper_user_s += rp->th[i].user_s;
        ctx->helper_sys_s += rp->th[i].sys_s;
    }
    rp->started = 0;
    if (rc == 0 && phase_interrupt)
        rc = phase_check_interrupt(ctx);
    if (rc == 0)
        rc = conclude(rp, ctx);
    if (rc == 0)
        note_more(rp, ctx, setup_note);
    trace_stream_close(rp->calls);
    free_replay(rp, rp->chunks);
    free(rp);
    return rc;
}
