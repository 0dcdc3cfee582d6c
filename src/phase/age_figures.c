/* age_figures.c — aging's measures turned into the phase's own figures for the run's JSON
 * (measure/results.h's struct age_replay_result): the free space, the buckets, and for
 * profile aging (--age-profile) the whole object from the engine's outcome. Aging by replay
 * (phase_age_replay.c) and by a profile (phase_age.c) fill them with the same code here.
 */
#include <stdio.h>
#include <string.h>

#include "phase/age.h"

void age_free_figures(struct age_free_figures *d, const struct freefrag *f)
{
    memset(d, 0, sizeof *d);
    d->known = f->known;
    snprintf(d->source, sizeof d->source, "%s", f->known ? f->source : "");
    snprintf(d->why, sizeof d->why, "%s", f->known ? "" : f->why);
    d->extents = f->extents;
    d->bytes = f->bytes;
    d->largest = f->largest;
    d->small_share = f->known ? freefrag_share_below(f, 1u << 20) : 0;
}

void age_bucket_figures(struct age_replay_result *a, const struct ageprof *p, bool targets,
                        const struct ageprof_hist *h)
{
    a->nbuckets = 0;
    for (unsigned d = 0; d < AGEPROF_DIMS; d++)
        for (unsigned b = 0; b < p->dist[d].n && a->nbuckets < AGE_BUCKET_FIGURES; b++)
            a->buckets[a->nbuckets++] = (struct age_bucket_figure){
                d, p->dist[d].lo[b], targets ? p->dist[d].share[b] : -1,
                h->files ? (double)h->count[d][b] / (double)h->files : 0};
}

void age_profile_figures(struct age_replay_result *a, const struct ageprof *p,
                         const struct age_outcome *o, const char *stop)
{
    memset(a, 0, sizeof *a);
    snprintf(a->profile, sizeof a->profile, "%s", p->name);
    snprintf(a->stop, sizeof a->stop, "%s", stop);
    a->ops = o->ops;
    a->bytes_written = o->written;
    a->fs_bytes = o->fs_size;
    a->fullness = o->fs_full < 0 ? 0 : o->fs_full > 1 ? 1 : o->fs_full;
    age_free_figures(&a->free_before, &o->free_before);
    age_free_figures(&a->free_after, &o->free_after);
    a->files = o->hist.files;
    bool dist = o->hist.files > 0;
    double clip[AGEPROF_DIMS + 1] = {o->dist.max_abs};
    for (unsigned d = 0; d < AGEPROF_DIMS; d++)
        clip[d + 1] = o->dist.dim_max[d];
    for (unsigned k = 0; k <= AGEPROF_DIMS; k++) /* shares: 0..1, as the reader asks */
        clip[k] = clip[k] < 0 ? 0 : clip[k] > 1 ? 1 : clip[k];
    a->distance = dist ? clip[0] : -1;
    for (unsigned d = 0; d < AGEPROF_DIMS; d++)
        a->dim_distance[d] = dist ? clip[d + 1] : -1;
    age_bucket_figures(a, p, true, &o->hist);
}
