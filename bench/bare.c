/* bare.c — the baseline fsbench is measured against: the same system calls on the same tree,
 * the leanest way, with no accounting beyond one counter per thread.
 *
 *   bare [-j N] [--extract-calls tar|create] extract DIR PROFILE SCALE SEED
 *                                          create DIR/tree (entries generated before the
 *                                          clock starts: only the system calls are timed):
 *                                          mkdirat/openat/write/close/symlinkat, and with tar's
 *                                          calls (the default, as fsbench's) futimens, fchown,
 *                                          fchmod of each file, utimensat+fchownat of each
 *                                          symlink, and of each directory as the tree leaves
 *                                          it (as root; times only otherwise): phase/tarcalls.h
 *   bare [-j N] walk|statwalk|read DIR     getdents64 (+ fstatat / openat+read through one
 *                                          small buffer) of DIR/tree
 *   bare [-j N] copy DIR                   DIR/tree -> DIR/copy as fsbench copies it: fstatat,
 *                                          mkdirat, openat, copy_file_range, fchmod, futimens,
 *                                          readlinkat+symlinkat, utimensat
 *   bare [-j N] delete DIR                 unlinkat everything under DIR/tree and DIR/copy
 *
 * -j N (default 1) runs N threads: extract, copy and delete are partitioned by top-level
 * entry (threads take the next one from a shared counter; copy and delete go down while a
 * level holds a single directory, as a tarball's tree does); walk, statwalk and read share one
 * queue of directories (a thread that finds the queue long enough keeps the subdirectory to
 * itself, which bounds the open descriptors).
 *
 * Prints "<verb> <seconds> <files> <dirs> <user_s> <ops>" on stdout: wall time of the timed
 * part, entries handled, user CPU of the timed part (getrusage, all threads), and system
 * calls made. Used by bench/overhead and bench/run.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "tree/profile.h"
#include "tree/tree.h"

struct ent {
    int kind;
    uint32_t mode;
    uint64_t size;
    const void *data;
    size_t data_len;
    size_t name_off, target_off;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double user_time(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
}

static void die(const char *what, const char *name)
{
    fprintf(stderr, "bare: %s %s: %s\n", what, name, strerror(errno));
    exit(1);
}

/* Per-thread counts, added to the totals when the thread ends. */
static _Thread_local uint64_t t_files, t_dirs, t_ops;
static _Atomic uint64_t tot_files, tot_dirs, tot_ops;
static int nthreads = 1;

static void flush_counts(void)
{
    tot_files += t_files;
    tot_dirs += t_dirs;
    tot_ops += t_ops;
    t_files = t_dirs = t_ops = 0;
}

/* Runs fn in nthreads threads (the caller being one of them) and waits for them. */
static void run_threads(void *(*fn)(void *))
{
    pthread_t tid[64];
    int n = nthreads < 64 ? nthreads : 64;
    for (int i = 1; i < n; i++)
        if (pthread_create(&tid[i], NULL, fn, NULL))
            die("pthread_create", "");
    fn(NULL);
    for (int i = 1; i < n; i++)
        pthread_join(tid[i], NULL);
}

static void report(const char *verb, double t0, double t1, double u0, double u1)
{
    printf("%s %.6f %llu %llu %.6f %llu\n", verb, t1 - t0, (unsigned long long)tot_files,
           (unsigned long long)tot_dirs, u1 - u0, (unsigned long long)tot_ops);
}

/* ---- extract ---- */

static struct ent *ents;
static char *arena;
static int ext_root;
/* Work units: [unit[i], unit[i + 1]) are entries of one top-level directory, or the files
 * and symlinks of the root itself. */
static size_t *unit, nunits;
static _Atomic size_t next_unit;

static int tar_calls = 1; /* --extract-calls tar (default) or create */
static int as_root;       /* tar's calls as root: owner and mode too */
static const struct timespec synth_times[2] = {{0, UTIME_OMIT}, {999475200, 0}};

/* tar's calls after an entry (fsbench's phase/tarcalls.c, the plain way): times, owner, and
 * the mode when the one made (made) is not the one wanted. */
