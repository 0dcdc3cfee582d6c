/* trace_record_calls.c — what each system call strace reports means for the trace: one
 * handler per call family, found by name in a table. A handler reads the arguments it
 * needs, decides whether the call lies below the directory (by its path, resolved against
 * its directory descriptor's path or the thread's working directory, or by its
 * descriptor's slot), and emits the record or counts the call as left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "trace/trace_record_internal.h"

/* ---- the flag names strace prints ---- */

static const struct strace_flag open_flags[] = {
    {"O_WRONLY", TRO_WRONLY},       {"O_RDWR", TRO_RDWR},         {"O_CREAT", TRO_CREAT},
    {"O_EXCL", TRO_EXCL},           {"O_TRUNC", TRO_TRUNC},       {"O_APPEND", TRO_APPEND},
    {"O_DIRECTORY", TRO_DIRECTORY}, {"O_NOFOLLOW", TRO_NOFOLLOW}, {"O_SYNC", TRO_SYNC},
    {"O_DSYNC", TRO_DSYNC},         {"O_DIRECT", TRO_DIRECT},     {"O_NONBLOCK", TRO_NONBLOCK},
    {"O_NDELAY", TRO_NONBLOCK},     {"O_TMPFILE", TRO_TMPFILE},   {"O_PATH", TRO_PATH},
    {"O_NOATIME", TRO_NOATIME},     {"O_CLOEXEC", TRO_CLOEXEC},   {NULL, 0},
};
static const struct strace_flag whences[] = {
    {"SEEK_SET", TRW_SET + 1}, {"SEEK_CUR", TRW_CUR + 1}, {"SEEK_END", TRW_END + 1},
    {"SEEK_DATA", TRW_DATA + 1}, {"SEEK_HOLE", TRW_HOLE + 1}, {NULL, 0},
};
static const struct strace_flag falloc_flags[] = {
    {"FALLOC_FL_KEEP_SIZE", TRF_KEEP_SIZE}, {"FALLOC_FL_PUNCH_HOLE", TRF_PUNCH_HOLE},
    {"FALLOC_FL_ZERO_RANGE", TRF_ZERO_RANGE}, {"FALLOC_FL_COLLAPSE_RANGE", TRF_OTHER},
    {"FALLOC_FL_INSERT_RANGE", TRF_OTHER}, {"FALLOC_FL_UNSHARE_RANGE", TRF_OTHER}, {NULL, 0},
};
static const struct strace_flag range_flags[] = {
    {"SYNC_FILE_RANGE_WAIT_BEFORE", TRY_WAIT_BEFORE}, {"SYNC_FILE_RANGE_WRITE", TRY_WRITE},
    {"SYNC_FILE_RANGE_WAIT_AFTER", TRY_WAIT_AFTER}, {NULL, 0},
};
static const struct strace_flag map_prot[] = {
    {"PROT_READ", TRM_READ}, {"PROT_EXEC", TRM_READ}, {"PROT_WRITE", TRM_WRITE}, {NULL, 0},
};
static const struct strace_flag map_flags[] = {
    {"MAP_SHARED", TRM_SHARED}, {"MAP_SHARED_VALIDATE", TRM_SHARED}, {NULL, 0},
};

/* ---- handlers ---- */

/* open family; how: 0 open(path, flags, mode), 1 openat(dir, path, flags, mode), 2 creat,
 * 3 openat2(dir, path, {flags=, mode=}, size). */
