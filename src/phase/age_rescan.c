/* age_rescan.c — what tree/age holds, read back into the ager's books (age_internal.h)
 * before each aging: its directories d<hex> and files f<hex>, their sizes, depths and
 * mtimes, so a second aging goes on from the first's tree. Also opens tree/age itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "os/dirent.h"
#include "phase/age_internal.h"

/* ---- the rescan -------------------------------------------------------------------------- */

/* Parses "<c><hex>" into *id: true when name is exactly that. */
static bool parse_id(const char *name, char c, uint32_t *id)
{
    if (name[0] != c || !name[1] || strlen(name) > 9)
        return false;
    char *end;
    unsigned long v = strtoul(name + 1, &end, 16);
    if (*end || v > UINT32_MAX)
        return false;
    /* only the names this file makes ("d00" of the plain churn is not "d0") */
    char again[24];
    snprintf(again, sizeof again, "%c%" PRIx32, c, (uint32_t)v);
    if (strcmp(again, name))
        return false;
    *id = (uint32_t)v;
    return true;
}

struct scan_ent {
    uint32_t id;
    bool dir;
};

/* Reads directory index di (its fd open) and, depth first, every "d<hex>" below it. */
static int rescan_dir(struct ager *a, uint32_t di, void *buf, size_t buflen)
{
    struct phase_ctx *ctx = a->ctx;
    int fd = ager_dir_fd(a, di);
    if (fd < 0)
        return -1;
    struct scan_ent *ents = NULL;
    size_t ne = 0, ecap = 0;
    for (;;) {
        int got = ctx->eng->getdents(ctx->w, fd, buf, buflen);
        if (got < 0) {
            free(ents);
            char path[1024];
            ager_dir_path(a, di, path, sizeof path);
            return phase_fail_dir(ctx, "getdents", path, got);
        }
        if (got == 0)
            break;
        for (size_t off = 0; off < (size_t)got;) {
            const struct os_dirent *e = os_dirent_at(buf, off);
            off += e->d_reclen;
            uint32_t id;
            unsigned type = e->d_type;
            if (type == DT_UNKNOWN) { /* the file system does not say: ask */
                struct stat st;
                if (ctx->eng->stat(ctx->w, fd, e->d_name, &st) == 0)
                    type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : 0;
            }
            bool isdir = type == DT_DIR && parse_id(e->d_name, 'd', &id);
            bool isfile = type == DT_REG && parse_id(e->d_name, 'f', &id);
            if (!isdir && !isfile)
                continue;
            if (ne == ecap) {
                ecap = ecap ? ecap * 2 : 64;
                void *p = realloc(ents, ecap * sizeof *ents);
                if (!p) {
                    free(ents);
                    return phase_fail(ctx, "age", AGE_ROOT, -ENOMEM);
                }
                ents = p;
            }
            ents[ne].id = id;
            ents[ne++].dir = isdir;
        }
    }
    /* in id order, so the state (and the operations after it) never depend on the order
     * the file system lists entries in */
    for (size_t i = 1; i < ne; i++)
        for (size_t j = i;
             j > 0 && (ents[j - 1].dir > ents[j].dir ||
                       (ents[j - 1].dir == ents[j].dir && ents[j - 1].id > ents[j].id));
             j--) {
            struct scan_ent t = ents[j];
            ents[j] = ents[j - 1];
            ents[j - 1] = t;
        }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < ne; i++) {
        if (ents[i].dir) {
            if (a->d[di].depth + 1 >= AGE_DEPTH_MAX)
                continue;
            if (ager_add_dir(a, ents[i].id, di, a->d[di].depth + 1u) < 0) {
                rc = phase_fail(ctx, "age", AGE_ROOT, -ENOMEM);
                break;
            }
            rc = rescan_dir(a, (uint32_t)(a->nd - 1), buf, buflen);
            continue;
        }
        char name[24];
        ager_file_name(ents[i].id, name, sizeof name);
        struct stat st;
        int s = ctx->eng->stat(ctx->w, ager_dir_fd(a, di), name, &st);
        if (s < 0) {
            rc = ager_fail_at(a, "stat", di, name, s);
            break;
        }
        if (ager_add_file(a, (struct age_file){(uint64_t)st.st_size, (int64_t)st.st_mtime, ents[i].id,
                                          di}) < 0)
            rc = phase_fail(ctx, "age", AGE_ROOT, -ENOMEM);
        if ((int64_t)st.st_mtime > a->clock)
            a->clock = st.st_mtime;
    }
    free(ents);
    return rc;
}

int age_root_open(struct phase_ctx *ctx)
{
    const struct engine *e = ctx->eng;
    int rc = wl_mkdir_p(ctx, ctx->ws_fd, PHASE_TREE_DIR);
    if (rc < 0)
        return phase_fail(ctx, "mkdir", PHASE_TREE_DIR, rc);
    int tfd = e->opendir(ctx->w, ctx->ws_fd, PHASE_TREE_DIR);
    if (tfd < 0)
        return phase_fail_dir(ctx, "open", PHASE_TREE_DIR, tfd);
    rc = wl_mkdir_p(ctx, tfd, WL_AGE_DIR);
    int afd = rc < 0 ? rc : e->opendir(ctx->w, tfd, WL_AGE_DIR);
    e->close(ctx->w, tfd);
    if (afd < 0)
        return rc < 0 ? phase_fail(ctx, "mkdir", AGE_ROOT, afd)
                      : phase_fail_dir(ctx, "open", AGE_ROOT, afd);
    return afd;
}

/* Opens (making it if needed) tree/age as directory 0 and reads what is there. */
int ager_rescan(struct ager *a)
{
    struct phase_ctx *ctx = a->ctx;
    const struct engine *e = ctx->eng;
    int afd = age_root_open(ctx);
    if (afd < 0)
        return -1;
    int rc;
    if (ager_add_dir(a, 0, 0, 0) < 0) {
        e->close(ctx->w, afd);
        return phase_fail(ctx, "age", AGE_ROOT, -ENOMEM);
    }
    a->d[0].fd = afd;
    a->clock = 0;
    rc = rescan_dir(a, 0, ctx->buf, ctx->buflen);
    a->next_dir = a->next_dir ? a->next_dir : 1;
    a->clock = a->clock < AGE_CLOCK_BASE ? AGE_CLOCK_BASE : a->clock + 1;
    if (rc == 0)
        ager_recount_ages(a);
    return rc;
}
