/* trace.c — the tables behind trace.h: every kind's name, fields and result, the portable
 * error codes and the rule for a trace's paths. Data only; no I/O.
 */
#include "trace/trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kind_def {
    const char *name;
    unsigned fields;
    enum trace_result result;
};

#define FD TF_SLOT
static const struct kind_def calls[TK_CALL_KINDS] = {
    [TK_OPEN] = {"open", TF_PATH | TF_FLAGS | TF_MODE, TR_SLOT},
    [TK_CLOSE] = {"close", FD, TR_NONE},
    [TK_READ] = {"read", FD | TF_SIZE, TR_COUNT},
    [TK_PREAD] = {"pread", FD | TF_SIZE | TF_OFF, TR_COUNT},
    [TK_WRITE] = {"write", FD | TF_SIZE, TR_COUNT},
    [TK_PWRITE] = {"pwrite", FD | TF_SIZE | TF_OFF, TR_COUNT},
    [TK_LSEEK] = {"lseek", FD | TF_SOFF | TF_FLAGS, TR_OFFSET},
    [TK_GETDENTS] = {"getdents", FD | TF_SIZE, TR_COUNT},
    [TK_FSYNC] = {"fsync", FD, TR_NONE},
    [TK_FDATASYNC] = {"fdatasync", FD, TR_NONE},
    [TK_SYNC_RANGE] = {"sync_file_range", FD | TF_SIZE | TF_OFF | TF_FLAGS, TR_NONE},
    [TK_FALLOCATE] = {"fallocate", FD | TF_SIZE | TF_OFF | TF_FLAGS, TR_NONE},
    [TK_FTRUNCATE] = {"ftruncate", FD | TF_SIZE, TR_NONE},
    [TK_FSTAT] = {"fstat", FD, TR_NONE},
    [TK_FSTATFS] = {"fstatfs", FD, TR_NONE},
    [TK_FCHMOD] = {"fchmod", FD | TF_MODE, TR_NONE},
    [TK_FCHOWN] = {"fchown", FD, TR_NONE},
    [TK_FUTIMENS] = {"futimens", FD | TF_FLAGS, TR_NONE},
    [TK_DUP] = {"dup", FD, TR_SLOT},
    [TK_SETFL] = {"fcntl_setfl", FD | TF_FLAGS, TR_NONE},
    [TK_SYNCFS] = {"syncfs", FD, TR_NONE},
    [TK_SYNC] = {"sync", 0, TR_NONE},
    [TK_STAT] = {"stat", TF_PATH | TF_FLAGS, TR_NONE},
    [TK_ACCESS] = {"access", TF_PATH | TF_MODE, TR_NONE},
    [TK_STATFS] = {"statfs", TF_PATH, TR_NONE},
    [TK_MKDIR] = {"mkdir", TF_PATH | TF_MODE, TR_NONE},
    [TK_RMDIR] = {"rmdir", TF_PATH, TR_NONE},
    [TK_UNLINK] = {"unlink", TF_PATH, TR_NONE},
    [TK_RENAME] = {"rename", TF_PATH | TF_PATH2 | TF_FLAGS, TR_NONE},
    [TK_LINK] = {"link", TF_PATH | TF_PATH2, TR_NONE},
    [TK_SYMLINK] = {"symlink", TF_PATH | TF_PATH2, TR_NONE},
    [TK_READLINK] = {"readlink", TF_PATH | TF_SIZE, TR_COUNT},
    [TK_CHMOD] = {"chmod", TF_PATH | TF_MODE, TR_NONE},
    [TK_CHOWN] = {"chown", TF_PATH, TR_NONE},
    [TK_UTIMENS] = {"utimens", TF_PATH | TF_FLAGS, TR_NONE},
    [TK_TRUNCATE] = {"truncate", TF_PATH | TF_SIZE, TR_NONE},
    [TK_COPY] = {"copy", FD | TF_SLOT2 | TF_SIZE | TF_FLAGS | TF_OFF | TF_OFF2, TR_COUNT},
    [TK_MMAP] = {"mmap", FD | TF_SIZE | TF_OFF | TF_FLAGS, TR_NONE},
};

static const struct kind_def implicit[TRACE_KIND_END - TRACE_KIND_IMPLICIT] = {
    [TK_SPAWN - TRACE_KIND_IMPLICIT] = {"spawn", TF_AUX, TR_NONE},
    [TK_EXIT - TRACE_KIND_IMPLICIT] = {"exit", 0, TR_NONE},
    [TK_INHERIT - TRACE_KIND_IMPLICIT] = {"inherit", FD, TR_SLOT},
    [TK_DROP - TRACE_KIND_IMPLICIT] = {"drop", FD, TR_NONE},
    [TK_CHAN - TRACE_KIND_IMPLICIT] = {"chan", TF_SIZE | TF_OFF | TF_FLAGS, TR_NONE},
    [TK_WAIT - TRACE_KIND_IMPLICIT] = {"wait", TF_AUX, TR_NONE},
    [TK_AWAY - TRACE_KIND_IMPLICIT] = {"away", TF_SIZE, TR_NONE},
};
#undef FD

