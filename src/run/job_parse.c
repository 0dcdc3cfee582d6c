/* job_parse.c — reads a job file with inih into the model of job.h, following includes,
 * expanding ${NAME} and checking every key and value as it comes, and writes the expanded
 * text (see job.h for the rules).
 *
 * inih splits key = value; this file's reader hands it one line at a time and counts lines
 * (inih's handler has no line number), and sees comments and [section] headers itself so
 * that empty sections, duplicate job names and comments are not lost. Which section a key
 * belongs to is tracked here, not taken from inih: an included file's keys before its first
 * header go to the section the include is in, and after the include that section goes on.
 */
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "measure/results.h"
#include "run/job_internal.h"

/* One file being read. */
struct src {
    const char *path; /* as shown in messages (owned by jf->files) */
    const char *text;
    size_t pos;
    int line;
    char *real; /* its real path (cycle detection); NULL for given text */
};

struct pctx {
    struct job_file *jf;
    const struct job_keys *keys;
    struct src *stack[JOB_MAX_INCLUDE_DEPTH + 1];
    int depth;
    size_t cur;       /* current section */
    bool seen_header; /* a [section] came: comments no longer go to the preamble */
    bool failed;
};

static __attribute__((format(printf, 4, 5))) void fail(struct pctx *c, const char *file, int line,
                                                       const char *fmt, ...)
{
    if (c->failed)
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    error("%s:%d: %s", file, line, msg);
    c->failed = true;
}

static int append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t nc = *cap ? *cap : 256;
        while (*len + n + 1 > nc)
            nc *= 2;
        char *nb = realloc(*buf, nc);
        if (!nb)
            return error("out of memory");
        *buf = nb;
        *cap = nc;
    }
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[*len] = '\0';
    return 0;
}

static int body_add(struct pctx *c, const char *s, size_t n)
{
    if (!c->seen_header)
        return append(&c->jf->preamble, &c->jf->pre_len, &c->jf->pre_cap, s, n);
    struct job_section *sec = &c->jf->sec[c->cur];
    return append(&sec->body, &sec->body_len, &sec->body_cap, s, n);
}

static bool name_ok(const char *s)
{
    if (!*s || strlen(s) >= RES_NAME_MAX)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '-' || *s == '_' || *s == '.'))
            return false;
    return true;
}

/* A [header] line: starts (or for [global], names) a section. */
static void header(struct pctx *c, struct src *s, const char *p)
{
    const char *end = strchr(p, ']');
    if (!end)
        return; /* inih reports it */
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(end - p - 1), p + 1);
    struct job_file *jf = c->jf;
    if (!name_ok(name)) {
        fail(c, s->path, s->line,
             "[%s]: a job name is 1 to %d letters, digits, '-', "
             "'_' or '.'",
             name, RES_NAME_MAX - 1);
        return;
    }
    for (size_t i = 0; i < jf->nsec; i++)
        if (!strcmp(jf->sec[i].name, name) && (i > 0 || jf->sec[0].line)) {
            fail(c, s->path, s->line, "duplicate job name '%s' (first at %s:%d)", name,
                 jf->sec[i].file, jf->sec[i].line);
            return;
        }
    c->seen_header = true;
    if (!strcmp(name, "global")) {
        if (jf->nsec > 1) {
            fail(c, s->path, s->line, "[global] must come before the jobs");
            return;
        }
        jf->sec[0].file = s->path;
        jf->sec[0].line = s->line;
        c->cur = 0;
        return;
    }
    if (jf->nsec == JOB_MAX_JOBS + 1) {
        fail(c, s->path, s->line, "too many jobs (at most %d)", JOB_MAX_JOBS);
        return;
    }
    struct job_section *sec = &jf->sec[jf->nsec];
    memset(sec, 0, sizeof *sec);
    if (!(sec->name = strdup(name))) {
        fail(c, s->path, s->line, "out of memory");
        return;
    }
    sec->file = s->path;
    sec->line = s->line;
    c->cur = jf->nsec++;
}

