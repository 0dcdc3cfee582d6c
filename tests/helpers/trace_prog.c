/* trace_prog.c — small programs for the record and replay tests (tests/e2e/t1300): the
 * shapes of program the recorder must follow, each doing its file-system work below the
 * current directory.
 *
 *   trace_prog threads N   two threads, each writing N files of its own into "t" (made by
 *                          the first), then each reading the other's; one shared
 *                          descriptor ("t/shared") both append to, under a mutex
 *   trace_prog fork N      a parent opens "f/log", forks N children one after another;
 *                          each child appends to the inherited descriptor, makes
 *                          "f/child.I" and exits; the parent waits for each, then appends
 *                          and closes
 *   trace_prog pipe N      two processes joined by a pipe: the parent writes "p/I" and
 *                          then I into the pipe, N times; the child reads each I from the
 *                          pipe, reads "p/I" and writes "q/I" (both alive at once, their
 *                          descriptor numbers the same)
 *   trace_prog think N     one thread: N times, 20 ms of its own CPU time in user mode
 *                          (a loop calibrated first) and then a stat of "."; at its end
 *                          it prints its thread's CPU time in user mode in ms, measured by
 *                          itself (getrusage): the known answer for a trace's think time
 *                          (about N x 20 ms; the loop's calibration is rough on a busy
 *                          machine, the program's own measure is not)
 *   trace_prog childthink N  a parent stats ".", forks a child that thinks as `think N`
 *                          does, waits for it (wait4) and stats "." again; it prints its
 *                          own CPU time (user and system, ms) and its child's
 *                          (getrusage): the parent's wait is not think time
 *   trace_prog twothink N  the same with two children thinking at once; it prints its own
 *                          CPU time and its two children's together
 *   trace_prog callthink N  one thread: N times, 20 ms of CPU time in user mode as `think`
 *                          does, then 200 fstat calls on "c/f" (made first) and 200
 *                          stats of "/" (outside the directory: traced, not recorded): a
 *                          program whose traced CPU time is mostly the tracer's stops at
 *                          its many cheap calls; prints its CPU time in user mode (ms)
 *   trace_prog sidethink N  a parent forks a child that spins N x 20 ms in user mode and
 *                          makes no call at all, thinks as `think N` does beside it, then
 *                          waits for it; prints its own CPU time and its child's (ms): a
 *                          replay must run the child's time beside the parent's, not after
 *   trace_prog sixthink N   a parent forks six children at once; each spins N x 20 ms in
 *                          user mode, looking a name of its own and "." up after each 20 ms
 *                          (make -j2's compilers), the parent waits for them; prints its own
 *                          CPU time and its children's (ms): a replay must run the six
 *                          side by side, not one after the other
 * think, callthink, childthink, twothink, sidethink and sixthink also append what they print to the file
 * $TRACE_PROG_LOG names, if set (a run whose standard output is /dev/null is known too).
 *   trace_prog mapread N   maps "m/r" (which must hold N KiB) read-only, reads every page
 *                          through the map (no read call at all) and prints their sum of
 *                          bytes
 *   trace_prog mapwrite N  makes "m/w" of N KiB (ftruncate), maps it shared and writable,
 *                          writes every page through the map, msync, munmap
 * Exit status 0, or 1 with a message on stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int n_files;
static int shared_fd = -1;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static _Noreturn void die(const char *what)
{
    fprintf(stderr, "trace_prog: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void put(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, text, strlen(text)) < 0 || close(fd) < 0)
        die(path);
}

static void *worker(void *arg)
{
    long id = (long)arg;
    char path[64], buf[64];
    for (int i = 0; i < n_files; i++) {
        snprintf(path, sizeof path, "t/w%ld.%d", id, i);
        snprintf(buf, sizeof buf, "thread %ld file %d\n", id, i);
        put(path, buf);
        pthread_mutex_lock(&mu);
        if (write(shared_fd, buf, strlen(buf)) < 0)
            die("t/shared");
        pthread_mutex_unlock(&mu);
    }
    return NULL;
}

static void read_all(long id)
{
    char path[64], buf[64];
    for (int i = 0; i < n_files; i++) {
        snprintf(path, sizeof path, "t/w%ld.%d", id, i);
        int fd = open(path, O_RDONLY);
        if (fd < 0 || read(fd, buf, sizeof buf) < 0 || close(fd) < 0)
            die(path);
    }
}

static void *reader(void *arg)
{
    read_all((long)arg);
    return NULL;
}

static int threads(void)
{
    if (mkdir("t", 0755) < 0 && errno != EEXIST)
        die("t");
    shared_fd = open("t/shared", O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (shared_fd < 0)
        die("t/shared");
    pthread_t a, b;
    if (pthread_create(&a, NULL, worker, (void *)1L) || pthread_create(&b, NULL, worker, (void *)2L))
        die("pthread_create");
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    if (pthread_create(&a, NULL, reader, (void *)2L) || pthread_create(&b, NULL, reader, (void *)1L))
        die("pthread_create");
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    close(shared_fd);
    return 0;
}

static int forks(void)
{
    if (mkdir("f", 0755) < 0 && errno != EEXIST)
        die("f");
    int fd = open("f/log", O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0)
        die("f/log");
    for (int i = 0; i < n_files; i++) {
        pid_t pid = fork();
        if (pid < 0)
            die("fork");
        if (pid == 0) {
            char path[64];
            snprintf(path, sizeof path, "f/child.%d", i);
            if (write(fd, "child\n", 6) < 0)
                _exit(1);
            put(path, "made by a child\n");
            _exit(0); /* the inherited descriptor is closed by the exit */
        }
        int st;
        if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
            die("child");
    }
    if (write(fd, "parent\n", 7) < 0 || close(fd) < 0)
        die("f/log");
    return 0;
}

