/* job_plan.c — what a run would need (see job_plan.h): tree size, space, root. */
#include "run/job_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "base/err.h"
#include "base/units.h"
#include "os/blockdev.h"
#include "phase/cb_listing.h"
#include "run/sizing.h"
#include "trace/trace_read.h"

static uint64_t free_at(const char *path)
{
    struct statvfs sv;
    if (statvfs(path, &sv) < 0)
        return 0;
    return (uint64_t)sv.f_bavail * sv.f_frsize;
}

/* compilebench on the data set o names: what its trees need, from the listings (every
 * initial tree as large as the largest listing: the compiled ones are the largest, and the
 * random operations make, patch and compile trees like them); 0 without one. */
static uint64_t cb_dataset_need(const struct runner_opts *o)
{
    bool cb = false;
    for (size_t i = 0; i < o->nphases; i++)
        cb |= !strncmp(o->phases[i]->name, "cb_", 3);
    if (!cb || !o->params.cb_dataset)
        return 0;
    struct cb_dataset ds;
    char why[512];
    err_capture_begin(why, sizeof why); /* a bad listing was refused when it was given */
    int rc = cb_dataset_load(o->params.cb_dataset, &ds);
    err_capture_end();
    if (rc < 0)
        return 0;
    uint64_t largest = 0;
    for (int k = 0; k < CB_LISTS; k++)
        if (ds.bytes[k] > largest)
            largest = ds.bytes[k];
    cb_dataset_free(&ds);
    unsigned trees = o->params.cb_initial ? o->params.cb_initial : 1;
    return largest > UINT64_MAX / trees ? UINT64_MAX : largest * trees;
}

/* Aging by replay: the trace's bytes written a repetition (its info block) x the repetitions
 * its stops allow, for the file system of fs_bytes; age.written and age.peak become the
 * replay's. Unreadable: replay_why says so, and age stays --age-written's. */
static void plan_replay(const struct runner_opts *o, struct job_plan *p)
{
    p->replays = true;
    char why[sizeof p->replay_why] = "";
    err_capture_begin(why, sizeof why);
    struct trace_file *t = trace_open(o->params.age_replay_path);
    err_capture_end();
    if (!t) {
        snprintf(p->replay_why, sizeof p->replay_why, "%s", why[0] ? why : "cannot be read");
        return;
    }
    const struct trace_info *in = trace_file_info(t);
    double until_x = 0;
    for (size_t i = 0; i < o->nconfigs; i++)
        if (o->configs[i].age_until_x > until_x)
            until_x = o->configs[i].age_until_x;
    sizing_age_replay(&o->params, until_x, p->age.fs_bytes, in->bytes_written, in->state_bytes,
                      &p->replay);
    trace_close(t);
    p->replay_known = true;
    p->age.written = p->replay.written;
    if (p->age.peak > p->replay.laid)
        p->age.peak = p->replay.laid;
}

int job_plan_compute(const struct runner_opts *o, const char *tree_arg, struct job_plan *p)
{
    memset(p, 0, sizeof *p);
    bool dropcaches, cold;
    sizing_phases(o->phases, o->nphases, &dropcaches, &cold, &p->copies);
    if (o->tree.prof) {
        struct tree_estimate *t = &p->est;
        if (tree_estimate(&o->tree, SIZING_BLOCK, t) < 0)
            return -1;
        p->tree_known = true;
        p->estimated = !t->exact;
        p->files = t->files;
        p->dirs = t->dirs;
        p->symlinks = t->symlinks;
        p->bytes = t->bytes;
        p->disk = t->disk;
    } else if (tree_arg && !strncmp(tree_arg, "tar:", 4)) {
        /* unknown until decompressed: the archive's own size is a floor */
        struct stat st;
        if (stat(tree_arg + 4, &st) == 0)
            p->bytes = p->disk = (uint64_t)st.st_size;
    }
    /* the tree takes space only where a phase lays it down: age alone never does */
    p->tree_written = sizing_writes_tree(o->phases, o->nphases);
    p->need = p->tree_written ? p->disk * (p->copies ? p->copies : 1) : 0;
    p->cb_need = cb_dataset_need(o);
    if (p->cb_need > p->need)
        p->need = p->cb_need;
    const char *tmp = getenv("TMPDIR");
    if (o->tspec && o->tspec->device) {
        snprintf(p->where, sizeof p->where, "%s (the whole device)", o->tspec->device);
    } else if (o->tspec) {
        const char *dir = o->tspec->image_dir ? o->tspec->image_dir : tmp && *tmp ? tmp : "/tmp";
        char size[32];
        snprintf(p->where, sizeof p->where, "%s (a sparse image of %s)", dir,
                 units_bytes(size, sizeof size, (double)o->tspec->image_bytes));
        p->free_bytes = free_at(dir);
        p->fs_size = o->tspec->image_bytes;
        /* the image grows to what is written into it, at most its size */
        if (p->need > o->tspec->image_bytes)
            p->need = o->tspec->image_bytes;
    } else {
        const char *dir = o->dir ? o->dir : tmp && *tmp ? tmp : "/tmp";
        snprintf(p->where, sizeof p->where, "%s", dir);
        p->free_bytes = free_at(dir);
    }
    for (size_t i = 0; i < o->nphases; i++)
        p->ages |= (o->phases[i]->flags & PHASE_KEEPS_TREE) != 0;
    if (p->ages) {
        uint64_t dev_bytes;
        if (o->tspec && o->tspec->device) {
            /* the device's size, read without writing; a fresh file system is all free */
            if (os_blockdev_size(o->tspec->device, &dev_bytes) == 0) {
                sizing_age(&o->params, dev_bytes, dev_bytes, &p->age);
                p->age_known = true;
                if (o->params.age_replay_path)
                    plan_replay(o, p);
            }
        } else if (o->tspec) {
            sizing_age(&o->params, o->tspec->image_bytes, o->tspec->image_bytes, &p->age);
            p->age_known = true;
            if (o->params.age_replay_path)
                plan_replay(o, p);
            /* the sparse image grows to what is written into it: age writes it over (a
             * replay: its writes and the initial states it lays) */
            uint64_t w = p->replay_known ? p->replay.laid : p->age.written;
            uint64_t grown = w < o->tspec->image_bytes ? w : o->tspec->image_bytes;
            if (grown > p->need) {
                p->need = grown;
                p->need_by_replay = p->replay_known;
            }
        } else {
            const char *dir = o->dir ? o->dir : tmp && *tmp ? tmp : "/tmp";
            p->age_host = true;
            if (sizing_age_at(&o->params, dir, &p->age) == 0) {
                p->age_known = true;
                if (o->params.age_replay_path)
                    plan_replay(o, p);
                if (p->age.peak > p->need) {
                    p->need = p->age.peak;
                    p->need_by_replay = p->replay_known && p->age.peak == p->replay.laid;
                }
            }
        }
    }
    if (o->tspec) {
        p->needs_root = true;
        snprintf(p->root_why, sizeof p->root_why, "mkfs, a loop device or a device, mount");
    }
    for (size_t i = 0; i < o->nphases; i++)
        if (o->phases[i]->flags & PHASE_NEEDS_ROOT) {
            if (!p->needs_root)
                p->wants_root = true;
            if (!p->root_why[0])
                snprintf(p->root_why, sizeof p->root_why,
                         "%s is skipped without root, and the figures after it are then "
                         "warm-cache",
                         o->phases[i]->name);
        }
    return 0;
}