static const struct kind_def *kind_def(unsigned kind)
{
    if (kind > TK_NONE && kind < TK_CALL_KINDS)
        return &calls[kind];
    if (kind >= TRACE_KIND_IMPLICIT && kind < TRACE_KIND_END)
        return &implicit[kind - TRACE_KIND_IMPLICIT];
    return NULL;
}

const char *trace_kind_name(unsigned kind)
{
    const struct kind_def *d = kind_def(kind);
    return d ? d->name : "?";
}

unsigned trace_kind_find(const char *name)
{
    for (unsigned k = 1; k < TK_CALL_KINDS; k++)
        if (!strcmp(calls[k].name, name))
            return k;
    return TK_NONE;
}

bool trace_kind_valid(unsigned kind)
{
    return kind_def(kind) != NULL;
}

unsigned trace_kind_fields(unsigned kind)
{
    const struct kind_def *d = kind_def(kind);
    return d ? d->fields : 0;
}

enum trace_result trace_kind_result(unsigned kind)
{
    const struct kind_def *d = kind_def(kind);
    return d ? d->result : TR_NONE;
}

uint32_t trace_kind_shape(unsigned kind)
{
    const struct kind_def *d = kind_def(kind);
    return d ? TRACE_SHAPE_VALID | (uint32_t)d->result << 16 | d->fields : 0;
}

/* ---- errors ---- */

struct err_def {
    const char *name;
    int value; /* the system's errno; 0 where the system has none */
};

#ifndef ENODATA
#define ENODATA 0
#endif
#ifndef EDQUOT
#define EDQUOT 0
#endif
#ifndef ESTALE
#define ESTALE 0
#endif
#ifndef ENOTSUP
#define ENOTSUP EOPNOTSUPP
#endif

static const struct err_def errs[TE_COUNT] = {
    [TE_OK] = {"0", 0},
    [TE_PERM] = {"EPERM", EPERM},
    [TE_NOENT] = {"ENOENT", ENOENT},
    [TE_SRCH] = {"ESRCH", ESRCH},
    [TE_INTR] = {"EINTR", EINTR},
    [TE_IO] = {"EIO", EIO},
    [TE_NXIO] = {"ENXIO", ENXIO},
    [TE_2BIG] = {"E2BIG", E2BIG},
    [TE_NOEXEC] = {"ENOEXEC", ENOEXEC},
    [TE_BADF] = {"EBADF", EBADF},
    [TE_CHILD] = {"ECHILD", ECHILD},
    [TE_AGAIN] = {"EAGAIN", EAGAIN},
    [TE_NOMEM] = {"ENOMEM", ENOMEM},
    [TE_ACCES] = {"EACCES", EACCES},
    [TE_FAULT] = {"EFAULT", EFAULT},
    [TE_BUSY] = {"EBUSY", EBUSY},
    [TE_EXIST] = {"EEXIST", EEXIST},
    [TE_XDEV] = {"EXDEV", EXDEV},
    [TE_NODEV] = {"ENODEV", ENODEV},
    [TE_NOTDIR] = {"ENOTDIR", ENOTDIR},
    [TE_ISDIR] = {"EISDIR", EISDIR},
    [TE_INVAL] = {"EINVAL", EINVAL},
    [TE_NFILE] = {"ENFILE", ENFILE},
    [TE_MFILE] = {"EMFILE", EMFILE},
    [TE_NOTTY] = {"ENOTTY", ENOTTY},
    [TE_TXTBSY] = {"ETXTBSY", ETXTBSY},
    [TE_FBIG] = {"EFBIG", EFBIG},
    [TE_NOSPC] = {"ENOSPC", ENOSPC},
    [TE_SPIPE] = {"ESPIPE", ESPIPE},
    [TE_ROFS] = {"EROFS", EROFS},
    [TE_MLINK] = {"EMLINK", EMLINK},
    [TE_PIPE] = {"EPIPE", EPIPE},
    [TE_RANGE] = {"ERANGE", ERANGE},
    [TE_NAMETOOLONG] = {"ENAMETOOLONG", ENAMETOOLONG},
    [TE_NOSYS] = {"ENOSYS", ENOSYS},
    [TE_NOTEMPTY] = {"ENOTEMPTY", ENOTEMPTY},
    [TE_LOOP] = {"ELOOP", ELOOP},
    [TE_NODATA] = {"ENODATA", ENODATA},
    [TE_OVERFLOW] = {"EOVERFLOW", EOVERFLOW},
    [TE_OPNOTSUPP] = {"EOPNOTSUPP", EOPNOTSUPP},
    [TE_DQUOT] = {"EDQUOT", EDQUOT},
    [TE_STALE] = {"ESTALE", ESTALE},
    /* ENOTSUP is EOPNOTSUPP on Linux: both are stored as TE_OPNOTSUPP (see below) */
    [TE_NOTSUP] = {"ENOTSUP", 0},
    [TE_OTHER] = {"E?", 0},
};