static int piped(void)
{
    if ((mkdir("p", 0755) < 0 && errno != EEXIST) || (mkdir("q", 0755) < 0 && errno != EEXIST))
        die("mkdir");
    int fds[2];
    if (pipe(fds) < 0)
        die("pipe");
    pid_t pid = fork();
    if (pid < 0)
        die("fork");
    char path[64], buf[64];
    if (pid == 0) {
        close(fds[1]);
        int i;
        while (read(fds[0], &i, sizeof i) == (ssize_t)sizeof i) {
            snprintf(path, sizeof path, "p/%d", i);
            int fd = open(path, O_RDONLY);
            if (fd < 0 || read(fd, buf, sizeof buf) < 0 || close(fd) < 0)
                _exit(1);
            snprintf(path, sizeof path, "q/%d", i);
            put(path, "made by the child\n");
        }
        _exit(0);
    }
    close(fds[0]);
    for (int i = 0; i < n_files; i++) {
        snprintf(path, sizeof path, "p/%d", i);
        put(path, "made by the parent\n");
        if (write(fds[1], &i, sizeof i) != (ssize_t)sizeof i)
            die("pipe");
    }
    close(fds[1]);
    int st;
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
        die("child");
    return 0;
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static volatile unsigned long sink;

static void spin(unsigned long n)
{
    for (unsigned long k = 0; k < n; k++)
        sink += k;
}

/* The spins that take 20 ms of this thread's CPU time, measured; where $TRACE_PROG_LOG is
 * set, the first run's measure is kept in that file with ".spin" appended and later runs
 * take it from there, so that every run of a test does the same work. */
static unsigned long spin_20ms(void)
{
    const char *log = getenv("TRACE_PROG_LOG");
    char path[4096];
    unsigned long want = 0;
    FILE *f = NULL;
    if (log && *log) {
        snprintf(path, sizeof path, "%s.spin", log);
        if ((f = fopen(path, "r"))) {
            if (fscanf(f, "%lu", &want) != 1)
                want = 0;
            fclose(f);
        }
    }
    if (want)
        return want;
    unsigned long n = 1000000;
    double t0 = cpu_s();
    spin(n);
    double per = (cpu_s() - t0) / (double)n;
    want = per > 0 ? (unsigned long)(0.020 / per) : n;
    if (log && *log && (f = fopen(path, "w"))) {
        fprintf(f, "%lu\n", want);
        fclose(f);
    }
    return want;
}

/* Busy work in user mode only (no call at all: clock_gettime of a thread's CPU clock is a
 * system call, which a tracer stops at), calibrated first to 20 ms of this thread's CPU,
 * n_files times, each followed by a stat of ".". */
static void think_calls(void)
{
    unsigned long want = spin_20ms();
    struct stat st;
    for (int i = 0; i < n_files; i++) {
        spin(want);
        if (stat(".", &st) < 0)
            die(".");
    }
}

/* printf, and the same line appended to $TRACE_PROG_LOG where it is set. */
__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...)
{
    char line[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fputs(line, stdout);
    const char *log = getenv("TRACE_PROG_LOG");
    FILE *f = log && *log ? fopen(log, "a") : NULL;
    if (f) {
        fputs(line, f);
        fclose(f);
    }
}

static long ru_ms(const struct rusage *ru)
{
    return ((long)ru->ru_utime.tv_sec + (long)ru->ru_stime.tv_sec) * 1000 +
           ((long)ru->ru_utime.tv_usec + (long)ru->ru_stime.tv_usec) / 1000;
}

/* nchildren children thinking at once while their parent waits for them. */
static int child_think(int nchildren)
{
    struct stat st;
    if (stat(".", &st) < 0)
        die(".");
    for (int i = 0; i < nchildren; i++) {
        pid_t pid = fork();
        if (pid < 0)
            die("fork");
        if (pid == 0) {
            think_calls();
            _exit(0);
        }
    }
    for (int i = 0; i < nchildren; i++) {
        int status;
        if (wait(&status) < 0)
            die("wait");
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "trace_prog: a child failed\n");
            return 1;
        }
    }
    if (stat(".", &st) < 0)
        die(".");
    struct rusage self, kids;
    if (getrusage(RUSAGE_SELF, &self) < 0 || getrusage(RUSAGE_CHILDREN, &kids) < 0)
        die("getrusage");
    say("%ld %ld\n", ru_ms(&self), ru_ms(&kids));
    return 0;
}

