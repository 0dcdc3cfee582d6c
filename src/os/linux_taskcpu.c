/* linux_taskcpu.c — tasks' CPU times at their exit on Linux (taskcpu.h): a generic netlink
 * socket registered with the kernel's taskstats for every processor receives one report
 * per ending task (TASKSTATS_TYPE_AGGR_PID); a thread of its own reads them while the
 * program runs, so that the socket does not overflow on a busy machine. The reports are
 * of every task of the machine: the caller keeps its program's (by parent process).
 */
#include "os/taskcpu.h"

#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

struct os_taskcpu {
    int fd;
    uint16_t family;
    char mask[32];
    pthread_t reader;
    atomic_bool stop;
    bool lost;
    struct os_task_cpu *t;
    size_t n, cap;
};

#define NLA_DATA(a) ((void *)((char *)(a) + NLA_HDRLEN))

/* One generic netlink request: cmd to family with one attribute. 0 or -1 with errno. */
static int send_cmd(int fd, uint16_t family, uint8_t cmd, uint16_t attr, const void *data,
                    size_t dlen)
{
    struct {
        struct nlmsghdr n;
        struct genlmsghdr g;
        char buf[256];
    } m;
    if (dlen > sizeof m.buf - NLA_HDRLEN)
        return errno = EINVAL, -1;
    memset(&m, 0, sizeof m);
    m.n.nlmsg_type = family;
    m.n.nlmsg_flags = NLM_F_REQUEST;
    m.n.nlmsg_seq = 1;
    m.n.nlmsg_pid = 0;
    m.g.cmd = cmd;
    m.g.version = 1;
    struct nlattr *a = (struct nlattr *)m.buf;
    a->nla_type = attr;
    a->nla_len = (uint16_t)(NLA_HDRLEN + dlen);
    memcpy(NLA_DATA(a), data, dlen);
    m.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN + NLA_ALIGN(a->nla_len));
    struct sockaddr_nl to = {.nl_family = AF_NETLINK};
    ssize_t s = sendto(fd, &m, m.n.nlmsg_len, 0, (struct sockaddr *)&to, sizeof to);
    return s == (ssize_t)m.n.nlmsg_len ? 0 : -1;
}

/* The generic netlink family id of "TASKSTATS", or 0 with why. */
static uint16_t family_id(int fd, char *why, size_t len)
{
    static const char name[] = TASKSTATS_GENL_NAME;
    if (send_cmd(fd, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME, name,
                 sizeof name) < 0) {
        snprintf(why, len, "asking for taskstats: %s", strerror(errno));
        return 0;
    }
    char buf[4096];
    ssize_t got = recv(fd, buf, sizeof buf, 0);
    if (got < 0) {
        snprintf(why, len, "asking for taskstats: %s", strerror(errno));
        return 0;
    }
    struct nlmsghdr *n = (struct nlmsghdr *)buf;
    if (!NLMSG_OK(n, (size_t)got) || n->nlmsg_type == NLMSG_ERROR) {
        snprintf(why, len, "the kernel has no taskstats");
        return 0;
    }
    char *p = (char *)NLMSG_DATA(n) + GENL_HDRLEN, *end = (char *)n + n->nlmsg_len;
    while (p + NLA_HDRLEN <= end) {
        struct nlattr *a = (struct nlattr *)p;
        if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
            break;
        if (a->nla_type == CTRL_ATTR_FAMILY_ID) {
            uint16_t id;
            memcpy(&id, NLA_DATA(a), sizeof id);
            return id;
        }
        p += NLA_ALIGN(a->nla_len);
    }
    snprintf(why, len, "the kernel did not say taskstats' family");
    return 0;
}

static void keep(struct os_taskcpu *l, const struct taskstats *s, size_t n)
{
    if (n < offsetof(struct taskstats, ac_tgid) + sizeof s->ac_tgid)
        return; /* too old a kernel to say the process */
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 1024;
        struct os_task_cpu *t = realloc(l->t, cap * sizeof *t);
        if (!t) {
            l->lost = true;
            return;
        }
        l->t = t;
        l->cap = cap;
    }
    struct os_task_cpu *t = &l->t[l->n++];
    t->pid = (int32_t)s->ac_pid;
    t->tgid = (int32_t)s->ac_tgid;
    t->ppid = (int32_t)s->ac_ppid;
    memcpy(t->comm, s->ac_comm, sizeof t->comm - 1);
    t->comm[sizeof t->comm - 1] = '\0';
    t->cpu_ns = (s->ac_utime + s->ac_stime) * 1000u;
}