enum trace_err trace_err_from_errno(int e)
{
    if (e == 0)
        return TE_OK;
    if (e == ENOTSUP || e == EOPNOTSUPP)
        return TE_OPNOTSUPP;
    if (e == EWOULDBLOCK)
        return TE_AGAIN;
    for (unsigned c = 1; c < TE_OTHER; c++)
        if (errs[c].value == e)
            return (enum trace_err)c;
    return TE_OTHER;
}

int trace_err_to_errno(unsigned code)
{
    if (code == TE_NOTSUP)
        return ENOTSUP;
    if (code > 0 && code < TE_OTHER && errs[code].value)
        return errs[code].value;
    return EIO;
}

enum trace_err trace_err_from_name(const char *name)
{
    if (!strcmp(name, "ENOTSUP"))
        return TE_OPNOTSUPP;
    if (!strcmp(name, "EWOULDBLOCK"))
        return TE_AGAIN;
    for (unsigned c = 1; c < TE_OTHER; c++)
        if (!strcmp(errs[c].name, name))
            return (enum trace_err)c;
    return TE_OTHER;
}

const char *trace_err_name(unsigned code)
{
    return code > 0 && code < TE_COUNT ? errs[code].name : "E?";
}

/* ---- paths ---- */

bool trace_path_valid(const char *p, size_t n)
{
    if (n == 0 || n >= TRACE_PATH_MAX || memchr(p, '\0', n))
        return false;
    if (n == 1 && p[0] == '.')
        return true;
    if (p[0] == '/' || p[n - 1] == '/')
        return false;
    /* every component: not empty, not ".", not ".." */
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && p[j] != '/')
            j++;
        size_t len = j - i;
        if (len == 0 || (len == 1 && p[i] == '.') || (len == 2 && p[i] == '.' && p[i + 1] == '.'))
            return false;
        i = j + 1;
    }
    return true;
}

char *trace_count_str(uint64_t n, char *buf, size_t len)
{
    char d[32];
    int k = snprintf(d, sizeof d, "%llu", (unsigned long long)n), o = 0;
    for (int i = 0; i < k && (size_t)o + 2 < len; i++) {
        if (i && (k - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = d[i];
    }
    if (len)
        buf[(size_t)o < len ? o : (int)len - 1] = '\0';
    return buf;
}

void trace_info_free(struct trace_info *info)
{
    free(info->command);
    free(info->root);
    free(info->tracer);
    info->command = info->root = info->tracer = NULL;
    free(info->procs);
    free(info->thread_proc);
    free(info->thread_scale_ppm);
    info->procs = NULL;
    info->thread_proc = info->thread_scale_ppm = NULL;
    info->nprocs = info->nthread_think = 0;
}

uint64_t trace_think_ns(const struct trace_info *in, uint64_t gap, uint64_t away_ns,
                        uint64_t away_stops)
{
    double own = (double)(gap - (away_ns < gap ? away_ns : gap));
    double tracer = (double)in->tracer_gap_ns * ((double)away_stops + 1);
    double think = own > tracer ? (own - tracer) * ((double)in->think_scale_ppm / 1e6) : 0;
    return think < 1.8e19 ? (uint64_t)think : UINT64_MAX;
}

uint64_t trace_thread_think_ns(const struct trace_info *in, uint32_t thread, uint64_t gap,
                               uint64_t away_ns, uint64_t away_stops)
{
    if (thread >= in->nthread_think)
        return trace_think_ns(in, gap, away_ns, away_stops);
    struct trace_info one = {.tracer_gap_ns = in->tracer_gap_ns,
                             .think_scale_ppm = in->thread_scale_ppm[thread]};
    return trace_think_ns(&one, gap, away_ns, away_stops);
}

uint64_t trace_exit_think_ns(const struct trace_info *in, uint32_t thread)
{
    if (thread >= in->nthread_think || in->thread_proc[thread] >= in->nprocs)
        return 0;
    const struct trace_proc *p = &in->procs[in->thread_proc[thread]];
    return p->leader == thread ? p->tail_ns : 0;
}

uint64_t trace_tail_think_ns(const struct trace_info *in, uint32_t thread, uint64_t prev,
                             uint64_t at, bool end, uint64_t *spent)
{
    uint64_t tail = trace_exit_think_ns(in, thread);
    if (!tail || *spent >= tail)
        return 0;
    uint64_t span = in->procs[in->thread_proc[thread]].span_ns, give;
    if (end || !span)
        give = end ? tail - *spent : 0;
    else
        give = (uint64_t)((double)tail * (double)(at > prev ? at - prev : 0) / (double)span);
    if (give > tail - *spent)
        give = tail - *spent;
    *spent += give;
    return give;
}
