/* age_replay_books.c — what aging by replay has left, counted (age_replay.h): the records
 * of the repetitions' files and their histograms in a profile's buckets.
 */
#include "phase/age_replay.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "base/grow.h"

struct add_state {
    struct age_replay_books *b;
    int err;
};

static void add_file(void *arg, const struct stat *st, unsigned depth)
{
    struct add_state *s = arg;
    struct age_replay_books *b = s->b;
    if (s->err)
        return;
    void *f = b->f; /* through a void *, as grow_to takes it (no type-punned pointer) */
    if (grow_to(&f, &b->cap, b->n + 1, 1024, sizeof *b->f) < 0) {
        s->err = ENOMEM;
        return;
    }
    b->f = f;
    b->f[b->n++] = (struct age_seen){(uint64_t)st->st_size, (int64_t)st->st_mtime, depth};
}

int age_replay_books_add(struct age_replay_books *b, int dirfd)
{
    struct add_state s = {b, 0};
    if (ageprof_walk(dirfd, add_file, &s) < 0)
        return -1;
    if (s.err) {
        errno = s.err;
        return -1;
    }
    return 0;
}

void age_replay_books_hist(const struct age_replay_books *b, const struct ageprof *p, int64_t now,
                           struct ageprof_hist *h)
{
    *h = (struct ageprof_hist){0};
    for (size_t i = 0; i < b->n; i++) {
        const struct age_seen *f = &b->f[i];
        uint64_t age = f->mtime < now ? (uint64_t)(now - f->mtime) : 0;
        h->count[AGEPROF_SIZE][ageprof_bucket(&p->dist[AGEPROF_SIZE], f->size)]++;
        h->count[AGEPROF_AGE][ageprof_bucket(&p->dist[AGEPROF_AGE], age)]++;
        h->count[AGEPROF_DEPTH][ageprof_bucket(&p->dist[AGEPROF_DEPTH], f->depth)]++;
    }
    h->files = b->n;
}

char *age_replay_shares(const struct ageprof_hist *h, const struct ageprof *p, unsigned d,
                        char *buf, size_t len)
{
    if (!len)
        return buf;
    buf[0] = 0;
    if (!h->files) {
        snprintf(buf, len, "-");
        return buf;
    }
    unsigned last = 0;
    for (unsigned k = 0; k < p->dist[d].n; k++)
        if (h->count[d][k])
            last = k;
    size_t used = 0;
    for (unsigned k = 0; k <= last && used < len; k++) {
        int w = snprintf(buf + used, len - used, "%s%.0f", k ? "/" : "",
                         100.0 * (double)h->count[d][k] / (double)h->files);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    return buf;
}

void age_replay_books_free(struct age_replay_books *b)
{
    free(b->f);
    *b = (struct age_replay_books){0};
}