/* Sees every line before inih does: comments and blank lines go to the text, headers
 * start sections. */
static void observe(struct pctx *c, struct src *s, const char *line)
{
    const char *p = line;
    if (s->line == 1 && !strncmp(p, "\xEF\xBB\xBF", 3))
        p += 3;
    while (*p == ' ' || *p == '\t')
        p++;
    size_t n = strcspn(p, "\r\n");
    if (n == 0) {
        body_add(c, "\n", 1);
    } else if (*p == ';' || *p == '#') {
        body_add(c, p, n);
        body_add(c, "\n", 1);
    } else if (*p == '[') {
        header(c, s, p);
    }
}

static char *reader(char *str, int num, void *stream)
{
    struct pctx *c = stream;
    struct src *s = c->stack[c->depth - 1];
    if (c->failed || !s->text[s->pos])
        return NULL;
    const char *start = s->text + s->pos;
    const char *nl = strchr(start, '\n');
    size_t len = nl ? (size_t)(nl - start) + 1 : strlen(start);
    s->line++;
    if (len >= (size_t)num) {
        fail(c, s->path, s->line, "line longer than %d characters", num - 2);
        return NULL;
    }
    memcpy(str, start, len);
    str[len] = '\0';
    s->pos += len;
    observe(c, s, str);
    return c->failed ? NULL : str;
}

static int read_all(const char *path, char **out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (len + 1 < cap)
            break;
        char *nb = realloc(buf, cap *= 2);
        if (!nb)
            free(buf);
        buf = nb;
    }
    int e = ferror(f) ? EIO : ENOMEM;
    fclose(f);
    if (!buf || e == EIO) {
        free(buf);
        errno = buf ? EIO : ENOMEM;
        return -1;
    }
    buf[len] = '\0';
    *out = buf;
    return 0;
}

static const char *keep_path(struct pctx *c, const char *path)
{
    char **nf = realloc(c->jf->files, (c->jf->nfiles + 1) * sizeof *nf);
    if (!nf)
        return NULL;
    c->jf->files = nf;
    if (!(nf[c->jf->nfiles] = strdup(path)))
        return NULL;
    return nf[c->jf->nfiles++];
}

static int handler(void *user, const char *section, const char *name, const char *value);

/* Reads one source (the top file or an include) through inih. */
static void parse_src(struct pctx *c, struct src *s)
{
    c->stack[c->depth++] = s;
    int rc = ini_parse_stream(reader, c, handler, c);
    c->depth--;
    if (rc > 0)
        fail(c, s->path, rc, "expected '[job]' or 'key = value'");
    else if (rc < 0)
        fail(c, s->path, s->line, "out of memory");
}

static void include(struct pctx *c, struct src *from, const char *value)
{
    char path[PATH_MAX];
    const char *slash = strrchr(from->path, '/');
    if (value[0] == '/' || !slash)
        snprintf(path, sizeof path, "%s", value);
    else
        snprintf(path, sizeof path, "%.*s/%s", (int)(slash - from->path), from->path, value);
    char real[PATH_MAX], *text = NULL;
    if (!realpath(path, real) || read_all(real, &text) < 0) {
        fail(c, from->path, from->line, "include %s: %s", path, strerror(errno));
        return;
    }
    for (int i = 0; i < c->depth; i++) {
        if (!c->stack[i]->real || strcmp(c->stack[i]->real, real))
            continue;
        char chain[2048];
        size_t used = 0;
        for (int j = i; j < c->depth && used < sizeof chain; j++)
            used +=
                (size_t)snprintf(chain + used, sizeof chain - used, "%s -> ", c->stack[j]->path);
        free(text);
        {
            fail(c, from->path, from->line, "include cycle: %s%s", chain, path);
            return;
        }
    }
    if (c->depth > JOB_MAX_INCLUDE_DEPTH) {
        free(text);
        {
            fail(c, from->path, from->line, "includes nested deeper than %d",
                 JOB_MAX_INCLUDE_DEPTH);
            return;
        }
    }
    struct src s = {.path = keep_path(c, path), .text = text, .real = real};
    if (!s.path) {
        free(text);
        {
            fail(c, from->path, from->line, "out of memory");
            return;
        }
    }
    char note[PATH_MAX + 32];
    int n = snprintf(note, sizeof note, "# include = %s\n", value);
    body_add(c, note, (size_t)n);
    size_t cur = c->cur;
    parse_src(c, &s);
    c->cur = cur;
    free(text);
}

