/* bare.c — the baseline fsbench is measured against: the same system calls on the same tree,
 * the leanest way, with no accounting at all.
 *
 *   bare extract DIR PROFILE SCALE SEED   create the tree (entries generated before the clock
 *                                          starts: only mkdirat/openat/write/close/symlinkat
 *                                          are timed)
 *   bare walk|statwalk|read|delete DIR    getdents64 (+ fstatat / read / unlinkat) recursively
 *
 * Prints "<verb> <seconds> <files> <dirs>" on stdout. Used by bench/overhead.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "profile.h"
#include "tree.h"

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

static void die(const char *what, const char *name)
{
    fprintf(stderr, "bare: %s %s: ", what, name);
    perror(NULL);
    exit(1);
}

static uint64_t files, dirs;

static int bare_extract(const char *dir, const char *profile, double scale, uint64_t seed)
{
    struct tree_spec spec = {.prof = profile_find(profile), .scale = scale, .seed = seed};
    if (!spec.prof)
        return fprintf(stderr, "bare: unknown profile %s\n", profile), 2;
    struct tree_gen *g = tree_open(&spec);
    size_t n = 0, cap = 1024, alen = 0, acap = 1 << 20;
    struct ent *v = malloc(cap * sizeof *v);
    char *arena = malloc(acap);
    struct tree_entry e;
    while (tree_next(g, &e) > 0) {
        if (n == cap)
            v = realloc(v, (cap *= 2) * sizeof *v);
        size_t need = (e.name ? strlen(e.name) : 0) + (e.target ? strlen(e.target) : 0) + 2;
        while (alen + need > acap)
            arena = realloc(arena, acap *= 2);
        v[n] = (struct ent){e.kind, e.mode, e.size, e.data, e.data_len, alen, 0};
        if (e.name) {
            strcpy(arena + alen, e.name);
            alen += strlen(e.name) + 1;
        }
        if (e.kind == TREE_SYMLINK) {
            v[n].target_off = alen;
            strcpy(arena + alen, e.target);
            alen += strlen(e.target) + 1;
        }
        n++;
    }
    int root = open(dir, O_RDONLY | O_DIRECTORY);
    if (mkdirat(root, "tree", 0755) < 0)
        die("mkdir", "tree");
    int *stack = malloc(256 * sizeof *stack), top = 0;
    stack[0] = openat(root, "tree", O_RDONLY | O_DIRECTORY);
    double t0 = now();
    for (size_t i = 0; i < n; i++) {
        const char *name = arena + v[i].name_off;
        int fd = stack[top];
        switch (v[i].kind) {
        case TREE_DIR:
            if (mkdirat(fd, name, v[i].mode) < 0)
                die("mkdir", name);
            stack[++top] = openat(fd, name, O_RDONLY | O_DIRECTORY);
            dirs++;
            break;
        case TREE_FILE: {
            int f = openat(fd, name, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC, v[i].mode);
            if (f < 0)
                die("create", name);
            uint64_t left = v[i].size;
            while (left) {
                size_t k = left < v[i].data_len ? (size_t)left : v[i].data_len;
                ssize_t w = write(f, v[i].data, k);
                if (w <= 0)
                    die("write", name);
                left -= (uint64_t)w;
            }
            close(f);
            files++;
            break;
        }
        case TREE_SYMLINK:
            if (symlinkat(arena + v[i].target_off, fd, name) < 0)
                die("symlink", name);
            break;
        case TREE_LEAVE:
            close(stack[top--]);
            break;
        }
    }
    double t1 = now();
    close(stack[0]);
    printf("extract %.6f %llu %llu\n", t1 - t0, (unsigned long long)files,
           (unsigned long long)dirs);
    tree_close(g);
    return 0;
}

enum mode { M_WALK, M_STAT, M_READ, M_DELETE };
static char iobuf[128 * 1024];

static void walk(int dfd, enum mode m)
{
    char buf[32 * 1024];
    for (;;) {
        long nread = syscall(SYS_getdents64, dfd, buf, sizeof buf);
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
            if (m == M_STAT) {
                struct stat st;
                if (fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW) < 0)
                    die("stat", n);
                t = (unsigned char)IFTODT(st.st_mode);
            }
            if (t == DT_DIR) {
                int c = openat(dfd, n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
                if (c < 0)
                    die("open", n);
                walk(c, m);
                close(c);
                if (m == M_DELETE && unlinkat(dfd, n, AT_REMOVEDIR) < 0)
                    die("rmdir", n);
                dirs++;
            } else {
                if (m == M_READ && t == DT_REG) {
                    int f = openat(dfd, n, O_RDONLY);
                    if (f < 0)
                        die("open", n);
                    while (read(f, iobuf, sizeof iobuf) > 0)
                        ;
                    close(f);
                }
                if (m == M_DELETE && unlinkat(dfd, n, 0) < 0)
                    die("unlink", n);
                files++;
            }
        }
    }
}

int main(int argc, char **argv)
{
    if (argc == 6 && !strcmp(argv[1], "extract"))
        return bare_extract(argv[2], argv[3], atof(argv[4]), strtoull(argv[5], NULL, 10));
    if (argc != 3)
        return fprintf(stderr, "usage: bare extract DIR PROFILE SCALE SEED | "
                               "bare walk|statwalk|read|delete DIR\n"), 2;
    enum mode m;
    if (!strcmp(argv[1], "walk"))
        m = M_WALK;
    else if (!strcmp(argv[1], "statwalk"))
        m = M_STAT;
    else if (!strcmp(argv[1], "read"))
        m = M_READ;
    else if (!strcmp(argv[1], "delete"))
        m = M_DELETE;
    else
        return fprintf(stderr, "bare: unknown verb %s\n", argv[1]), 2;
    int root = open(argv[2], O_RDONLY | O_DIRECTORY);
    if (root < 0)
        die("open", argv[2]);
    double t0 = now();
    int t = openat(root, "tree", O_RDONLY | O_DIRECTORY);
    if (t < 0)
        die("open", "tree");
    walk(t, m);
    close(t);
    if (m == M_DELETE && unlinkat(root, "tree", AT_REMOVEDIR) < 0)
        die("rmdir", "tree");
    double t1 = now();
    printf("%s %.6f %llu %llu\n", argv[1], t1 - t0, (unsigned long long)files,
           (unsigned long long)dirs);
    return 0;
}
