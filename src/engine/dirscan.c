/* dirscan.c — directory records (os/dirent.h) through the engine, one buffer per depth (see
 * dirscan.h). */
#include "engine/dirscan.h"

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "os/dirent.h"


struct dirscan *dirscan_push(struct dirscan_stack *s, int fd, const char *name)
{
    if (s->n == s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 16;
        struct dirscan *lv = realloc(s->lv, ncap * sizeof *lv);
        if (!lv) {
            error("out of memory");
            return NULL;
        }
        memset(lv + s->cap, 0, (ncap - s->cap) * sizeof *lv);
        s->lv = lv;
        s->cap = ncap;
    }
    struct dirscan *d = &s->lv[s->n];
    if (!d->buf) {
        d->buf = malloc(DIRSCAN_BUF);
        if (!d->buf) {
            error("out of memory");
            return NULL;
        }
    }
    d->filled = d->pos = 0;
    d->fd = fd;
    d->name = name;
    s->n++;
    return d;
}

void dirscan_pop(struct dirscan_stack *s)
{
    if (s->n)
        s->n--;
}

void dirscan_free(struct dirscan_stack *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->lv[i].buf);
    free(s->lv);
    memset(s, 0, sizeof *s);
}

int dirscan_next(const struct engine *e, struct eng_worker *w, struct dirscan *d,
                 struct dirscan_ent *out)
{
    for (;;) {
        if (d->pos >= d->filled) {
            int r = e->getdents(w, d->fd, d->buf, DIRSCAN_BUF);
            if (r <= 0)
                return r;
            d->filled = r;
            d->pos = 0;
        }
        const struct os_dirent *de = os_dirent_at(d->buf, (size_t)d->pos);
        d->pos += de->d_reclen;
        const char *n = de->d_name;
        if (n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0')))
            continue;
        out->name = n;
        out->type = de->d_type;
        return 1;
    }
}

const char *dirscan_path(const struct dirscan_stack *s, const char *last, char *buf,
                         size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i <= s->n && used + 1 < len; i++) {
        const char *n = i < s->n ? s->lv[i].name : last;
        if (!n)
            continue;
        size_t nl = strlen(n);
        if (used && used + 1 < len)
            buf[used++] = '/';
        if (used + nl >= len)
            nl = len - used - 1;
        memcpy(buf + used, n, nl);
        used += nl;
        buf[used] = '\0';
    }
    return buf;
}