static void tar_fix(int fd, mode_t want, mode_t made, const char *name)
{
    if (futimens(fd, synth_times) < 0)
        die("futimens", name);
    t_ops++;
    if (!as_root)
        return;
    if (fchown(fd, geteuid(), getegid()) < 0)
        die("fchown", name);
    t_ops++;
    if (want != made) {
        if (fchmod(fd, want) < 0)
            die("fchmod", name);
        t_ops++;
    }
}

static void extract_range(size_t a, size_t b)
{
    int stack[TREE_MAX_DEPTH + 2], top = 0;
    mode_t modes[TREE_MAX_DEPTH + 2];
    stack[0] = ext_root;
    modes[0] = 0;
    for (size_t i = a; i < b; i++) {
        const char *name = arena + ents[i].name_off;
        int fd = stack[top];
        switch (ents[i].kind) {
        case TREE_DIR:
            if (mkdirat(fd, name, !tar_calls ? ents[i].mode : as_root ? 0700 : ents[i].mode | 0700) < 0)
                die("mkdir", name);
            stack[++top] = openat(fd, name, O_RDONLY | O_DIRECTORY);
            if (stack[top] < 0)
                die("open", name);
            modes[top] = ents[i].mode;
            t_dirs++;
            t_ops += 2;
            break;
        case TREE_FILE: {
            mode_t m = tar_calls && as_root ? ents[i].mode & 0700 : ents[i].mode;
            int f = openat(fd, name, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC, m);
            if (f < 0)
                die("create", name);
            uint64_t left = ents[i].size;
            while (left) {
                size_t k = left < ents[i].data_len ? (size_t)left : ents[i].data_len;
                ssize_t w = write(f, ents[i].data, k);
                if (w <= 0)
                    die("write", name);
                left -= (uint64_t)w;
                t_ops++;
            }
            if (tar_calls)
                tar_fix(f, ents[i].mode, m, name);
            close(f);
            t_files++;
            t_ops += 2;
            break;
        }
        case TREE_SYMLINK:
            if (symlinkat(arena + ents[i].target_off, fd, name) < 0)
                die("symlink", name);
            t_ops++;
            if (tar_calls) {
                if (utimensat(fd, name, synth_times, AT_SYMLINK_NOFOLLOW) < 0)
                    die("utimensat", name);
                t_ops++;
                if (as_root && fchownat(fd, name, geteuid(), getegid(), AT_SYMLINK_NOFOLLOW) < 0)
                    die("fchownat", name);
                t_ops += as_root;
            }
            break;
        case TREE_LEAVE:
            if (tar_calls)
                tar_fix(stack[top], modes[top], as_root ? 0700 : modes[top] | 0700, "dir");
            close(stack[top--]);
            t_ops++;
            break;
        }
    }
}

static void *extract_worker(void *arg)
{
    size_t u;
    while ((u = next_unit++) < nunits)
        extract_range(unit[u], unit[u + 1]);
    flush_counts();
    return arg;
}