static int h_open(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                  const struct rec_args *a, int how)
{
    int pi = how == 1 || how == 3, need = how == 2 ? 2 : pi + 2;
    if (a->n < need)
        return rec_count_out(r, REC_OUT_BAD), 0;
    char rel[TRACE_PATH_MAX];
    size_t rl = 0;
    int in = rec_path_arg(r, t, pi ? &a->a[0] : NULL, a->a[pi], rel, &rl);
    int64_t res;
    if (!rec_result(l, &res))
        return rec_count_out(r, REC_OUT_BAD), 0;
    uint32_t flags = 0, mode = 0;
    if (how == 2) {
        flags = TRO_CREAT | TRO_WRONLY | TRO_TRUNC;
        mode = (uint32_t)rec_num(a->a[1]);
    } else if (how == 3) {
        /* {flags=O_RDONLY|O_CLOEXEC, mode=0, resolve=...} */
        struct strace_span s = a->a[2], parts[6];
        if (s.n >= 2 && s.p[0] == '{')
            s.p++, s.n -= 2;
        int np = strace_split_args(s, parts, 6);
        for (int i = 0; i < np && i < 6; i++) {
            if (parts[i].n > 6 && !memcmp(parts[i].p, "flags=", 6))
                flags = strace_arg_flags((struct strace_span){parts[i].p + 6, parts[i].n - 6},
                                         open_flags);
            if (parts[i].n > 5 && !memcmp(parts[i].p, "mode=", 5))
                mode = (uint32_t)rec_num((struct strace_span){parts[i].p + 5, parts[i].n - 5});
        }
    } else {
        flags = strace_arg_flags(a->a[pi + 1], open_flags);
        if (a->n > pi + 2)
            mode = (uint32_t)rec_num(a->a[pi + 2]);
    }
    if (in == REC_IN && res >= 0 && l->ret_decor.n > 2) {
        /* the kernel's path of what was opened: a symlink out of the directory leaves it */
        char real[TRACE_PATH_MAX], r2[TRACE_PATH_MAX];
        long fd;
        bool deleted;
        size_t n2;
        char dec[TRACE_PATH_MAX + 32];
        snprintf(dec, sizeof dec, "0%.*s", (int)l->ret_decor.n, l->ret_decor.p);
        if (strace_arg_fd((struct strace_span){dec, strlen(dec)}, &fd, real, sizeof real,
                          &deleted) == 0 && real[0] == '/' && !deleted &&
            rec_relative(r, real, r2, &n2) != REC_IN)
            in = REC_OUT_DIR;
    }
    if (res >= 0) {
        /* the descriptor number now means this file, whatever it was */
        if (rec_fd_release(r, t, l, (long)res) < 0)
            return -1;
        struct fdent *e = rec_fd(r, t, (long)res);
        if (!e)
            return error("out of memory");
        e->cloexec = (flags & TRO_CLOEXEC) != 0;
        if (in != REC_IN) {
            e->state = FD_OUT;
            return rec_count_out(r, in), 0;
        }
        e->state = FD_SLOT;
        e->slot = rec_slot_alloc(r);
        res = e->slot;
    } else if (in != REC_IN) {
        return rec_count_out(r, in), 0;
    }
    struct trace_call c = {.kind = TK_OPEN, .path = rel, .path_len = (uint32_t)rl,
                           .flags = flags & TRO_ALL, .mode = mode & 07777, .result = res};
    return rec_emit_path(r, t, l, &c);
}

static int h_close(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                   const struct rec_args *a, int how)
{
    (void)how;
    uint32_t slot = 0;
    int64_t res;
    int in;
    if (t->closing) {
        /* resumed: the descriptor was taken out of the table when the close started */
        struct fdent e = t->closing_fd;
        t->closing = false;
        if (!rec_result(l, &res))
            return rec_count_out(r, REC_OUT_BAD), 0;
        in = e.state == FD_SLOT ? REC_IN : e.state == FD_OUT ? REC_OUT_DIR : REC_OUT_PRESTART;
        slot = e.slot;
    } else {
        if (a->n < 1 || !rec_result(l, &res))
            return rec_count_out(r, REC_OUT_BAD), 0;
        in = rec_fd_arg(r, t, a->a[0], &slot);
        long fd;
        bool deleted;
        char path[TRACE_PATH_MAX];
        if (strace_arg_fd(a->a[0], &fd, path, sizeof path, &deleted) == 0) {
            struct fdent *e = rec_fd(r, t, fd);
            if (e)
                memset(e, 0, sizeof *e); /* closed, even when close reported an error */
        }
    }
    if (in != REC_IN)
        return rec_count_out(r, in), 0;
    rec_slot_free(r, slot);
    struct trace_call c = {.kind = TK_CLOSE, .slot = slot, .result = res};
    return rec_emit(r, t, l, &c);
}

