/* preflight.c — every configuration of a set checked before its first run (see
 * preflight.h).
 */
#include "run/preflight.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/sig.h"
#include "base/units.h"
#include "os/kmsg.h"
#include "phase/phase.h"
#include "run/job_plan.h"
#include "target/fsopts.h"
#include "target/target.h"

#define PROBE_NAME ".fsbench-preflight"

static void fail(struct preflight *pf, size_t config, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Records a failure of configuration `config` (PREFLIGHT_ALL: of every one); a
 * configuration already failed keeps its first reason. */
static void fail(struct preflight *pf, size_t config, const char *fmt, ...)
{
    if (pf->nfail == sizeof pf->fail / sizeof pf->fail[0])
        return;
    if (config != PREFLIGHT_ALL) {
        if (config >= RUNNER_MAX_CONFIGS || pf->bad[config])
            return;
        pf->bad[config] = true;
    }
    struct preflight_fail *f = &pf->fail[pf->nfail++];
    f->config = config;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->why, sizeof f->why, fmt, ap);
    va_end(ap);
}

/* A file made, written and removed in the directory dirfd: 0, or -1 with the reason. Its
 * name is the process's own (several ranks of an MPI job may check one directory). */
static int probe_write(int dirfd, char *why, size_t len)
{
    char name[64];
    snprintf(name, sizeof name, "%s.%ld.%llx", PROBE_NAME, (long)getpid(),
             (unsigned long long)time(NULL));
    int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(why, len, "cannot make a file in it: %s", strerror(errno));
        return -1;
    }
    int rc = 0;
    if (write(fd, "fsbench", 7) != 7 || fsync(fd) < 0) {
        snprintf(why, len, "cannot write a file in it: %s", strerror(errno));
        rc = -1;
    }
    close(fd);
    if (unlinkat(dirfd, name, 0) < 0 && rc == 0) {
        snprintf(why, len, "cannot remove a file from it: %s", strerror(errno));
        rc = -1;
    }
    return rc;
}

/* A plain directory: --dir, or where the temporary one would be made. */
static void check_dir(const struct runner_opts *o, struct preflight *pf)
{
    if (o->dir) {
        /* one that is missing or no directory: the workspace says so (ws_open); nothing is
         * made in it (it must be empty, and it is the user's) */
        struct stat st;
        if (stat(o->dir, &st) < 0 || !S_ISDIR(st.st_mode))
            return;
        if (access(o->dir, W_OK | X_OK) < 0)
            fail(pf, PREFLIGHT_ALL, "--dir %s is not writable: %s", o->dir, strerror(errno));
        return;
    }
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/fsbench-preflight.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir) || rmdir(dir) < 0)
        fail(pf, PREFLIGHT_ALL, "cannot make the run's directory under %s: %s",
             tmp && *tmp ? tmp : "/tmp", strerror(errno));
}

/* What --dry-run reports: root, and the free space where the runs go. */
static void check_plan(const struct runner_opts *o, const char *tree_arg, struct preflight *pf)
{
    struct job_plan p;
    char why[PREFLIGHT_WHY] = "";
    err_capture_begin(why, sizeof why);
    int rc = job_plan_compute(o, tree_arg, &p);
    err_capture_end();
    if (rc < 0) {
        fail(pf, PREFLIGHT_ALL, "%s", why[0] ? why : "cannot tell what the runs need");
        return;
    }
    if (p.needs_root && geteuid() != 0)
        fail(pf, PREFLIGHT_ALL, "needs root (%s)", p.root_why);
    char need[32], size[32], free_now[32];
    if (p.cb_need && p.fs_size && p.cb_need > p.fs_size)
        fail(pf, PREFLIGHT_ALL,
             "compilebench's trees from the listings in %s need about %s, and the image "
             "holds %s: not enough space (see --dry-run)",
             o->params.cb_dataset, units_bytes(need, sizeof need, (double)p.cb_need),
             units_bytes(size, sizeof size, (double)p.fs_size));
    else if (p.free_bytes && p.need > p.free_bytes)
        fail(pf, PREFLIGHT_ALL, "needs about %s free in %s%s, and %s are (see --dry-run)",
             units_bytes(need, sizeof need, (double)p.need), p.where,
             p.copies > 1 ? " (the tree and its copy)" : "",
             units_bytes(free_now, sizeof free_now, (double)p.free_bytes));
}

/* The last line error() said while captured, without the program's prefix. */
static const char *said(const char *captured)
{
    return captured[0] ? captured : "failed (no message)";
}

/* Mounts configuration i on t, says the kernel's reason when it refuses, makes and removes
 * a file, unmounts. */
