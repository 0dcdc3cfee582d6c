/* job_text.c — the expanded text of a job file (see job.h): the preamble, then every
 * section's header and body as parsed (comments kept, values expanded, includes inlined),
 * with the command line's options folded in (job_fold), and its SHA-256.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "measure/results.h"
#include "run/job.h"

struct buf {
    char *s;
    size_t len, cap;
};

static int put(struct buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 1024;
        while (b->len + n + 1 > nc)
            nc *= 2;
        char *ns = realloc(b->s, nc);
        if (!ns)
            return error("out of memory");
        b->s = ns;
        b->cap = nc;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
    return 0;
}

static int puts_b(struct buf *b, const char *s)
{
    return put(b, s, strlen(s));
}

/* Is line (n bytes, no newline) a "key = value" line setting one of names? */
static bool sets(const char *line, size_t n, const char *const *names, size_t nnames)
{
    if (!n || line[0] == '#' || line[0] == ';' || line[0] == '[')
        return false;
    size_t k = strcspn(line, "=:");
    if (k >= n)
        return false;
    while (k && (line[k - 1] == ' ' || line[k - 1] == '\t'))
        k--;
    const char *key = line;
    if (!strncmp(line, "phase.", 6)) { /* phase.NAME.KEY sets option KEY */
        const char *dot = memchr(line + 6, '.', k - 6);
        if (dot) {
            k -= (size_t)(dot + 1 - line);
            key = dot + 1;
        }
    }
    for (size_t i = 0; i < nnames; i++)
        if (strlen(names[i]) == k && !strncmp(names[i], key, k))
            return true;
    return false;
}

/* Appends body, each line setting one of names commented out. */
static int put_body(struct buf *b, const char *body, const char *const *names, size_t n)
{
    for (const char *l = body; l && *l;) {
        size_t len = strcspn(l, "\n");
        bool replaced = sets(l, len, names, n);
        if ((replaced && puts_b(b, "# ") < 0) || put(b, l, len) < 0 ||
            (replaced && puts_b(b, "   (the command line replaced it)") < 0) ||
            puts_b(b, "\n") < 0)
            return -1;
        l += len + (l[len] == '\n');
    }
    return 0;
}

int job_fold(struct job_file *jf, const char *const *names, const char *const *values,
             size_t n)
{
    struct buf b = {0};
    int bad = put(&b, "", 0) < 0 || (jf->preamble && puts_b(&b, jf->preamble) < 0);
    for (size_t i = 0; !bad && i < jf->nsec; i++) {
        char head[RES_NAME_MAX + 4];
        snprintf(head, sizeof head, "[%s]\n", jf->sec[i].name);
        bad = puts_b(&b, head) < 0 || put_body(&b, jf->sec[i].body, names, n) < 0;
        if (bad || i > 0 || !n)
            continue;
        bad = puts_b(&b, "# from the command line:\n") < 0;
        for (size_t k = 0; !bad && k < n; k++)
            bad = puts_b(&b, names[k]) < 0 || puts_b(&b, " = ") < 0 ||
                  puts_b(&b, values[k] ? values[k] : "1") < 0 || puts_b(&b, "\n") < 0;
    }
    if (bad) {
        free(b.s);
        return -1;
    }
    free(jf->text);
    jf->text = b.s;
    job_sha256_hex(b.s, b.len, jf->hash);
    return 0;
}