void rec_call_started(struct trace_recorder *r, struct task *t, const struct strace_line *l)
{
    if (l->name.n != 5 || memcmp(l->name.p, "close", 5))
        return;
    /* the kernel takes the number out of the table first and then flushes the file, which
     * can take long: an open of another thread may get the number meanwhile */
    struct strace_span a[1];
    long fd;
    bool deleted;
    char path[TRACE_PATH_MAX];
    if (strace_split_args(l->args, a, 1) < 1 || strace_arg_fd(a[0], &fd, path, sizeof path, &deleted) < 0)
        return;
    struct fdent *e = rec_fd(r, t, fd);
    if (!e)
        return;
    t->closing_fd = *e;
    t->closing = true;
    memset(e, 0, sizeof *e);
}

/* socketpair: its pair remembered (trace_record_chan.c). */
static int h_socketpair(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                        const struct rec_args *a, int how)
{
    (void)t;
    (void)how;
    int64_t res;
    if (!rec_result(l, &res) || res != 0 || a->n < 4)
        return 0;
    rec_socketpair(r, a->a[3]);
    return 0;
}

/* wait4 (how 0: the pid is the result), waitid (1: si_pid= in its third argument). */
static int h_wait(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                  const struct rec_args *a, int how)
{
    int64_t res;
    if (!rec_result(l, &res) || res < 0)
        return 0;
    return rec_wait(r, t, l, how == 0 ? res : rec_waitid_pid(a->n > 2 ? a->a[2] : (struct strace_span){0}));
}

/* Calls on one descriptor: how is the kind; sizes and offsets from the kind's arguments. */
static int h_fd(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                const struct rec_args *a, int how)
{
    uint32_t slot = 0;
    int64_t res;
    if (a->n < 1 || !rec_result(l, &res))
        return rec_count_out(r, REC_OUT_BAD), 0;
    int in = rec_fd_arg(r, t, a->a[0], &slot);
    if (in != REC_IN && (how == TK_READ || how == TK_WRITE)) {
        int rc = rec_chan(r, t, l, a->a[0], (unsigned)how, res);
        return rc ? (rc < 0 ? -1 : 0) : (rec_count_out(r, in), 0);
    }
    if (in != REC_IN)
        return rec_count_out(r, in), 0;
    struct trace_call c = {.kind = (uint8_t)how, .slot = slot, .result = res};
    bool vec = false;
    switch (how) {
    case TK_READ:
    case TK_WRITE:
    case TK_GETDENTS:
        vec = a->n > 1 && a->a[1].n && a->a[1].p[0] == '[';
        c.size = a->n > 2 ? rec_num(a->a[2]) : 0;
        break;
    case TK_PREAD:
    case TK_PWRITE:
        vec = a->n > 1 && a->a[1].n && a->a[1].p[0] == '[';
        c.size = a->n > 2 ? rec_num(a->a[2]) : 0;
        c.off = a->n > 3 ? rec_num(a->a[3]) : 0;
        break;
    case TK_LSEEK: {
        int64_t v = 0;
        if (a->n < 3 || strace_arg_num(a->a[1], &v) < 0)
            return rec_count_out(r, REC_OUT_BAD), 0;
        uint32_t w = strace_arg_flags(a->a[2], whences);
        if (!w)
            return rec_count_out(r, REC_OUT_BAD), 0;
        c.soff = v;
        c.flags = w - 1;
        break;
    }
    case TK_SYNC_RANGE:
        if (a->n < 4)
            return rec_count_out(r, REC_OUT_BAD), 0;
        c.off = rec_num(a->a[1]);
        c.size = rec_num(a->a[2]);
        c.flags = strace_arg_flags(a->a[3], range_flags);
        break;
    case TK_FALLOCATE:
        if (a->n < 4)
            return rec_count_out(r, REC_OUT_BAD), 0;
        c.flags = strace_arg_flags(a->a[1], falloc_flags);
        c.off = rec_num(a->a[2]);
        c.size = rec_num(a->a[3]);
        break;
    case TK_FTRUNCATE: c.size = a->n > 1 ? rec_num(a->a[1]) : 0; break;
    case TK_FCHMOD: c.mode = a->n > 1 ? (uint32_t)rec_num(a->a[1]) & 07777 : 0; break;
    default: break;
    }
    if (vec) /* readv, writev: the iovecs are not shown; what moved is the size */
        c.size = res > 0 ? (uint64_t)res : 0;
    if (c.size > TRACE_IO_MAX && how != TK_FTRUNCATE && how != TK_FALLOCATE &&
        how != TK_SYNC_RANGE)
        c.size = TRACE_IO_MAX;
    if (trace_kind_result(c.kind) == TR_COUNT && res > (int64_t)c.size)
        c.size = (uint64_t)res;
    if (trace_kind_result(c.kind) == TR_NONE && res > 0)
        c.result = 0;
    return rec_emit(r, t, l, &c);
}