static int bare_extract(const char *dir, const char *profile, double scale, uint64_t seed)
{
    struct tree_spec spec = {.prof = profile_find(profile), .scale = scale, .seed = seed};
    if (!spec.prof)
        return fprintf(stderr, "bare: unknown profile %s\n", profile), 2;
    struct tree_gen *g = tree_open(&spec);
    if (!g)
        return 1;
    size_t n = 0, cap = 1024, alen = 0, acap = 1 << 20, ucap = 64;
    ents = malloc(cap * sizeof *ents);
    arena = malloc(acap);
    unit = malloc(ucap * sizeof *unit);
    nunits = 0;
    unit[0] = 0;
    struct tree_entry e;
    int root_files_open = 0; /* a unit of root-level files and symlinks is open */
    while (tree_next(g, &e) > 0) {
        if (n == cap)
            ents = realloc(ents, (cap *= 2) * sizeof *ents);
        if (nunits + 2 >= ucap)
            unit = realloc(unit, (ucap *= 2) * sizeof *unit);
        /* A unit starts at each top-level directory and at each run of root-level files. */
        if (e.depth == 1 && e.kind == TREE_DIR) {
            if (root_files_open)
                unit[++nunits] = n, root_files_open = 0;
            if (n > unit[nunits])
                unit[++nunits] = n;
        } else if (e.depth == 1 && e.kind != TREE_LEAVE && !root_files_open) {
            if (n > unit[nunits])
                unit[++nunits] = n;
            root_files_open = 1;
        }
        size_t need = (e.name ? strlen(e.name) : 0) + (e.target ? strlen(e.target) : 0) + 2;
        while (alen + need > acap)
            arena = realloc(arena, acap *= 2);
        ents[n] = (struct ent){e.kind, e.mode, e.size, e.data, e.data_len, alen, 0};
        if (e.name) {
            strcpy(arena + alen, e.name);
            alen += strlen(e.name) + 1;
        }
        if (e.kind == TREE_SYMLINK) {
            ents[n].target_off = alen;
            strcpy(arena + alen, e.target);
            alen += strlen(e.target) + 1;
        }
        n++;
    }
    if (n > unit[nunits])
        unit[++nunits] = n;
    int root = open(dir, O_RDONLY | O_DIRECTORY);
    if (root < 0)
        die("open", dir);
    if (mkdirat(root, "tree", 0755) < 0)
        die("mkdir", "tree");
    ext_root = openat(root, "tree", O_RDONLY | O_DIRECTORY);
    double u0 = user_time(), t0 = now();
    if (nthreads == 1)
        extract_range(0, n), flush_counts();
    else
        run_threads(extract_worker);
    double t1 = now(), u1 = user_time();
    close(ext_root);
    report("extract", t0, t1, u0, u1);
    tree_close(g);
    return 0;
}

/* ---- walk, statwalk, read ---- */

enum mode { M_WALK, M_STAT, M_READ };
static enum mode mode;

/* The shared queue of open directory fds (threads > 1). */
#define QMAX 256
static int queue[QMAX];
static int qlen, busy;
static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t qcond = PTHREAD_COND_INITIALIZER;

/* Offers directory fd c to the queue; 0 when the queue is full (the caller keeps it). */
static int offer(int c)
{
    if (nthreads == 1 || __atomic_load_n(&qlen, __ATOMIC_RELAXED) >= QMAX / 2) /* a hint */
        return 0;
    pthread_mutex_lock(&qlock);
    int ok = qlen < QMAX;
    if (ok) {
        queue[qlen++] = c;
        pthread_cond_signal(&qcond);
    }
    pthread_mutex_unlock(&qlock);
    return ok;
}

static void walk(int dfd)
{
    char buf[32 * 1024];
    static _Thread_local char iobuf[64 * 1024];
    for (;;) {
        long nread = syscall(SYS_getdents64, dfd, buf, sizeof buf);
        t_ops++;
        if (nread < 0)
            die("getdents", "");
        if (nread == 0)
            break;
        for (long pos = 0; pos < nread;) {
            struct dirent64 *de = (struct dirent64 *)(buf + pos);
            pos += de->d_reclen;
            const char *n = de->d_name;
            if (n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2])))
                continue;
            unsigned char t = de->d_type;
            if (mode == M_STAT) {
                struct stat st;
                if (fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW) < 0)
                    die("stat", n);
                t_ops++;
                t = (unsigned char)IFTODT(st.st_mode);
            }
            if (t == DT_DIR) {
                int c = openat(dfd, n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
                if (c < 0)
                    die("open", n);
                t_ops++;
                t_dirs++;
                if (!offer(c)) {
                    walk(c);
                    close(c);
                    t_ops++;
                }
            } else {
                if (mode == M_READ && t == DT_REG) {
                    int f = openat(dfd, n, O_RDONLY);
                    if (f < 0)
                        die("open", n);
                    ssize_t r;
                    do
                        t_ops++;
                    while ((r = read(f, iobuf, sizeof iobuf)) > 0);
                    close(f);
                    t_ops += 2;
                }
                t_files++;
            }
        }
    }
}