/* The reports in one datagram. */
static void take(struct os_taskcpu *l, char *buf, size_t got)
{
    for (struct nlmsghdr *n = (struct nlmsghdr *)buf; NLMSG_OK(n, got); n = NLMSG_NEXT(n, got)) {
        if (n->nlmsg_type != l->family)
            continue;
        char *p = (char *)NLMSG_DATA(n) + GENL_HDRLEN, *end = (char *)n + n->nlmsg_len;
        while (p + NLA_HDRLEN <= end) {
            struct nlattr *a = (struct nlattr *)p;
            if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
                break;
            if (a->nla_type == TASKSTATS_TYPE_AGGR_PID) {
                char *q = (char *)NLA_DATA(a), *qe = p + a->nla_len;
                while (q + NLA_HDRLEN <= qe) {
                    struct nlattr *b = (struct nlattr *)q;
                    if (b->nla_len < NLA_HDRLEN || q + b->nla_len > qe)
                        break;
                    if (b->nla_type == TASKSTATS_TYPE_STATS) {
                        struct taskstats s;
                        size_t sl = b->nla_len - NLA_HDRLEN;
                        memset(&s, 0, sizeof s);
                        memcpy(&s, NLA_DATA(b), sl < sizeof s ? sl : sizeof s);
                        keep(l, &s, sl);
                    }
                    q += NLA_ALIGN(b->nla_len);
                }
            }
            p += NLA_ALIGN(a->nla_len);
        }
    }
}

static void *reader(void *arg)
{
    struct os_taskcpu *l = arg;
    static char buf[1 << 16];
    for (;;) {
        /* Once stopped, the queue is read without waiting: a task's report is queued
         * before its parent's wait returns, so all of the run's are in it already. Waiting
         * for a quiet spell instead lasted seconds on a busy machine, whose other tasks'
         * ends kept coming (every task of every CPU is reported). */
        bool stopping = atomic_load(&l->stop);
        ssize_t got = recv(l->fd, buf, sizeof buf, stopping ? MSG_DONTWAIT : 0);
        if (got > 0) {
            take(l, buf, (size_t)got);
            continue;
        }
        if (got < 0 && errno == ENOBUFS) {
            l->lost = true;
            continue;
        }
        if (got < 0 && errno == EINTR)
            continue;
        /* the timeout, or once stopped the queue empty: what was queued has been read */
        if (stopping)
            break;
    }
    return NULL;
}

int32_t os_taskcpu_self(void)
{
    /* NSpid lists the ids from the first namespace down: one means the first */
    FILE *f = fopen("/proc/self/status", "re");
    if (!f)
        return -1;
    char line[256];
    int32_t pid = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "NSpid:", 6))
            continue;
        int a, b, k = sscanf(line + 6, "%d %d", &a, &b);
        pid = k == 1 ? a : -1;
        break;
    }
    fclose(f);
    return pid;
}

struct os_taskcpu *os_taskcpu_start(char *why, size_t len)
{
    if (os_taskcpu_self() < 0) {
        snprintf(why, len, "fsbench runs in a PID namespace of its own");
        return NULL;
    }
    struct os_taskcpu *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(why, len, "out of memory");
        return NULL;
    }
    l->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
    if (l->fd < 0) {
        snprintf(why, len, "a netlink socket: %s", strerror(errno));
        free(l);
        return NULL;
    }
    struct sockaddr_nl me = {.nl_family = AF_NETLINK};
    int big = 16 << 20;
    struct timeval tv = {0, 50000};
    if (bind(l->fd, (struct sockaddr *)&me, sizeof me) < 0 ||
        (setsockopt(l->fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof big) < 0 &&
         setsockopt(l->fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big) < 0) ||
        setsockopt(l->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) < 0) {
        snprintf(why, len, "a netlink socket: %s", strerror(errno));
        goto fail;
    }
    if (!(l->family = family_id(l->fd, why, len)))
        goto fail;
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    snprintf(l->mask, sizeof l->mask, "0-%ld", ncpu > 0 ? ncpu - 1 : 0);
    if (send_cmd(l->fd, l->family, TASKSTATS_CMD_GET, TASKSTATS_CMD_ATTR_REGISTER_CPUMASK,
                 l->mask, strlen(l->mask) + 1) < 0) {
        snprintf(why, len, "listening to taskstats: %s", strerror(errno));
        goto fail;
    }
    if (pthread_create(&l->reader, NULL, reader, l) != 0) {
        snprintf(why, len, "a thread to read taskstats");
        goto fail;
    }
    return l;
fail:
    close(l->fd);
    free(l);
    return NULL;
}

struct os_task_cpu *os_taskcpu_stop(struct os_taskcpu *l, size_t *n, char *why, size_t len)
{
    *n = 0;
    atomic_store(&l->stop, true);
    pthread_join(l->reader, NULL);
    send_cmd(l->fd, l->family, TASKSTATS_CMD_GET, TASKSTATS_CMD_ATTR_DEREGISTER_CPUMASK,
             l->mask, strlen(l->mask) + 1);
    close(l->fd);
    struct os_task_cpu *t = l->t;
    if (l->lost || !l->n) {
        snprintf(why, len, l->lost ? "the kernel's reports overflowed the socket"
                                   : "taskstats sent nothing: listening needs root");
        free(t);
        t = NULL;
    } else {
        *n = l->n;
    }
    free(l);
    return t;
}
