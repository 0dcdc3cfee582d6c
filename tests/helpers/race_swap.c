/* race_swap.c — the race harness's attacker (tests/e2e/t0810): runs a command and, while it
 * runs, keeps swapping directories of the given trees for symlinks to a decoy, the way a
 * hostile local user would, and watches the decoy for any access.
 *
 *   race_swap [-d DELAY_MS] [-H HOLD_US] [-g GAP_US] [-l LOG] [-r REPORT] HOLD DECOY
 *             ROOT... -- COMMAND [ARGS...]
 *
 * One swap: pick a root that exists, a directory D below it (depth 1, or depth 2 half of
 * the time: REL is "D" or "D/S"), make a symlink HOLD/sym -> DECOY/REL (HOLD: a directory
 * outside the trees on their file system) and exchange the two atomically (renameat2
 * RENAME_EXCHANGE): ROOT/REL is now the symlink and the real directory waits outside the
 * tree as HOLD/sym (renamed away, as the attack does; whoever works inside it through an
 * fd goes on there), and the tree never misses a name nor shows a new one. Hold it HOLD_US
 * at most, exchange back and remove the symlink. If the command removed the symlink
 * meanwhile (delete unlinks it), the directory is put back under its name; if it removed
 * the directory that held it, the directory stays in HOLD as orphan.N. Swaps start DELAY_MS after the command and
 * stop when it ends. Every directory of DECOY is watched with inotify from before the
 * command starts: any event (open, read, write, create, delete, attribute change) counts.
 *
 * LOG gets one line per swap: the CLOCK_REALTIME seconds when the symlink went in and when
 * it came out. REPORT gets "swaps N events M watches W start T" (T: when the command was
 * started, CLOCK_REALTIME), and the exit status is the command's
 * (128 + signal if it was killed; 125 when race_swap itself fails).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int ino_fd = -1;
static long watches;

static void die(const char *what)
{
    fprintf(stderr, "race_swap: %s: %s\n", what, strerror(errno));
    exit(125);
}

static double now_real(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void sleep_us(long us)
{
    if (us <= 0)
        return;
    struct timespec t = {us / 1000000, (us % 1000000) * 1000};
    while (nanosleep(&t, &t) < 0 && errno == EINTR)
        ;
}

static int watch_dir(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)ftw;
    if (flag == FTW_D) {
        if (inotify_add_watch(ino_fd, path, IN_ALL_EVENTS | IN_DONT_FOLLOW) < 0)
            die(path);
        watches++;
    }
    return 0;
}

/* Reads every queued event: how many there were. */
static long drain_events(void)
{
    char buf[64 * 1024] __attribute__((aligned(__alignof__(struct inotify_event))));
    long n = 0;
    for (;;) {
        ssize_t r = read(ino_fd, buf, sizeof buf);
        if (r <= 0)
            return n;
        for (char *p = buf; p < buf + r;) {
            struct inotify_event *ev = (struct inotify_event *)p;
            if (!(ev->mask & IN_IGNORED))
                n++;
            p += sizeof *ev + ev->len;
        }
    }
}

/* A random subdirectory name of directory fd (not one of ours), into name: 0, or -1. */
static int pick_subdir(int fd, char *name, size_t len)
{
    int dfd = dup(fd);
    if (dfd < 0)
        return -1;
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return -1;
    }
    long seen = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.' || de->d_type != DT_DIR)
            continue;
        if (rand() % ++seen == 0) /* reservoir sampling: each one equally likely */
            snprintf(name, len, "%s", de->d_name);
    }
    closedir(d);
    return seen ? 0 : -1;
}

/* Moves HOLD/sym, a directory that has no place to go back to (the command removed its
 * parent meanwhile), aside: HOLD/orphan.N. */
static void orphan(int hold)
{
    static long n;
    char name[32];
    snprintf(name, sizeof name, "orphan.%ld", ++n);
    renameat(hold, "sym", hold, name);
}

