/* trace_calib.c — a call's price from the table of costs per kind (trace_calib.h). */
#include "trace/trace_calib.h"

enum trace_calib_class trace_calib_class(const struct trace_call *c)
{
    switch (c->kind) {
    case TK_OPEN:
        if (c->result < 0)
            return CAL_STAT; /* a lookup that found nothing (or was refused) */
        return (c->flags & TRO_CREAT) ? CAL_CREATE : CAL_OPEN;
    case TK_CLOSE: return CAL_CLOSE;
    case TK_READ:
    case TK_PREAD:
    case TK_MMAP:
    case TK_COPY: return CAL_READ;
    case TK_WRITE:
    case TK_PWRITE: return CAL_WRITE;
    case TK_GETDENTS: return CAL_GETDENTS;
    case TK_FSYNC:
    case TK_FDATASYNC:
    case TK_SYNC_RANGE:
    case TK_SYNCFS:
    case TK_SYNC: return CAL_FSYNC;
    case TK_STAT:
    case TK_ACCESS:
    case TK_STATFS:
    case TK_READLINK: return CAL_STAT;
    case TK_FSTAT:
    case TK_FSTATFS:
    case TK_LSEEK:
    case TK_DUP:
    case TK_SETFL: return CAL_FSTAT;
    case TK_MKDIR: return CAL_MKDIR;
    case TK_RMDIR: return CAL_RMDIR;
    case TK_UNLINK: return CAL_UNLINK;
    case TK_RENAME:
    case TK_LINK:
    case TK_SYMLINK: return CAL_RENAME;
    default: return CAL_SETATTR;
    }
}

const char *trace_calib_name(enum trace_calib_class cls)
{
    static const char *const names[CAL_CLASSES] = {
        "open", "create", "close", "stat", "fstat", "read", "write",
        "getdents", "mkdir", "rmdir", "unlink", "rename", "fsync", "setattr"};
    return (unsigned)cls < CAL_CLASSES ? names[cls] : "?";
}

uint64_t trace_calib_cost(const struct trace_calib *k, enum trace_calib_class cls, uint64_t count,
                          uint64_t bytes)
{
    if ((unsigned)cls >= CAL_CLASSES)
        return 0;
    double ns = (double)k->call_ns[cls] * (double)count;
    if (cls == CAL_READ)
        ns += (double)k->read_ns_per_mib * (double)bytes / (1024.0 * 1024.0);
    else if (cls == CAL_WRITE)
        ns += (double)k->write_ns_per_mib * (double)bytes / (1024.0 * 1024.0);
    return (uint64_t)(ns + 0.5);
}

uint64_t trace_calib_call_ns(const struct trace_calib *k, const struct trace_call *c)
{
    if (c->kind == TK_NONE || c->kind >= TK_CALL_KINDS)
        return 0;
    enum trace_calib_class cls = trace_calib_class(c);
    /* the bytes the call moved (a map: the range a replay reads once) */
    uint64_t bytes = 0;
    if (c->kind == TK_MMAP || c->kind == TK_COPY)
        bytes = c->size;
    else if ((cls == CAL_READ || cls == CAL_WRITE) && c->result > 0)
        bytes = (uint64_t)c->result;
    return trace_calib_cost(k, cls, 1, bytes);
}