static void *walk_worker(void *arg)
{
    pthread_mutex_lock(&qlock);
    for (;;) {
        while (qlen == 0 && busy > 0)
            pthread_cond_wait(&qcond, &qlock);
        if (qlen == 0)
            break; /* nothing queued and nobody who could queue more */
        int fd = queue[--qlen];
        busy++;
        pthread_mutex_unlock(&qlock);
        walk(fd);
        close(fd);
        t_ops++;
        pthread_mutex_lock(&qlock);
        if (--busy == 0 && qlen == 0)
            pthread_cond_broadcast(&qcond);
    }
    pthread_mutex_unlock(&qlock);
    flush_counts();
    return arg;
}

/* ---- copy ---- */

static void copy_entry(int src, int dst, const char *n);

static void copy_dir(int src, int dst)
{
    char buf[32 * 1024];
    for (;;) {
        long nread = syscall(SYS_getdents64, src, buf, sizeof buf);
        t_ops++;
        if (nread < 0)
            die("getdents", "");
        if (nread == 0)
            break;
        for (long pos = 0; pos < nread;) {
            struct dirent64 *de = (struct dirent64 *)(buf + pos);
            pos += de->d_reclen;
            const char *n = de->d_name;
            if (n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2])))
                continue;
            copy_entry(src, dst, n);
        }
    }
}

static void copy_entry(int src, int dst, const char *n)
{
    struct stat st;
    if (fstatat(src, n, &st, AT_SYMLINK_NOFOLLOW) < 0)
        die("stat", n);
    t_ops++;
    struct timespec times[2] = {st.st_atim, st.st_mtim};
    mode_t m = st.st_mode & 07777;
    if (S_ISDIR(st.st_mode)) {
        if (mkdirat(dst, n, m | 0700) < 0)
            die("mkdir", n);
        int s = openat(src, n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
        int d = openat(dst, n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
        if (s < 0 || d < 0)
            die("open", n);
        copy_dir(s, d);
        close(d);
        close(s);
        if (utimensat(dst, n, times, AT_SYMLINK_NOFOLLOW) < 0)
            die("utimensat", n);
        t_ops += 6;
        t_dirs++;
    } else if (S_ISREG(st.st_mode)) {
        int in = openat(src, n, O_RDONLY | O_NOFOLLOW);
        if (in < 0)
            die("open", n);
        int out = openat(dst, n, O_WRONLY | O_CREAT | O_EXCL, m);
        if (out < 0)
            die("create", n);
        ssize_t r;
        do
            t_ops++;
        while ((r = copy_file_range(in, NULL, out, NULL, 1u << 30, 0)) > 0);
        if (r < 0)
            die("copy_file_range", n);
        if (fchmod(out, m) < 0 || futimens(out, times) < 0)
            die("setattr", n);
        close(out);
        close(in);
        t_ops += 6;
        t_files++;
    } else if (S_ISLNK(st.st_mode)) {
        char target[PATH_MAX];
        ssize_t k = readlinkat(src, n, target, sizeof target - 1);
        if (k < 0)
            die("readlink", n);
        target[k] = 0;
        if (symlinkat(target, dst, n) < 0 || utimensat(dst, n, times, AT_SYMLINK_NOFOLLOW) < 0)
            die("symlink", n);
        t_ops += 3;
        t_files++;
    }
}

/* ---- delete ---- */

static void delete_entry(int dfd, const char *n, unsigned char t);

static void delete_dir(int dfd)
{
    char buf[32 * 1024];
    for (;;) {
        long nread = syscall(SYS_getdents64, dfd, buf, sizeof buf);
        t_ops++;
        if (nread < 0)
            die("getdents", "");
        if (nread == 0)
            break;
        for (long pos = 0; pos < nread;) {
            struct dirent64 *de = (struct dirent64 *)(buf + pos);
            pos += de->d_reclen;
            const char *n = de->d_name;
            if (n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2])))
                continue;
            delete_entry(dfd, n, de->d_type);
        }
    }
}

static void delete_entry(int dfd, const char *n, unsigned char t)
{
    if (t == DT_UNKNOWN) {
        struct stat st;
        if (fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW) < 0)
            die("stat", n);
        t_ops++;
        t = (unsigned char)IFTODT(st.st_mode);
    }
    if (t == DT_DIR) {
        int c = openat(dfd, n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
        if (c < 0)
            die("open", n);
        delete_dir(c);
        close(c);
        if (unlinkat(dfd, n, AT_REMOVEDIR) < 0)
            die("rmdir", n);
        t_ops += 3;
        t_dirs++;
    } else {
        if (unlinkat(dfd, n, 0) < 0)
            die("unlink", n);
        t_ops++;
        t_files++;
    }
}

