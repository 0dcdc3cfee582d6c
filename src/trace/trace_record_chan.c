/* trace_record_chan.c — how the program's processes ordered one another (trace format 3):
 * the bytes each read and write moved through a pipe, or through a socket of a pair the
 * program made, as chan records, and each wait that returned an ended child as a wait
 * record. The calls themselves are found by trace_record_calls.c.
 */
#include <string.h>

#include "trace/trace_record_internal.h"

/* The inode of an annotation "pipe:[N]" or "socket:[N]" (prefix given): 0 when it is not. */
static uint64_t inode_of(const char *path, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(path, prefix, n))
        return 0;
    uint64_t v = 0;
    const char *p = path + n;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > TRACE_SIZE_MAX / 10)
            return 0;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    return p[0] == ']' && !p[1] && v <= TRACE_SIZE_MAX ? v : 0;
}

/* The other end of socket ino, of a pair the program made: 0 when unknown. */
static uint64_t peer_of(const struct trace_recorder *r, uint64_t ino)
{
    unsigned n = r->npairs < REC_PAIRS ? r->npairs : REC_PAIRS;
    for (unsigned i = 0; i < n; i++) {
        const struct rec_pair *p = &r->pairs[(r->npairs - 1 - i) % REC_PAIRS];
        if (p->a == ino)
            return p->b;
        if (p->b == ino)
            return p->a;
    }
    return 0;
}

int rec_chan(struct trace_recorder *r, struct task *t, const struct strace_line *l,
             struct strace_span a, unsigned kind, int64_t res)
{
    long fd;
    bool deleted;
    char path[64];
    if (res <= 0 || strace_arg_fd(a, &fd, path, sizeof path, &deleted) < 0)
        return 0;
    struct trace_call c = {.kind = TK_CHAN, .flags = kind == TK_WRITE ? TRP_WRITE : 0};
    uint64_t ino = inode_of(path, "pipe:[");
    if (!ino && (ino = inode_of(path, "socket:["))) {
        c.flags |= TRP_SOCKET;
        if (kind == TK_WRITE)
            ino = peer_of(r, ino);
    }
    if (!ino)
        return 0;
    c.off = ino;
    c.size = (uint64_t)res < TRACE_IO_MAX ? (uint64_t)res : TRACE_IO_MAX;
    return rec_emit(r, t, l, &c) < 0 ? -1 : 1;
}

void rec_socketpair(struct trace_recorder *r, struct strace_span s)
{
    if (s.n < 2 || s.p[0] != '[' || s.p[s.n - 1] != ']')
        return;
    const char *comma = memchr(s.p, ',', s.n);
    if (!comma)
        return;
    struct strace_span e[2] = {{s.p + 1, (size_t)(comma - s.p - 1)},
                               {comma + 1, (size_t)(s.p + s.n - 1 - comma - 1)}};
    uint64_t ino[2];
    for (int i = 0; i < 2; i++) {
        long fd;
        bool deleted;
        char path[64];
        while (e[i].n && e[i].p[0] == ' ')
            e[i].p++, e[i].n--;
        if (strace_arg_fd(e[i], &fd, path, sizeof path, &deleted) < 0 ||
            !(ino[i] = inode_of(path, "socket:[")))
            return;
    }
    r->pairs[r->npairs++ % REC_PAIRS] = (struct rec_pair){ino[0], ino[1]};
}

int64_t rec_waitid_pid(struct strace_span s)
{
    int64_t pid = 0;
    for (size_t k = 0; k + 7 <= s.n; k++)
        if (!memcmp(s.p + k, "si_pid=", 7)) {
            for (k += 7; k < s.n && s.p[k] >= '0' && s.p[k] <= '9' && pid < (1L << 30); k++)
                pid = pid * 10 + (s.p[k] - '0');
            break;
        }
    return pid;
}

int rec_wait(struct trace_recorder *r, struct task *t, const struct strace_line *l, int64_t pid)
{
    if (pid <= 0)
        return 0;
    const struct task *c = rec_find(r, (long)pid);
    uint32_t thread = c ? c->thread : UINT32_MAX;
    unsigned n = r->ndead < REC_DEAD ? r->ndead : REC_DEAD;
    for (unsigned i = 0; !c && i < n; i++) {
        const struct rec_dead *d = &r->dead[(r->ndead - 1 - i) % REC_DEAD];
        if (d->tid == (long)pid) {
            thread = d->thread;
            break;
        }
    }
    if (thread == UINT32_MAX || thread == t->thread)
        return 0;
    return rec_implicit(r, t, l, TK_WAIT, 0, 0, thread);
}
