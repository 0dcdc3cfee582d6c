/* trace_record_paths.c — the calls on a path (stat, access, mkdir, unlink, readlink,
 * chmod, chown, utimens, truncate and their *at forms, rename, link, symlink): which
 * arguments are the directory, the path and the extra one of each, read from a table, and
 * the record each makes. An *at call on an empty path with AT_EMPTY_PATH acts on its
 * descriptor. trace_record_calls.c finds these handlers by the call's name.
 */
#include <string.h>

#include "trace/trace_record_internal.h"

static const struct strace_flag rename_flags[] = {
    {"RENAME_NOREPLACE", TRR_NOREPLACE}, {"RENAME_EXCHANGE", TRR_EXCHANGE},
    {"RENAME_WHITEOUT", TRR_WHITEOUT}, {NULL, 0},
};
static const struct strace_flag access_modes[] = {
    {"R_OK", 4}, {"W_OK", 2}, {"X_OK", 1}, {NULL, 0},
};

/* Calls on a path, or on the descriptor of an AT_EMPTY_PATH call. how: the kind; the
 * path's argument comes from the table (pi: its index, di: its directory's, or -1). */
struct path_call {
    unsigned kind;
    int di, pi;   /* directory and path arguments (-1: none) */
    int xi;       /* the kind's extra argument: mode, size, flags (-1: none) */
    int fi;       /* the *at flags argument (-1: none) */
};

static int do_path(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                   const struct rec_args *a, const struct path_call *pc)
{
    int64_t res;
    if (a->n <= pc->pi || (pc->di >= 0 && a->n <= pc->di) || !rec_result(l, &res))
        return rec_count_out(r, REC_OUT_BAD), 0;
    struct strace_span flags = pc->fi >= 0 && a->n > pc->fi ? a->a[pc->fi]
                                                            : (struct strace_span){"", 0};
    char p0[8];
    long plen = strace_arg_string(a->a[pc->pi], p0, sizeof p0);
    bool empty = plen == 0 || plen == -2;
    /* fstatat(fd, "", AT_EMPTY_PATH) and friends act on the descriptor */
    if (pc->di >= 0 && empty &&
        (strace_arg_has(flags, "AT_EMPTY_PATH") || pc->kind == TK_UTIMENS)) {
        unsigned k = pc->kind == TK_STAT      ? TK_FSTAT
                     : pc->kind == TK_CHOWN   ? TK_FCHOWN
                     : pc->kind == TK_UTIMENS ? TK_FUTIMENS
                                              : TK_NONE;
        uint32_t slot;
        int in = k ? rec_fd_arg(r, t, a->a[pc->di], &slot) : REC_OUT_BAD;
        if (in != REC_IN)
            return rec_count_out(r, in), 0;
        struct trace_call c = {.kind = (uint8_t)k, .slot = slot, .result = res};
        if (k == TK_FUTIMENS && a->n > 2 && !strace_span_is(a->a[2], "NULL"))
            c.flags = TRU_TIMES;
        return rec_emit(r, t, l, &c);
    }
    char rel[TRACE_PATH_MAX];
    size_t rl = 0;
    int in = rec_path_arg(r, t, pc->di >= 0 ? &a->a[pc->di] : NULL, a->a[pc->pi], rel, &rl);
    if (in != REC_IN)
        return rec_count_out(r, in), 0;
    struct trace_call c = {.kind = (uint8_t)pc->kind, .path = rel, .path_len = (uint32_t)rl,
                           .result = res};
    struct strace_span x = pc->xi >= 0 && a->n > pc->xi ? a->a[pc->xi]
                                                        : (struct strace_span){"", 0};
    switch (pc->kind) {
    case TK_STAT:
        c.flags = strace_arg_has(flags, "AT_SYMLINK_NOFOLLOW") ? TRS_NOFOLLOW : 0;
        break;
    case TK_MKDIR:
    case TK_CHMOD: c.mode = (uint32_t)rec_num(x) & 07777; break;
    case TK_ACCESS: c.mode = strace_arg_flags(x, access_modes); break;
    case TK_READLINK:
        c.size = rec_num(x);
        if (c.size > TRACE_IO_MAX)
            c.size = TRACE_IO_MAX;
        if (res > (int64_t)c.size)
            c.size = (uint64_t)res;
        break;
    case TK_TRUNCATE: c.size = rec_num(x); break;
    case TK_UTIMENS: c.flags = x.n && !strace_span_is(x, "NULL") ? TRU_TIMES : 0; break;
    case TK_UNLINK:
        if (strace_arg_has(flags, "AT_REMOVEDIR"))
            c.kind = TK_RMDIR;
        break;
    default: break;
    }
    if (trace_kind_result(c.kind) == TR_NONE && res > 0)
        c.result = 0;
    return rec_emit_path(r, t, l, &c);
}