/* mmap(addr, len, prot, flags, fd, off) of a descriptor below the directory: the range the
 * program can reach through memory. Anonymous maps and maps of other files (libraries,
 * the program itself) are no calls of the trace and are not counted as left out. */
static int h_mmap(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                  const struct rec_args *a, int how)
{
    (void)how;
    uint32_t slot = 0;
    int64_t res;
    if (a->n < 6 || !a->a[4].n || a->a[4].p[0] == '-' || !rec_result(l, &res))
        return 0; /* -1: anonymous */
    if (rec_fd_arg(r, t, a->a[4], &slot) != REC_IN)
        return 0;
    struct trace_call c = {.kind = TK_MMAP, .slot = slot, .result = res < 0 ? res : 0};
    c.size = rec_num(a->a[1]);
    c.off = rec_num(a->a[5]);
    c.flags = strace_arg_flags(a->a[2], map_prot) | strace_arg_flags(a->a[3], map_flags);
    return rec_emit(r, t, l, &c);
}

static int h_sync(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                  const struct rec_args *a, int how)
{
    int64_t res;
    if (!rec_result(l, &res))
        return rec_count_out(r, REC_OUT_BAD), 0;
    struct trace_call c = {.kind = TK_SYNC, .result = res};
    return rec_emit(r, t, l, &c);
}

/* dup(fd), dup2(fd, new), dup3(fd, new, flags) and fcntl's F_DUPFD*: the result is the new
 * descriptor. cloexec: how. */
static int dup_to(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                  struct strace_span from, bool cloexec)
{
    int64_t res;
    if (!rec_result(l, &res))
        return rec_count_out(r, REC_OUT_BAD), 0;
    uint32_t slot = 0;
    int in = rec_fd_arg(r, t, from, &slot);
    long ofd;
    bool deleted;
    char path[TRACE_PATH_MAX];
    if (strace_arg_fd(from, &ofd, path, sizeof path, &deleted) < 0)
        return rec_count_out(r, REC_OUT_BAD), 0;
    if (res < 0 || res == ofd) {
        if (in != REC_IN)
            return rec_count_out(r, in), 0;
        if (res >= 0)
            return 0; /* dup2(fd, fd): nothing happens */
        struct trace_call c = {.kind = TK_DUP, .slot = slot, .result = res};
        return rec_emit(r, t, l, &c);
    }
    if (rec_fd_release(r, t, l, (long)res) < 0)
        return -1;
    struct fdent *e = rec_fd(r, t, (long)res);
    if (!e)
        return error("out of memory");
    e->cloexec = cloexec;
    if (in != REC_IN) {
        e->state = in == REC_OUT_DIR ? FD_OUT : FD_NONE;
        return rec_count_out(r, in), 0;
    }
    e->state = FD_SLOT;
    e->slot = rec_slot_alloc(r);
    struct trace_call c = {.kind = TK_DUP, .slot = slot, .result = e->slot};
    return rec_emit(r, t, l, &c);
}

static int h_dup(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                 const struct rec_args *a, int how)
{
    if (a->n < 1)
        return rec_count_out(r, REC_OUT_BAD), 0;
    bool cloexec = how == 3 && a->n > 2 && strace_arg_has(a->a[2], "O_CLOEXEC");
    return dup_to(r, t, l, a->a[0], cloexec);
}