/* A child spinning with no call while its parent thinks with calls beside it. */
static int side_think(void)
{
    unsigned long want = spin_20ms();
    pid_t pid = fork();
    if (pid < 0)
        die("fork");
    if (pid == 0) {
        for (int i = 0; i < n_files; i++)
            spin(want);
        _exit(0);
    }
    think_calls();
    int status;
    if (waitpid(pid, &status, 0) < 0)
        die("wait");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "trace_prog: the child failed\n");
        return 1;
    }
    struct rusage self, kids;
    if (getrusage(RUSAGE_SELF, &self) < 0 || getrusage(RUSAGE_CHILDREN, &kids) < 0)
        die("getrusage");
    say("%ld %ld\n", ru_ms(&self), ru_ms(&kids));
    return 0;
}

/* Six children spinning at once, each with lookups in "." between its spins. */
static int six_think(void)
{
    unsigned long want = spin_20ms();
    pid_t pid[6];
    for (int c = 0; c < 6; c++) {
        if ((pid[c] = fork()) < 0)
            die("fork");
        if (pid[c] == 0) {
            char name[16];
            snprintf(name, sizeof name, "six%d", c);
            struct stat st;
            for (int i = 0; i < n_files; i++) {
                spin(want);
                (void)stat(name, &st);
                if (stat(".", &st) < 0)
                    die(".");
            }
            _exit(0);
        }
    }
    for (int c = 0; c < 6; c++) {
        int status;
        if (waitpid(pid[c], &status, 0) < 0)
            die("wait");
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "trace_prog: a child failed\n");
            return 1;
        }
    }
    struct rusage self, kids;
    if (getrusage(RUSAGE_SELF, &self) < 0 || getrusage(RUSAGE_CHILDREN, &kids) < 0)
        die("getrusage");
    say("%ld %ld\n", ru_ms(&self), ru_ms(&kids));
    return 0;
}

/* Thinks as think_calls does, with 400 cheap calls after each 20 ms. */
static int call_think(void)
{
    if (mkdir("c", 0755) < 0 && errno != EEXIST)
        die("c");
    int fd = open("c/f", O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        die("c/f");
    unsigned long want = spin_20ms();
    struct stat st;
    for (int i = 0; i < n_files; i++) {
        spin(want);
        for (int k = 0; k < 200; k++)
            if (fstat(fd, &st) < 0 || stat("/", &st) < 0)
                die("c/f");
    }
    close(fd);
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) < 0)
        die("getrusage");
    say("%ld\n", (long)ru.ru_utime.tv_sec * 1000 + (long)ru.ru_utime.tv_usec / 1000);
    return 0;
}

static int think(void)
{
    think_calls();
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) < 0)
        die("getrusage");
    say("%ld\n", (long)ru.ru_utime.tv_sec * 1000 + (long)ru.ru_utime.tv_usec / 1000);
    return 0;
}

/* I/O through a memory map only: the reads (or writes) are page faults, no calls. */
static int mapped(int write_it)
{
    size_t len = (size_t)n_files * 1024;
    int fd = write_it ? open("m/w", O_RDWR | O_CREAT | O_TRUNC, 0644) : open("m/r", O_RDONLY);
    if (fd < 0)
        die(write_it ? "m/w" : "m/r");
    if (write_it && ftruncate(fd, (off_t)len) < 0)
        die("ftruncate");
    unsigned char *p = mmap(NULL, len, write_it ? PROT_READ | PROT_WRITE : PROT_READ,
                            MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        die("mmap");
    close(fd);
    unsigned long sum = 0;
    for (size_t i = 0; i < len; i += 4096) {
        if (write_it)
            memset(p + i, 'w', len - i < 4096 ? len - i : 4096);
        else
            sum += p[i];
    }
    if (write_it && msync(p, len, MS_SYNC) < 0)
        die("msync");
    munmap(p, len);
    if (!write_it)
        printf("%lu\n", sum);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3 || (n_files = atoi(argv[2])) <= 0) {
        fprintf(stderr, "usage: trace_prog threads|fork|pipe|think|callthink|childthink|twothink|sidethink|sixthink|mapread|mapwrite N\n");
        return 2;
    }
    if (!strcmp(argv[1], "threads"))
        return threads();
    if (!strcmp(argv[1], "fork"))
        return forks();
    if (!strcmp(argv[1], "pipe"))
        return piped();
    if (!strcmp(argv[1], "think"))
        return think();
    if (!strcmp(argv[1], "callthink"))
        return call_think();
    if (!strcmp(argv[1], "childthink"))
        return child_think(1);
    if (!strcmp(argv[1], "twothink"))
        return child_think(2);
    if (!strcmp(argv[1], "sidethink"))
        return side_think();
    if (!strcmp(argv[1], "sixthink"))
        return six_think();
    if (!strcmp(argv[1], "mapread"))
        return mapped(0);
    if (!strcmp(argv[1], "mapwrite"))
        return mapped(1);
    fprintf(stderr, "trace_prog: unknown program '%s'\n", argv[1]);
    return 2;
}