static const struct path_call path_calls[] = {
    /* kind        di  pi  xi  fi */
    {TK_STAT, -1, 0, -1, -1},      /* 0 stat, lstat (handled by name below) */
    {TK_STAT, 0, 1, -1, 3},        /* 1 newfstatat, fstatat64 */
    {TK_STAT, 0, 1, -1, 2},        /* 2 statx */
    {TK_ACCESS, -1, 0, 1, -1},     /* 3 access */
    {TK_ACCESS, 0, 1, 2, 3},       /* 4 faccessat, faccessat2 */
    {TK_STATFS, -1, 0, -1, -1},    /* 5 statfs */
    {TK_MKDIR, -1, 0, 1, -1},      /* 6 mkdir */
    {TK_MKDIR, 0, 1, 2, -1},       /* 7 mkdirat */
    {TK_RMDIR, -1, 0, -1, -1},     /* 8 rmdir */
    {TK_UNLINK, -1, 0, -1, -1},    /* 9 unlink */
    {TK_UNLINK, 0, 1, -1, 2},      /* 10 unlinkat */
    {TK_READLINK, -1, 0, 2, -1},   /* 11 readlink */
    {TK_READLINK, 0, 1, 3, -1},    /* 12 readlinkat */
    {TK_CHMOD, -1, 0, 1, -1},      /* 13 chmod */
    {TK_CHMOD, 0, 1, 2, 3},        /* 14 fchmodat */
    {TK_CHOWN, -1, 0, -1, -1},     /* 15 chown, lchown */
    {TK_CHOWN, 0, 1, -1, 4},       /* 16 fchownat */
    {TK_UTIMENS, 0, 1, 2, 3},      /* 17 utimensat */
    {TK_UTIMENS, -1, 0, 1, -1},    /* 18 utimes, utime */
    {TK_UTIMENS, 0, 1, 2, -1},     /* 19 futimesat */
    {TK_TRUNCATE, -1, 0, 1, -1},   /* 20 truncate */
    {TK_STAT, -1, 0, -1, -1},      /* 21 lstat */
};

int rec_h_path(struct trace_recorder *r, struct task *t, const struct strace_line *l,
               const struct rec_args *a, int how)
{
    return do_path(r, t, l, a, &path_calls[how]);
}

int rec_h_lstat(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                const struct rec_args *a, int how)
{
    /* lstat: stat with AT_SYMLINK_NOFOLLOW, which the table cannot say */
    struct rec_args b = *a;
    if (b.n < STRACE_ARGS_MAX) {
        b.a[b.n] = (struct strace_span){"AT_SYMLINK_NOFOLLOW", 19};
        struct path_call pc = {TK_STAT, -1, 0, -1, b.n};
        b.n++;
        return do_path(r, t, l, &b, &pc);
    }
    return rec_h_path(r, t, l, a, 0);
}

/* rename family and link family: two paths. how: 0 rename, 1 renameat, 2 renameat2,
 * 3 link, 4 linkat. */
int rec_h_two(struct trace_recorder *r, struct task *t, const struct strace_line *l,
              const struct rec_args *a, int how)
{
    bool at = how == 1 || how == 2 || how == 4;
    int64_t res;
    if (a->n < (at ? 4 : 2) || !rec_result(l, &res))
        return rec_count_out(r, REC_OUT_BAD), 0;
    char rel1[TRACE_PATH_MAX], rel2[TRACE_PATH_MAX];
    size_t n1 = 0, n2 = 0;
    int in1 = rec_path_arg(r, t, at ? &a->a[0] : NULL, a->a[at ? 1 : 0], rel1, &n1);
    int in2 = rec_path_arg(r, t, at ? &a->a[2] : NULL, a->a[at ? 3 : 1], rel2, &n2);
    if (in1 != REC_IN || in2 != REC_IN)
        return rec_count_out(r, in1 != REC_IN ? in1 : in2), 0;
    struct trace_call c = {.kind = how <= 2 ? TK_RENAME : TK_LINK, .path = rel1,
                           .path_len = (uint32_t)n1, .path2 = rel2, .path2_len = (uint32_t)n2,
                           .result = res > 0 ? 0 : res};
    if (how == 2 && a->n > 4)
        c.flags = strace_arg_flags(a->a[4], rename_flags);
    return rec_emit_path(r, t, l, &c);
}

/* symlink(target, path), symlinkat(target, dir, path): how 1 for the latter. */
int rec_h_symlink(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                  const struct rec_args *a, int how)
{
    int64_t res;
    if (a->n < 2 + how || !rec_result(l, &res))
        return rec_count_out(r, REC_OUT_BAD), 0;
    char target[TRACE_PATH_MAX], rel[TRACE_PATH_MAX];
    long tl = strace_arg_string(a->a[0], target, sizeof target);
    size_t rl = 0;
    int in = rec_path_arg(r, t, how ? &a->a[1] : NULL, a->a[1 + how], rel, &rl);
    if (in == REC_IN && tl <= 0)
        in = REC_OUT_BAD;
    if (in != REC_IN)
        return rec_count_out(r, in), 0;
    struct trace_call c = {.kind = TK_SYMLINK, .path = rel, .path_len = (uint32_t)rl,
                           .path2 = target, .path2_len = (uint32_t)tl, .result = res > 0 ? 0 : res};
    return rec_emit_path(r, t, l, &c);
}

