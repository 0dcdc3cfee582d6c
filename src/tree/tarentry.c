/* tarentry.c — entry names, the path set, creation modes and libarchive reasons shared by
 * everything that reads an archive (see tarentry.h).
 */
#include "tree/tarentry.h"

#define TARENT_STR_(x) #x
#define TARENT_STR(x) TARENT_STR_(x)
#define TARENT_PATH_MAX_STR TARENT_STR(TARENT_PATH_MAX)

#include <archive.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/hash.h"

/* ---- how files are created ---------------------------------------------------- */

mode_t tarent_create_mode(mode_t want, mode_t umask_now, mode_t *fix)
{
    want &= 07777;
    if (!(want & 07000) && !(want & umask_now)) {
        *fix = (mode_t)-1;
        return want;
    }
    *fix = want;
    return 0600;
}

mode_t tarent_umask(void)
{
    mode_t m = umask(077);
    umask(m);
    return m;
}

/* ---- name checks -------------------------------------------------------------- */

int tarent_norm_path(const char *in, char *out, size_t outlen, const char **why)
{
    if (!in || !*in) {
        *why = "no name";
        return 1;
    }
    if (in[0] == '/') {
        *why = "absolute path";
        return 1;
    }
    size_t n = 0;
    const char *p = in;
    while (*p) {
        while (*p == '/')
            p++;
        const char *s = p;
        while (*p && *p != '/')
            p++;
        size_t len = (size_t)(p - s);
        if (len == 0 || (len == 1 && s[0] == '.'))
            continue;
        if (len == 2 && s[0] == '.' && s[1] == '.') {
            *why = "'..' component";
            return 1;
        }
        if (n + (n ? 1 : 0) + len + 1 > outlen) {
            *why = "name longer than " TARENT_PATH_MAX_STR " bytes";
            return 1;
        }
        if (n)
            out[n++] = '/';
        memcpy(out + n, s, len);
        n += len;
    }
    out[n] = '\0';
    return 0;
}

void tarent_printable(const char *in, char *out, size_t outlen)
{
    if (!outlen)
        return;
    size_t n = 0;
    if (!in)
        in = "";
    for (; *in && n + 1 < outlen; in++)
        out[n++] = ((unsigned char)*in < 0x20 || *in == 0x7f) ? '?' : *in;
    out[n] = '\0';
    if (*in && n >= 3)
        memcpy(out + n - 3, "...", 3);
}

/* ---- a set of paths (open addressing, FNV-1a) ---------------------------------- */

static uint64_t hash_path(const char *s, size_t len)
{
    uint64_t h = hash_fnv1a(s, len);
    return h ^ (h >> 29);
}

/* Slot of key (len bytes) in s: its own slot if present, else the empty one to fill. */
static size_t set_slot(const struct tarent_set *s, const char *key, size_t len)
{
    size_t mask = s->cap - 1;
    size_t i = (size_t)hash_path(key, len) & mask;
    while (s->slot[i].key &&
           !(strncmp(s->slot[i].key, key, len) == 0 && s->slot[i].key[len] == '\0'))
        i = (i + 1) & mask;
    return i;
}

static int set_grow(struct tarent_set *s)
{
    size_t ncap = s->cap ? s->cap * 2 : 256;
    struct tarent_slot *old = s->slot;
    size_t ocap = s->cap;
    s->slot = calloc(ncap, sizeof *s->slot);
    if (!s->slot) {
        s->slot = old;
        return -1;
    }
    s->cap = ncap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].key)
            s->slot[set_slot(s, old[i].key, strlen(old[i].key))] = old[i];
    free(old);
    return 0;
}

struct tarent_slot *tarent_set_find(const struct tarent_set *s, const char *key, size_t len)
{
    if (!s->cap)
        return NULL;
    size_t i = set_slot(s, key, len);
    return s->slot[i].key ? &s->slot[i] : NULL;
}

struct tarent_slot *tarent_set_add(struct tarent_set *s, const char *key, size_t len)
{
    if ((s->n + 1) * 2 > s->cap && set_grow(s) < 0)
        return NULL;
    size_t i = set_slot(s, key, len);
    if (!s->slot[i].key) {
        char *k = malloc(len + 1);
        if (!k)
            return NULL;
        memcpy(k, key, len);
        k[len] = '\0';
        s->slot[i].key = k;
        s->slot[i].val = 0;
        s->n++;
    }
    return &s->slot[i];
}

void tarent_set_free(struct tarent_set *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->slot[i].key);
    free(s->slot);
    memset(s, 0, sizeof *s);
}

const char *tarent_arch_reason(struct archive *a)
{
    const char *s = archive_error_string(a);
    if (s && *s)
        return s;
    int e = archive_errno(a);
    return e > 0 ? strerror(e) : "unreadable archive";
}

int tarent_each_block(struct archive *a,
                      int (*each)(void *arg, const void *buf, size_t n, int64_t off), void *arg)
{
    for (;;) {
        const void *buf;
        size_t n;
        la_int64_t off;
        int r = archive_read_data_block(a, &buf, &n, &off);
        if (r == ARCHIVE_EOF)
            return 0;
        if (r < ARCHIVE_WARN)
            return TARENT_READ_FAILED;
        int rc = each(arg, buf, n, (int64_t)off);
        if (rc != 0)
            return rc > 0 ? 0 : rc;
    }
}