static void check_mount(struct target *t, const struct runner_config *c, size_t i,
                        struct preflight *pf)
{
    char why[PREFLIGHT_WHY] = "", kern[512];
    int log = os_kmsg_open();
    err_capture_begin(why, sizeof why);
    int rc = target_mount(t, c->mount_opts);
    err_capture_end();
    if (rc < 0) {
        const char *dev = strrchr(target_device(t), '/');
        dev = dev ? dev + 1 : target_device(t);
        char *hint = strstr(why, " (dmesg shows the kernel's reason)");
        if (os_kmsg_find(log, dev, c->fstype, kern, sizeof kern) == 0) {
            if (hint)
                *hint = '\0';
            fail(pf, i, "%s; the kernel said: %s", why, kern);
        } else {
            fail(pf, i, "%s", said(why));
        }
        os_kmsg_close(log);
        return;
    }
    os_kmsg_close(log);
    int fd = open(target_mount_point(t), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    char pw[512];
    if (fd < 0)
        fail(pf, i, "cannot open its mount point: %s", strerror(errno));
    else if (probe_write(fd, pw, sizeof pw) < 0)
        fail(pf, i, "mounted with '%s', %s", c->mount_opts ? c->mount_opts : "defaults", pw);
    if (fd >= 0)
        close(fd);
    why[0] = '\0';
    err_capture_begin(why, sizeof why);
    rc = target_umount(t);
    err_capture_end();
    if (rc < 0)
        fail(pf, i, "%s", said(why));
}

/* A managed target: tools and allow-lists, then each file system made and each
 * configuration mounted. */
static void check_target(const struct runner_opts *o, struct preflight *pf)
{
    size_t n = o->nconfigs;
    char why[PREFLIGHT_WHY];
    for (size_t i = 0; i < n; i++) {
        const struct runner_config *c = &o->configs[i];
        why[0] = '\0';
        err_capture_begin(why, sizeof why);
        int rc = target_check_fstype(c->fstype);
        err_capture_end();
        if (rc < 0)
            fail(pf, i, "%s", said(why));
        else if (fsopts_check_mkfs(c->fstype, o->tspec->mkfs_opts, why, sizeof why) < 0)
            fail(pf, i, "--mkfs-opts: %s", why);
        else if (fsopts_check_mount(c->fstype, c->mount_opts, why, sizeof why) < 0)
            fail(pf, i, "--mount-opts: %s", why);
    }
    size_t left = 0;
    for (size_t i = 0; i < n; i++)
        left += !pf->bad[i];
    if (!left)
        return;
    /* what killed runs left is released and said first: target_create's lines are
     * captured here */
    target_release_leftovers(o->tspec);
    why[0] = '\0';
    err_capture_begin(why, sizeof why);
    struct target *t = target_create(o->tspec);
    err_capture_end();
    if (!t) {
        fail(pf, PREFLIGHT_ALL, "%s", said(why));
        return;
    }
    /* each file system once, with its configurations one after the other; a signal ends
     * it, and what it made is released */
    for (size_t i = 0; i < n && !phase_interrupt; i++) {
        const char *fs = o->configs[i].fstype;
        bool first = true;
        for (size_t k = 0; k < i && first; k++)
            first = strcmp(o->configs[k].fstype, fs) != 0;
        if (!first || pf->bad[i])
            continue;
        why[0] = '\0';
        err_capture_begin(why, sizeof why);
        int rc = target_set_fs(t, fs) < 0 || target_mkfs(t) < 0 ? -1 : 0;
        err_capture_end();
        for (size_t k = i; k < n && !phase_interrupt; k++) {
            if (strcmp(o->configs[k].fstype, fs) || pf->bad[k])
                continue;
            if (rc < 0)
                fail(pf, k, "%s", said(why));
            else
                check_mount(t, &o->configs[k], k, pf);
        }
    }
    why[0] = '\0';
    err_capture_begin(why, sizeof why);
    int rc = target_destroy(t);
    err_capture_end();
    if (rc < 0)
        fail(pf, PREFLIGHT_ALL, "%s", said(why));
}

size_t preflight_run(const struct runner_opts *o, const char *tree_arg, struct preflight *pf)
{
    memset(pf, 0, sizeof *pf);
    size_t n = o->nconfigs ? o->nconfigs : 1;
    /* where the runs go first: a directory that cannot be written needs no space */
    if (!o->tspec && !o->ws_join && !o->hooks)
        check_dir(o, pf);
    if (!pf->nfail)
        check_plan(o, tree_arg, pf);
    if (!pf->nfail && o->tspec && o->nconfigs) /* else every configuration's failure */
        check_target(o, pf);
    if (phase_interrupt) {
        char name[32];
        fail(pf, PREFLIGHT_ALL, "interrupted by %s", sig_name(phase_interrupt, name, sizeof name));
    }
    for (size_t i = 0; i < pf->nfail; i++)
        if (pf->fail[i].config == PREFLIGHT_ALL)
            for (size_t k = 0; k < n && k < RUNNER_MAX_CONFIGS; k++)
                pf->bad[k] = true;
    pf->nbad = 0;
    for (size_t k = 0; k < n && k < RUNNER_MAX_CONFIGS; k++)
        pf->nbad += pf->bad[k];
    return pf->nbad;
}
