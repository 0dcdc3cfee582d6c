/* job_parse.c — reads a job file with inih into the model of job.h, following includes,
 * expanding ${NAME} and checking every key and value as it comes, and writes the expanded
 * text (see job.h for the rules).
 *
 * inih splits key = value; this file's reader hands it one line at a time and counts lines
 * (inih's handler has no line number), and sees comments and [section] headers itself so
 * that empty sections, duplicate job names and comments are not lost. Which section a key
 * belongs to is tracked here, not taken from inih: an included file's keys before its first
 * header go to the section the include is in, and after the include that section goes on.
 *
 * A job file is data from someone else: every file read (the top one and each include) is
 * a regular file of at most INFILE_TEXT_MAX bytes, UTF-8 text with no NUL, no control
 * character but tab and line breaks, and no bidirectional-text control, each refusal
 * naming FILE:LINE. A line may be as long as the file (inih's buffer is set to it). A
 * value is one line also after ${NAME} expansion. Keys that consent to destroying data
 * (keys->cmdline_only) are refused: that consent comes from the command line alone. A
 * relative path in a key keys->is_path names is resolved against the directory of the
 * file it is in, as include is (the expanded text keeps it as written).
 */
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/infile.h"
#include "base/text.h"
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
    char *val; /* a value after expansion: INFILE_TEXT_MAX + 1 bytes */
    struct src *stack[JOB_MAX_INCLUDE_DEPTH + 1];
    int depth;
    size_t cur;       /* current section */
    bool seen_header; /* a [section] came: comments no longer go to the preamble */
    bool failed;
    unsigned unknown; /* unknown keys, each reported (its own line) and the parse goes on */
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

/* Refuses text that is not a job file's: too large, a NUL, a control character, bytes
 * that are not UTF-8, a bidirectional control; the message names file:line. 0 or -1. */
static int check_text(struct pctx *c, const char *file, const char *text, size_t len)
{
    char lim[32];
    if (len > INFILE_TEXT_MAX) {
        fail(c, file, 1, "larger than %s: not a job file",
             infile_limit_str(INFILE_TEXT_MAX, lim, sizeof lim));
        return -1;
    }
    struct text_flaw f;
    if (text_check(text, len, TEXT_ALLOW_NEWLINE | TEXT_ALLOW_TAB, &f) == 0)
        return 0;
    fail(c, file, text_line_of(text, f.off), "%s: a job file is UTF-8 text without control "
         "characters", f.what);
    return -1;
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

/* The earlier entry of the current section that gave a one-value key another value, or
 * NULL: a list key (keys->repeatable) accumulates, the same value again is harmless. */
static const struct job_entry *one_value_twice(const struct pctx *c, const char *key,
                                               const char *value)
{
    for (size_t i = 0; c->keys->repeatable && c->keys->repeatable[i]; i++)
        if (!strcmp(key, c->keys->repeatable[i]))
            return NULL;
    const struct job_section *sec = &c->jf->sec[c->cur];
    for (size_t k = 0; k < sec->n; k++)
        if (!strcmp(sec->e[k].key, key) && strcmp(sec->e[k].value, value))
            return &sec->e[k];
    return NULL;
}

static int handler(void *user, const char *section, const char *name, const char *value);

/* Reads one source (the top file or an include) through inih. */
static void parse_src(struct pctx *c, struct src *s)
{
    c->stack[c->depth++] = s;
    infile_ini_limits();
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
    char real[PATH_MAX], *text = NULL, why[256];
    size_t len;
    if (!realpath(path, real)) {
        fail(c, from->path, from->line, "include %s: %s", path, strerror(errno));
        return;
    }
    if (infile_read(real, INFILE_TEXT_MAX, &text, &len, why, sizeof why) < 0) {
        fail(c, from->path, from->line, "include %s: %s", path, why);
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
        fail(c, from->path, from->line, "include cycle: %s%s", chain, path);
        return;
    }
    if (c->depth > JOB_MAX_INCLUDE_DEPTH) {
        free(text);
        fail(c, from->path, from->line, "includes nested deeper than %d", JOB_MAX_INCLUDE_DEPTH);
        return;
    }
    struct src s = {.path = keep_path(c, path), .text = text, .real = real};
    if (!s.path) {
        free(text);
        fail(c, from->path, from->line, "out of memory");
        return;
    }
    if (check_text(c, s.path, text, len) < 0) {
        free(text);
        return;
    }
    body_add(c, "# include = ", 12);
    body_add(c, value, strlen(value));
    body_add(c, "\n", 1);
    size_t cur = c->cur;
    parse_src(c, &s);
    c->cur = cur;
    free(text);
}

static int add_entry(struct job_section *sec, const char *key, const char *value,
                     const char *arg, const char *file, int line)
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
    e->arg = arg ? strdup(arg) : NULL;
    e->file = file;
    e->line = line;
    if (!e->key || !e->value || (arg && !e->arg)) {
        free(e->key);
        free(e->value);
        free(e->arg);
        return -1;
    }
    sec->n++;
    return 0;
}