static int h_fcntl(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                   const struct rec_args *a, int how)
{
    if (a->n < 2)
        return 0;
    struct strace_span cmd = a->a[1];
    if (strace_span_is(cmd, "F_DUPFD") || strace_span_is(cmd, "F_DUPFD_CLOEXEC"))
        return dup_to(r, t, l, a->a[0], strace_span_is(cmd, "F_DUPFD_CLOEXEC"));
    int64_t res;
    if (!rec_result(l, &res) || res < 0)
        return 0;
    if (strace_span_is(cmd, "F_SETFD")) {
        long fd;
        bool deleted;
        char path[TRACE_PATH_MAX];
        struct fdent *e;
        if (a->n > 2 && strace_arg_fd(a->a[0], &fd, path, sizeof path, &deleted) == 0 &&
            (e = rec_fd(r, t, fd)))
            e->cloexec = strace_arg_has(a->a[2], "FD_CLOEXEC");
        return 0;
    }
    if (!strace_span_is(cmd, "F_SETFL") || a->n < 3)
        return 0; /* F_GETFL, locks, ...: not part of a trace */
    uint32_t slot;
    int in = rec_fd_arg(r, t, a->a[0], &slot);
    if (in != REC_IN)
        return rec_count_out(r, in), 0;
    struct trace_call c = {.kind = TK_SETFL, .slot = slot, .result = 0,
                           .flags = strace_arg_flags(a->a[2], open_flags) &
                                    (TRO_APPEND | TRO_NONBLOCK | TRO_DIRECT | TRO_NOATIME)};
    return rec_emit(r, t, l, &c);
}

/* copy_file_range(in, off_in, out, off_out, len, flags) (how 0) and sendfile(out, in,
 * offset, count) (how 1). */
static int h_copy(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                  const struct rec_args *a, int how)
{
    int64_t res;
    if (a->n < (how ? 4 : 5) || !rec_result(l, &res))
        return rec_count_out(r, REC_OUT_BAD), 0;
    uint32_t sin = 0, sout = 0;
    int i1 = rec_fd_arg(r, t, a->a[how ? 1 : 0], &sin);
    int i2 = rec_fd_arg(r, t, a->a[how ? 0 : 2], &sout);
    if (i1 != REC_IN || i2 != REC_IN)
        return rec_count_out(r, i1 != REC_IN ? i1 : i2), 0;
    struct trace_call c = {.kind = TK_COPY, .slot = sin, .slot2 = sout, .result = res};
    /* an offset is shown as [N] (or [N] => [M]) */
    struct strace_span oin = a->a[how ? 2 : 1];
    if (oin.n > 2 && oin.p[0] == '[') {
        c.flags |= TRC_IN_OFF;
        const char *e = memchr(oin.p, ']', oin.n);
        if (e)
            c.off = rec_num((struct strace_span){oin.p + 1, (size_t)(e - oin.p - 1)});
    }
    if (!how && a->a[3].n > 2 && a->a[3].p[0] == '[') {
        c.flags |= TRC_OUT_OFF;
        const char *e = memchr(a->a[3].p, ']', a->a[3].n);
        if (e)
            c.off2 = rec_num((struct strace_span){a->a[3].p + 1, (size_t)(e - a->a[3].p - 1)});
    }
    if (how)
        c.flags |= TRC_SENDFILE;
    c.size = rec_num(a->a[how ? 3 : 4]);
    if (c.size > TRACE_IO_MAX)
        c.size = TRACE_IO_MAX;
    if (res > (int64_t)c.size)
        c.size = (uint64_t)res;
    return rec_emit(r, t, l, &c);
}

/* ---- threads, processes and working directories ---- */

static int h_clone(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                   const struct rec_args *a, int how)
{
    int64_t res;
    if (!rec_result(l, &res) || res <= 0)
        return 0;
    bool files = false, fs = false, thread = false;
    for (int i = 0; i < a->n && how != 2; i++) {
        /* clone(..., flags=A|B, ...) or clone3({flags=A|B, ...}, size) */
        struct strace_span s = a->a[i];
        const char *f = NULL;
        for (size_t k = 0; k + 6 <= s.n && !f; k++)
            if (!memcmp(s.p + k, "flags=", 6))
                f = s.p + k;
        if (!f)
            continue;
        const char *e = f + 6;
        while (e < s.p + s.n && *e != ',' && *e != '}' && *e != ' ')
            e++;
        struct strace_span fl = {f + 6, (size_t)(e - f - 6)};
        files = strace_arg_has(fl, "CLONE_FILES");
        fs = strace_arg_has(fl, "CLONE_FS");
        thread = strace_arg_has(fl, "CLONE_THREAD");
        break;
    }
    return rec_spawn(r, t, l, (long)res, thread, files, fs);
}

