/* trace_record_args.c — where a call's arguments point, as the call handlers
 * (trace_record_calls.c, trace_record_paths.c) need it: its result, a path argument
 * resolved against its directory descriptor's path or the thread's working directory and
 * made relative to the recorded directory, a descriptor argument's slot, and the count of
 * calls left out and why. It calls no handler.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "trace/trace_prescan.h"
#include "trace/trace_record_internal.h"

void rec_count_out(struct trace_recorder *r, int how)
{
    if (how == REC_OUT_DIR)
        r->info.left_outside++;
    else if (how == REC_OUT_PRESTART)
        r->info.left_prestart++;
    else if (how == REC_OUT_BAD)
        r->info.left_other++;
}

/* The call's result as a trace result: false when there is none to record (unknown, or a
 * call the kernel restarts and strace shows again). */
bool rec_result(const struct strace_line *l, int64_t *res)
{
    if (!l->ret_known)
        return false;
    if (l->err[0]) {
        if (!strncmp(l->err, "ERESTART", 8))
            return false;
        *res = -(int64_t)trace_err_from_name(l->err);
        return true;
    }
    if (l->ret < 0)
        return false;
    *res = l->ret;
    return true;
}

/* Collapses "//", "/./" and "/x/.." in an absolute path, in place: its new length. */
size_t rec_normalize(char *s)
{
    size_t n = strlen(s), o = 0;
    for (size_t i = 0; i < n;) {
        while (i < n && s[i] == '/')
            i++;
        size_t b = i;
        while (i < n && s[i] != '/')
            i++;
        size_t len = i - b;
        if (len == 0 || (len == 1 && s[b] == '.'))
            continue;
        if (len == 2 && s[b] == '.' && s[b + 1] == '.') {
            while (o > 0 && s[o - 1] != '/')
                o--;
            if (o > 0)
                o--;
            continue;
        }
        s[o++] = '/';
        memmove(s + o, s + b, len);
        o += len;
    }
    if (o == 0)
        s[o++] = '/';
    s[o] = '\0';
    return o;
}

/* The path of abs (normalized) relative to the root into rel: REC_IN, or REC_OUT_DIR. */
int rec_relative(const struct trace_recorder *r, const char *abs, char *rel, size_t *rlen)
{
    size_t rl = r->rootlen, n = strlen(abs);
    const char *root = r->o.root;
    if (rl == 1 && root[0] == '/') { /* the root directory itself */
        if (n == 1)
            return strcpy(rel, "."), *rlen = 1, REC_IN;
        if (n - 1 >= TRACE_PATH_MAX)
            return REC_OUT_BAD;
        memcpy(rel, abs + 1, n);
        *rlen = n - 1;
        return REC_IN;
    }
    if (n < rl || memcmp(abs, root, rl) || (n > rl && abs[rl] != '/'))
        return REC_OUT_DIR;
    if (n == rl)
        return strcpy(rel, "."), *rlen = 1, REC_IN;
    if (n - rl - 1 >= TRACE_PATH_MAX)
        return REC_OUT_BAD;
    memcpy(rel, abs + rl + 1, n - rl);
    *rlen = n - rl - 1;
    return REC_IN;
}

/* Resolves the path argument pa against the directory argument da (NULL: the working
 * directory) into rel: REC_IN, REC_OUT_DIR, or REC_OUT_BAD (no string, cut short, a
 * deleted or unknown directory). An AT_FDCWD<path> tells the working directory: it is kept. */
int rec_path_arg(struct trace_recorder *r, struct task *t, const struct strace_span *da,
                 struct strace_span pa, char *rel, size_t *rlen)
{
    char p[TRACE_PATH_MAX], base[TRACE_PATH_MAX], abs[REC_PATHBUF];
    long plen = strace_arg_string(pa, p, sizeof p);
    if (plen < 0)
        return REC_OUT_BAD;
    const char *dir = t->fs->cwd;
    if (da) {
        long fd;
        bool deleted;
        if (strace_arg_fd(*da, &fd, base, sizeof base, &deleted) < 0)
            return REC_OUT_BAD;
        if (fd == STRACE_AT_FDCWD) {
            if (base[0] == '/' && !deleted) {
                if (strcmp(t->fs->cwd, base)) {
                    char *c = strdup(base);
                    if (c) {
                        free(t->fs->cwd);
                        t->fs->cwd = c;
                    }
                }
                dir = t->fs->cwd;
            }
        } else if (p[0] != '/') {
            if (base[0] != '/' || deleted)
                return REC_OUT_BAD;
            dir = base;
        }
    }
    if (p[0] == '/')
        snprintf(abs, sizeof abs, "%s", p);
    else
        snprintf(abs, sizeof abs, "%s/%s", dir, p);
    rec_normalize(abs);
    return rec_relative(r, abs, rel, rlen);
}

/* The state of descriptor argument a in t: REC_IN with *slot, REC_OUT_DIR (outside),
 * REC_OUT_PRESTART, or REC_OUT_BAD. */
int rec_fd_arg(struct trace_recorder *r, struct task *t, struct strace_span a,
               uint32_t *slot)
{
    long fd;
    bool deleted;
    char path[TRACE_PATH_MAX];
    if (strace_arg_fd(a, &fd, path, sizeof path, &deleted) < 0)
        return REC_OUT_BAD;
    struct fdent *e = rec_fd(r, t, fd);
    if (!e || e->state == FD_NONE)
        return REC_OUT_PRESTART;
    if (e->state == FD_OUT)
        return REC_OUT_DIR;
    *slot = e->slot;
    return REC_IN;
}

uint64_t rec_num(struct strace_span a)
{
    int64_t v;
    return strace_arg_num(a, &v) == 0 && v > 0 ? (uint64_t)v : 0;
}

/* Marks a path as used (the initial state) and records the call. */
int rec_emit_path(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                  struct trace_call *c)
{
    if (r->o.pre) {
        if (c->path && trace_prescan_use(r->o.pre, c->path, c->path_len) < 0)
            return error("out of memory");
        if (c->path2 && c->kind != TK_SYMLINK &&
            trace_prescan_use(r->o.pre, c->path2, c->path2_len) < 0)
            return error("out of memory");
    }
    return rec_emit(r, t, l, c);
}