/* Top-level entries of tree (and copy) for the partitioned copy and delete. */
struct top {
    int src, dst; /* parent fds (dst: copy only) */
    unsigned char type;
    char *name;
};
static struct top *tops;
static size_t ntops;
static _Atomic size_t next_top;
static int is_copy;

/* Directories above the partition level: a tree whose top level is one directory (a
 * tarball's "linux-6.1/") is split one level further down, and so on; these are finished
 * (times set, or removed) after the threads. */
static struct spine {
    int parent, fd, dfd; /* parent: the destination's (copy) or the source's (delete) */
    char name[NAME_MAX + 1];
    struct timespec times[2];
} spine[16];
static int nspine;

/* Lists the entries of src (to be copied into dst, or deleted) as work units. */
static void list_top(int src, int dst)
{
    char buf[32 * 1024];
    static size_t cap;
    for (;;) {
        size_t start = ntops;
        for (;;) {
            long nread = syscall(SYS_getdents64, src, buf, sizeof buf);
            t_ops++;
            if (nread < 0)
                die("getdents", "");
            if (nread == 0)
                break;
            for (long pos = 0; pos < nread;) {
                struct dirent64 *de = (struct dirent64 *)(buf + pos);
                pos += de->d_reclen;
                const char *n = de->d_name;
                if (n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2])))
                    continue;
                if (ntops == cap)
                    tops = realloc(tops, (cap = cap ? 2 * cap : 256) * sizeof *tops);
                tops[ntops++] = (struct top){src, dst, de->d_type, strdup(n)};
            }
        }
        if (ntops - start != 1 || tops[start].type != DT_DIR ||
            nspine == (int)(sizeof spine / sizeof *spine))
            return;
        /* One directory: go down into it. */
        struct spine *sp = &spine[nspine++];
        ntops = start;
        char name[NAME_MAX + 1];
        snprintf(name, sizeof name, "%s", tops[start].name);
        free(tops[start].name);
        snprintf(sp->name, sizeof sp->name, "%s", name);
        int c = openat(src, sp->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
        if (c < 0)
            die("open", sp->name);
        t_ops++;
        if (is_copy) {
            struct stat st;
            if (fstatat(src, sp->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                die("stat", sp->name);
            if (mkdirat(dst, sp->name, (st.st_mode & 07777) | 0700) < 0)
                die("mkdir", sp->name);
            int d = openat(dst, sp->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
            if (d < 0)
                die("open", sp->name);
            t_ops += 3;
            sp->parent = dst;
            sp->fd = c;
            sp->dfd = d;
            sp->times[0] = st.st_atim;
            sp->times[1] = st.st_mtim;
            dst = d;
        } else {
            sp->parent = src;
            sp->fd = c;
            sp->dfd = -1;
        }
        src = c;
    }
}

/* Finishes the spine, deepest first. */
static void finish_spine(void)
{
    while (nspine > 0) {
        struct spine *sp = &spine[--nspine];
        close(sp->fd);
        t_ops++;
        if (is_copy) {
            close(sp->dfd);
            if (utimensat(sp->parent, sp->name, sp->times, AT_SYMLINK_NOFOLLOW) < 0)
                die("utimensat", sp->name);
            t_ops += 2;
        } else {
            if (unlinkat(sp->parent, sp->name, AT_REMOVEDIR) < 0)
                die("rmdir", sp->name);
            t_ops++;
        }
        t_dirs++;
    }
}

static void *top_worker(void *arg)
{
    size_t i;
    while ((i = next_top++) < ntops) {
        if (is_copy)
            copy_entry(tops[i].src, tops[i].dst, tops[i].name);
        else
            delete_entry(tops[i].src, tops[i].name, tops[i].type);
    }
    flush_counts();
    return arg;
}

static int bare_copy(int root)
{
    double u0 = user_time(), t0 = now();
    struct stat st;
    if (fstatat(root, "tree", &st, AT_SYMLINK_NOFOLLOW) < 0)
        die("stat", "tree");
    if (mkdirat(root, "copy", (st.st_mode & 07777) | 0700) < 0)
        die("mkdir", "copy");
    int s = openat(root, "tree", O_RDONLY | O_DIRECTORY);
    int d = openat(root, "copy", O_RDONLY | O_DIRECTORY);
    if (s < 0 || d < 0)
        die("open", "tree");
    t_ops += 4;
    if (nthreads == 1) {
        copy_dir(s, d);
        flush_counts();
    } else {
        is_copy = 1;
        list_top(s, d);
        run_threads(top_worker);
        finish_spine();
        flush_counts();
    }
    close(d);
    close(s);
    struct timespec times[2] = {st.st_atim, st.st_mtim};
    if (utimensat(root, "copy", times, AT_SYMLINK_NOFOLLOW) < 0)
        die("utimensat", "copy");
    tot_ops += 3;
    double t1 = now(), u1 = user_time();
    report("copy", t0, t1, u0, u1);
    return 0;
}

static int bare_delete(int root)
{
    static const char *const names[] = {"tree", "copy"};
    int fds[2] = {-1, -1};
    double u0 = user_time(), t0 = now();
    for (int i = 0; i < 2; i++) {
        fds[i] = openat(root, names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
        t_ops++;
        if (fds[i] < 0 && errno != ENOENT)
            die("open", names[i]);
        if (fds[i] < 0)
            continue;
        if (nthreads == 1)
            delete_dir(fds[i]);
        else
            list_top(fds[i], -1);
    }
    if (nthreads > 1) {
        run_threads(top_worker);
        finish_spine();
    }
    for (int i = 0; i < 2; i++) {
        if (fds[i] < 0)
            continue;
        close(fds[i]);
        if (unlinkat(root, names[i], AT_REMOVEDIR) < 0)
            die("rmdir", names[i]);
        t_ops += 2;
    }
    flush_counts();
    double t1 = now(), u1 = user_time();
    report("delete", t0, t1, u0, u1);
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: bare [-j N] [--extract-calls tar|create] extract DIR PROFILE SCALE "
                    "SEED | bare [-j N] walk|statwalk|read|copy|delete DIR\n");
    return 2;
}

int main(int argc, char **argv)
{
    as_root = geteuid() == 0;
    if (argc > 2 && !strcmp(argv[1], "-j")) {
        nthreads = atoi(argv[2]);
        if (nthreads < 1 || nthreads > 64)
            return usage();
        argc -= 2;
        argv += 2;
    }
    if (argc > 2 && !strcmp(argv[1], "--extract-calls")) {
        if (strcmp(argv[2], "tar") && strcmp(argv[2], "create"))
            return usage();
        tar_calls = !strcmp(argv[2], "tar");
        argc -= 2;
        argv += 2;
    }
    if (argc == 6 && !strcmp(argv[1], "extract"))
        return bare_extract(argv[2], argv[3], atof(argv[4]), strtoull(argv[5], NULL, 10));
    if (argc != 3)
        return usage();
    int root = open(argv[2], O_RDONLY | O_DIRECTORY);
    if (root < 0)
        die("open", argv[2]);
    if (!strcmp(argv[1], "copy"))
        return bare_copy(root);
    if (!strcmp(argv[1], "delete"))
        return bare_delete(root);
    if (!strcmp(argv[1], "walk"))
        mode = M_WALK;
    else if (!strcmp(argv[1], "statwalk"))
        mode = M_STAT;
    else if (!strcmp(argv[1], "read"))
        mode = M_READ;
    else
        return fprintf(stderr, "bare: unknown verb %s\n", argv[1]), 2;
    double u0 = user_time(), t0 = now();
    int t = openat(root, "tree", O_RDONLY | O_DIRECTORY);
    if (t < 0)
        die("open", "tree");
    t_ops++;
    if (nthreads == 1) {
        walk(t);
        close(t);
        t_ops++;
        flush_counts();
    } else {
        queue[qlen++] = t;
        run_threads(walk_worker);
    }
    double t1 = now(), u1 = user_time();
    report(argv[1], t0, t1, u0, u1);
    return 0;
}