static int h_exec(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                  const struct rec_args *a, int how)
{
    int64_t res;
    if (!rec_result(l, &res) || res != 0)
        return 0;
    /* execve("path", ...), execveat(dirfd, "path", ...) */
    char name[TRACE_PATH_MAX];
    bool named = a->n > how && strace_arg_string(a->a[how], name, sizeof name) > 0;
    return rec_exec(r, t, l, named ? name : NULL);
}

static int h_chdir(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                   const struct rec_args *a, int how)
{
    int64_t res;
    if (a->n < 1 || !rec_result(l, &res) || res != 0)
        return 0;
    char p[TRACE_PATH_MAX], abs[REC_PATHBUF];
    bool deleted = false;
    if (how) { /* fchdir(fd</dir>) */
        long fd;
        if (strace_arg_fd(a->a[0], &fd, p, sizeof p, &deleted) < 0 || p[0] != '/' || deleted)
            return 0;
        snprintf(abs, sizeof abs, "%s", p);
    } else {
        if (strace_arg_string(a->a[0], p, sizeof p) <= 0)
            return 0;
        if (p[0] == '/')
            snprintf(abs, sizeof abs, "%s", p);
        else
            snprintf(abs, sizeof abs, "%s/%s", t->fs->cwd, p);
    }
    rec_normalize(abs);
    char *c = strdup(abs);
    if (!c)
        return error("out of memory");
    free(t->fs->cwd);
    t->fs->cwd = c;
    return 0;
}

/* close_range(first, last, flags): each descriptor in it closed (or made close-on-exec). */
static int h_close_range(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                         const struct rec_args *a, int how)
{
    int64_t res, first, last;
    if (a->n < 2 || !rec_result(l, &res) || res != 0 || strace_arg_num(a->a[0], &first) < 0)
        return 0;
    if (strace_arg_num(a->a[1], &last) < 0)
        last = INT32_MAX; /* ~0U */
    bool cloexec = a->n > 2 && strace_arg_has(a->a[2], "CLOSE_RANGE_CLOEXEC");
    struct fdtab *ft = t->fds;
    for (int64_t fd = first < 0 ? 0 : first; fd <= last && (size_t)fd < ft->cap; fd++) {
        if (cloexec)
            ft->e[fd].cloexec = 1;
        else if (rec_fd_release(r, t, l, (long)fd) < 0)
            return -1;
    }
    return 0;
}

/* ---- the table ---- */

struct call_def {
    const char *name;
    rec_handler fn;
    int how;
};

