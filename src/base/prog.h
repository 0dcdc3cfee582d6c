/* prog.h — finding a system tool and running a program without a shell, its standard output
 * captured for the measures that ask a file system's own tool (e2freefrag, xfs_db) and for
 * mkfs; record's own runs with their streams on /dev/null. Plain POSIX (fork, exec, pipes). */
#ifndef FSBENCH_BASE_PROG_H
#define FSBENCH_BASE_PROG_H

#include <stddef.h>

struct rusage;

/* Finds an executable prog in $PATH, then /usr/sbin and /sbin (root's tools, which a minimal
 * PATH may lack). 0 with its path in out, or -1 (no message). */
int prog_find(const char *prog, char *out, size_t len);

/* Whether prog can be run as execvp(3) would find it (a name with a slash as it is, else
 * in $PATH): 0, or -1 with why ("not found in $PATH", "No such file or directory", "not
 * an executable file"). */
int prog_runnable(const char *prog, char *why, size_t len);

/* Runs path with argv (argv[0] its name; NULL-terminated), standard input /dev/null, in
 * directory "/": its standard output goes into out (at most max bytes kept, NUL-terminated;
 * *out malloc'ed, freed by the caller), its standard error's last line into why (len bytes).
 * 0 when it ran and exited 0; -1 otherwise with why saying so ("exit 1: <its last line>",
 * "killed by signal 9", "cannot run: No such file"), no message printed. */
int prog_capture(const char *path, char *const argv[], size_t max, char **out, char *why,
                 size_t len);

/* Runs argv[0] with argv (searched in $PATH when search is set), in the current directory,
 * its standard input, output and error on /dev/null and the signals fsbench changed back
 * to their defaults; waits for it, its resource use (with the children it waited for) into
 * ru when ru is given. Its status as a shell gives it (127: it could not be run, 128 + N:
 * killed by signal N), or -1 with errno (fork or wait failed). */
int prog_run_quiet(char *const argv[], int search, struct rusage *ru);

/* The same for the program at argv[0] (no $PATH search), its standard output kept in out
 * (len bytes, NUL-terminated, the rest dropped) instead of /dev/null. Its status as a
 * shell gives it, or -1 with errno. */
int prog_run_output(char *const argv[], char *out, size_t len);

#endif
