/* timeit.c — times one command for bench/run: monotonic wall clock around fork/exec/wait,
 * and the child's user and system CPU and max RSS from wait4.
 *
 *   timeit [-o FILE] COMMAND [ARG...]    (-o: the command's stdout goes to FILE)
 *
 * Prints "<wall_s> <user_s> <sys_s> <maxrss_kib>" on stderr after the command ends, and
 * exits with the command's status (1 if it did not exit normally).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double tv(struct timeval t)
{
    return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    int i = 1;
    if (i + 1 < argc && !strcmp(argv[i], "-o")) {
        out = argv[i + 1];
        i += 2;
    }
    if (i >= argc) {
        fprintf(stderr, "usage: timeit [-o FILE] COMMAND [ARG...]\n");
        return 2;
    }
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    pid_t pid = fork();
    if (pid < 0) {
        perror("timeit: fork");
        return 1;
    }
    if (pid == 0) {
        if (out) {
            int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd < 0 || dup2(fd, 1) < 0) {
                perror(out);
                _exit(127);
            }
            close(fd);
        }
        execvp(argv[i], argv + i);
        perror(argv[i]);
        _exit(127);
    }
    int st;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) < 0) {
        perror("timeit: wait4");
        return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double wall = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
    fprintf(stderr, "%.6f %.6f %.6f %ld\n", wall, tv(ru.ru_utime), tv(ru.ru_stime), ru.ru_maxrss);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