static int add_entry(struct job_section *sec, const char *key, const char *value, const char *file,
                     int line)
{
    if (sec->n == sec->cap) {
        size_t nc = sec->cap ? sec->cap * 2 : 16;
        struct job_entry *ne = realloc(sec->e, nc * sizeof *ne);
        if (!ne)
            return -1;
        sec->e = ne;
        sec->cap = nc;
    }
    struct job_entry *e = &sec->e[sec->n];
    e->key = strdup(key);
    e->value = strdup(value);
    e->file = file;
    e->line = line;
    if (!e->key || !e->value) {
        free(e->key);
        free(e->value);
        return -1;
    }
    sec->n++;
    return 0;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
    struct pctx *c = user;
    struct src *s = c->stack[c->depth - 1];
    if (c->failed)
        return 1;
    char val[4096], why[1024];
    if (job_expand(value, val, sizeof val, why, sizeof why) < 0)
        return fail(c, s->path, s->line, "%s: %s", name, why), 1;
    if (!strcmp(name, JOB_KEY_INCLUDE)) {
        include(c, s, val);
        return 1;
    }
    const char *stored;
    if (job_key_check(c->keys, c->cur == 0, name, val, &stored, why, sizeof why) < 0)
        return fail(c, s->path, s->line, "%s", why), 1;
    if (!strcmp(stored, JOB_KEY_INTERLEAVE))
        c->jf->interleave = !strcmp(val, "jobs");
    if (add_entry(&c->jf->sec[c->cur], stored, val, s->path, s->line) < 0)
        return fail(c, s->path, s->line, "out of memory"), 1;
    char line[8192];
    int n = snprintf(line, sizeof line, "%s = %s\n", name, val);
    body_add(c, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    return 1;
}

int job_parse(const char *path, const char *text, const struct job_keys *keys, struct job_file *jf)
{
    memset(jf, 0, sizeof *jf);
    struct pctx c = {.jf = jf, .keys = keys};
    char *owned = NULL;
    char real[PATH_MAX];
    jf->path = strdup(path);
    jf->sec = calloc(JOB_MAX_JOBS + 1, sizeof *jf->sec);
    if (!jf->path || !jf->sec || !(jf->sec[0].name = strdup("global"))) {
        job_free(jf);
        return error("out of memory");
    }
    jf->nsec = 1;
    if (!text) {
        if (!realpath(path, real) || read_all(real, &owned) < 0) {
            error_errno("%s", path);
            job_free(jf);
            return -1;
        }
        text = owned;
    }
    struct src s = {.path = keep_path(&c, path), .text = text, .real = owned ? real : NULL};
    jf->sec[0].file = s.path;
    if (s.path)
        parse_src(&c, &s);
    else
        error("out of memory");
    free(owned);
    if (!s.path || c.failed || job_fold(jf, NULL, NULL, 0) < 0) {
        job_free(jf);
        return -1;
    }
    return 0;
}

void job_free(struct job_file *jf)
{
    for (size_t i = 0; jf->sec && i < jf->nsec; i++) {
        struct job_section *sec = &jf->sec[i];
        for (size_t k = 0; k < sec->n; k++) {
            free(sec->e[k].key);
            free(sec->e[k].value);
        }
        free(sec->e);
        free(sec->name);
        free(sec->body);
    }
    for (size_t i = 0; i < jf->nfiles; i++)
        free(jf->files[i]);
    free(jf->files);
    free(jf->sec);
    free(jf->preamble);
    free(jf->text);
    free(jf->path);
    memset(jf, 0, sizeof *jf);
}