/* Sorted by name (bsearch). */
static const struct call_def table[] = {
    {"_llseek", h_fd, TK_LSEEK}, /* (32-bit: its offset comes in two halves; counted bad) */
    {"access", rec_h_path, 3},
    {"chdir", h_chdir, 0},
    {"chmod", rec_h_path, 13},
    {"chown", rec_h_path, 15},
    {"clone", h_clone, 0},
    {"clone3", h_clone, 1},
    {"close", h_close, 0},
    {"close_range", h_close_range, 0},
    {"copy_file_range", h_copy, 0},
    {"creat", h_open, 2},
    {"dup", h_dup, 1},
    {"dup2", h_dup, 2},
    {"dup3", h_dup, 3},
    {"execve", h_exec, 0},
    {"execveat", h_exec, 1},
    {"faccessat", rec_h_path, 4},
    {"faccessat2", rec_h_path, 4},
    {"fallocate", h_fd, TK_FALLOCATE},
    {"fchdir", h_chdir, 1},
    {"fchmod", h_fd, TK_FCHMOD},
    {"fchmodat", rec_h_path, 14},
    {"fchown", h_fd, TK_FCHOWN},
    {"fchownat", rec_h_path, 16},
    {"fcntl", h_fcntl, 0},
    {"fcntl64", h_fcntl, 0},
    {"fdatasync", h_fd, TK_FDATASYNC},
    {"fork", h_clone, 2},
    {"fstat", h_fd, TK_FSTAT},
    {"fstatat64", rec_h_path, 1},
    {"fstatfs", h_fd, TK_FSTATFS},
    {"fsync", h_fd, TK_FSYNC},
    {"ftruncate", h_fd, TK_FTRUNCATE},
    {"futimesat", rec_h_path, 19},
    {"getdents", h_fd, TK_GETDENTS},
    {"getdents64", h_fd, TK_GETDENTS},
    {"lchown", rec_h_path, 15},
    {"link", rec_h_two, 3},
    {"linkat", rec_h_two, 4},
    {"lseek", h_fd, TK_LSEEK},
    {"lstat", rec_h_lstat, 0},
    {"mkdir", rec_h_path, 6},
    {"mkdirat", rec_h_path, 7},
    {"mmap", h_mmap, 0},
    {"newfstatat", rec_h_path, 1},
    {"open", h_open, 0},
    {"openat", h_open, 1},
    {"openat2", h_open, 3},
    {"pread64", h_fd, TK_PREAD},
    {"preadv", h_fd, TK_PREAD},
    {"preadv2", h_fd, TK_PREAD},
    {"pwrite64", h_fd, TK_PWRITE},
    {"pwritev", h_fd, TK_PWRITE},
    {"pwritev2", h_fd, TK_PWRITE},
    {"read", h_fd, TK_READ},
    {"readlink", rec_h_path, 11},
    {"readlinkat", rec_h_path, 12},
    {"readv", h_fd, TK_READ},
    {"rename", rec_h_two, 0},
    {"renameat", rec_h_two, 1},
    {"renameat2", rec_h_two, 2},
    {"rmdir", rec_h_path, 8},
    {"sendfile", h_copy, 1},
    {"socketpair", h_socketpair, 0},
    {"stat", rec_h_path, 0},
    {"statfs", rec_h_path, 5},
    {"statx", rec_h_path, 2},
    {"symlink", rec_h_symlink, 0},
    {"symlinkat", rec_h_symlink, 1},
    {"sync", h_sync, 0},
    {"sync_file_range", h_fd, TK_SYNC_RANGE},
    {"syncfs", h_fd, TK_SYNCFS},
    {"truncate", rec_h_path, 20},
    {"unlink", rec_h_path, 9},
    {"unlinkat", rec_h_path, 10},
    {"utime", rec_h_path, 18},
    {"utimensat", rec_h_path, 17},
    {"utimes", rec_h_path, 18},
    {"vfork", h_clone, 2},
    {"wait4", h_wait, 0},
    {"waitid", h_wait, 1},
    {"write", h_fd, TK_WRITE},
    {"writev", h_fd, TK_WRITE},
};

static int by_name(const void *key, const void *elem)
{
    const struct strace_span *k = key;
    const char *name = ((const struct call_def *)elem)->name;
    size_t n = strlen(name);
    int c = memcmp(k->p, name, k->n < n ? k->n : n);
    return c ? c : (k->n > n) - (k->n < n);
}

int rec_call(struct trace_recorder *r, struct task *t, const struct strace_line *l)
{
    const struct call_def *d =
        bsearch(&l->name, table, sizeof table / sizeof table[0], sizeof table[0], by_name);
    if (!d)
        return 0; /* a call a trace does not hold (munmap, exit_group, ...) */
    struct rec_args a;
    a.n = strace_split_args(l->args, a.a, STRACE_ARGS_MAX);
    if (a.n < 0) {
        r->info.left_other++;
        return 0;
    }
    if (a.n > STRACE_ARGS_MAX)
        a.n = STRACE_ARGS_MAX;
    if (!strcmp(d->name, "_llseek"))
        return rec_count_out(r, REC_OUT_BAD), 0;
    return d->fn(r, t, l, &a, d->how);
}

int trace_rec_table_sorted(void)
{
    for (size_t i = 1; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i - 1].name, table[i].name) >= 0)
            return 0;
    return 1;
}