/* One swap below root (see the file comment); logs it. 1 if it happened, else 0. */
static int swap_once(int hold, const char *root, const char *decoy, long hold_us, FILE *log)
{
    int rfd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (rfd < 0)
        return 0;
    char d[NAME_MAX + 1], s[NAME_MAX + 1], rel[2 * NAME_MAX + 2];
    int pfd = rfd, done = 0;
    const char *name = d;
    if (pick_subdir(rfd, d, sizeof d) < 0)
        goto out;
    snprintf(rel, sizeof rel, "%s", d);
    if (rand() % 2) {
        int dfd = openat(rfd, d, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dfd >= 0 && pick_subdir(dfd, s, sizeof s) == 0) {
            pfd = dfd;
            name = s;
            snprintf(rel, sizeof rel, "%s/%s", d, s);
        } else if (dfd >= 0) {
            close(dfd);
        }
    }
    char target[PATH_MAX + sizeof rel + 2];
    snprintf(target, sizeof target, "%s/%s", decoy, rel);
    if (unlinkat(hold, "sym", 0) < 0 && errno != ENOENT)
        orphan(hold); /* a directory that could not be put back */
    if (symlinkat(target, hold, "sym") < 0)
        goto out;
    if (renameat2(pfd, name, hold, "sym", RENAME_EXCHANGE) < 0) {
        unlinkat(hold, "sym", 0);
        goto out;
    }
    double on = now_real();
    sleep_us(hold_us > 0 ? rand() % hold_us : 0);
    if (renameat2(pfd, name, hold, "sym", RENAME_EXCHANGE) < 0 &&
        renameat2(hold, "sym", pfd, name, RENAME_NOREPLACE) < 0) {
        /* neither: the command removed the directory it was in: keep it aside */
        orphan(hold);
    }
    unlinkat(hold, "sym", 0); /* the symlink, after an exchange back */
    if (log)
        fprintf(log, "%.6f %.6f\n", on, now_real());
    done = 1;
out:
    if (pfd != rfd)
        close(pfd);
    close(rfd);
    return done;
}

int main(int argc, char **argv)
{
    long delay_ms = 0, hold_us = 1000, gap_us = 300;
    const char *logpath = NULL, *report = NULL;
    int c;
    while ((c = getopt(argc, argv, "+d:H:g:l:r:")) != -1) {
        switch (c) {
        case 'd': delay_ms = atol(optarg); break;
        case 'H': hold_us = atol(optarg); break;
        case 'g': gap_us = atol(optarg); break;
        case 'l': logpath = optarg; break;
        case 'r': report = optarg; break;
        default: return 125;
        }
    }
    int sep = optind;
    while (sep < argc && strcmp(argv[sep], "--"))
        sep++;
    if (sep - optind < 3 || sep + 1 >= argc) {
        fprintf(stderr, "usage: race_swap [-d MS] [-H US] [-g US] [-l LOG] [-r REPORT] "
                        "HOLD DECOY ROOT... -- COMMAND...\n");
        return 125;
    }
    int hold = open(argv[optind], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (hold < 0)
        die(argv[optind]);
    char decoy[PATH_MAX]; /* absolute: the symlinks live elsewhere */
    if (!realpath(argv[optind + 1], decoy))
        die(argv[optind + 1]);
    char **roots = argv + optind + 2;
    int nroots = sep - optind - 2;
    srand((unsigned)getpid() ^ (unsigned)time(NULL));

    ino_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (ino_fd < 0)
        die("inotify_init1");
    if (nftw(decoy, watch_dir, 16, FTW_PHYS) < 0)
        die(decoy);
    drain_events(); /* our own walk's */
    FILE *log = logpath ? fopen(logpath, "w") : NULL;
    if (logpath && !log)
        die(logpath);

    double start = now_real();
    pid_t pid = fork();
    if (pid < 0)
        die("fork");
    if (pid == 0) {
        execvp(argv[sep + 1], argv + sep + 1);
        fprintf(stderr, "race_swap: %s: %s\n", argv[sep + 1], strerror(errno));
        _exit(127);
    }
    long swaps = 0;
    int status = 0;
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR)
            die("waitpid");
        if ((now_real() - start) * 1000 < (double)delay_ms) {
            sleep_us(200);
            continue;
        }
        swaps += swap_once(hold, roots[rand() % nroots], decoy, hold_us, log);
        sleep_us(gap_us > 0 ? rand() % gap_us : 0);
    }
    long events = drain_events();
    if (log)
        fclose(log);
    if (report) {
        FILE *f = fopen(report, "w");
        if (!f)
            die(report);
        fprintf(f, "swaps %ld events %ld watches %ld start %.6f\n", swaps, events, watches,
                start);
        fclose(f);
    }
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