/* A relative path in value (from a file on disk) resolved against that file's directory,
 * into a new string *out; *out stays NULL when value is used as it is. 0 or -1. */
static int resolve_path(const struct pctx *c, const struct src *s, const char *key,
                        const char *value, char **out)
{
    *out = NULL;
    size_t skip = 0;
    if (!c->keys->is_path || !s->real || !c->keys->is_path(key, value, &skip))
        return 0;
    const char *p = value + skip, *slash = strrchr(s->path, '/');
    if (!*p || *p == '/' || !slash)
        return 0;
    size_t n = skip + (size_t)(slash - s->path) + 1 + strlen(p) + 1;
    if (!(*out = malloc(n)))
        return -1;
    snprintf(*out, n, "%.*s%.*s/%s", (int)skip, value, (int)(slash - s->path), s->path, p);
    return 0;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
    struct pctx *c = user;
    struct src *s = c->stack[c->depth - 1];
    if (c->failed)
        return 1;
    char why[1024], *val = c->val;
    if (job_expand(value, val, INFILE_TEXT_MAX + 1, why, sizeof why) < 0)
        return fail(c, s->path, s->line, "%s: %s", name, why), 1;
    struct text_flaw f;
    if (text_check(val, strlen(val), TEXT_ALLOW_TAB, &f) < 0) /* ${NAME} holding a newline */
        return fail(c, s->path, s->line, "%s: the value holds %s after expansion", name, f.what),
               1;
    if (!strcmp(name, JOB_KEY_INCLUDE)) {
        include(c, s, val);
        return 1;
    }
    const char *stored;
    if (job_key_check(c->keys, c->cur == 0, name, val, &stored, why, sizeof why) < 0) {
        if (strncmp(why, "unknown key ", 12))
            return fail(c, s->path, s->line, "%s", why), 1;
        /* every unknown key is named, not only the first: a file written for another
         * tool shows all that it holds that fsbench does not take */
        error("%s:%d: %s", s->path, s->line, why);
        c->unknown++;
        return 1;
    }
    for (size_t i = 0; c->keys->cmdline_only && c->keys->cmdline_only[i]; i++)
        if (!strcmp(stored, c->keys->cmdline_only[i]))
            return fail(c, s->path, s->line,
                        "%s: a job file cannot consent to destroying data: give --%s on the "
                        "command line",
                        name, stored),
                   1;
    if (!strcmp(stored, JOB_KEY_INTERLEAVE))
        c->jf->interleave = !strcmp(val, "jobs");
    const struct job_entry *prev = one_value_twice(c, stored, val);
    if (prev)
        return fail(c, s->path, s->line,
                    "%s = %s, but %s:%d gave %s = %s: a key takes one value (list keys such "
                    "as fs and mount-opts take several)",
                    name, val, prev->file, prev->line, name, prev->value),
               1;
    char *arg;
    if (resolve_path(c, s, stored, val, &arg) < 0 ||
        add_entry(&c->jf->sec[c->cur], stored, val, arg, s->path, s->line) < 0) {
        free(arg);
        return fail(c, s->path, s->line, "out of memory"), 1;
    }
    free(arg);
    body_add(c, name, strlen(name));
    body_add(c, " = ", 3);
    body_add(c, val, strlen(val));
    body_add(c, "\n", 1);
    return 1;
}

int job_parse(const char *path, const char *text, const struct job_keys *keys, struct job_file *jf)
{
    memset(jf, 0, sizeof *jf);
    struct pctx c = {.jf = jf, .keys = keys};
    char *owned = NULL, why[256];
    char real[PATH_MAX];
    size_t len = text ? strlen(text) : 0;
    jf->path = strdup(path);
    jf->sec = calloc(JOB_MAX_JOBS + 1, sizeof *jf->sec);
    c.val = malloc(INFILE_TEXT_MAX + 1);
    if (!jf->path || !jf->sec || !c.val || !(jf->sec[0].name = strdup("global"))) {
        free(c.val);
        job_free(jf);
        return error("out of memory");
    }
    jf->nsec = 1;
    if (!text) {
        if (!realpath(path, real)) {
            error_errno("%s", path);
        } else if (infile_read(real, INFILE_TEXT_MAX, &owned, &len, why, sizeof why) < 0) {
            error("%s: %s", path, why);
        }
        if (!owned) {
            free(c.val);
            job_free(jf);
            return -1;
        }
        text = owned;
    }
    struct src s = {.path = keep_path(&c, path), .text = text, .real = owned ? real : NULL};
    jf->sec[0].file = s.path;
    if (!s.path)
        error("out of memory");
    else if (check_text(&c, s.path, text, len) == 0)
        parse_src(&c, &s);
    free(owned);
    free(c.val);
    if (!s.path || c.failed || c.unknown || job_fold(jf, NULL, NULL, 0) < 0) {
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
            free(sec->e[k].arg);
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
