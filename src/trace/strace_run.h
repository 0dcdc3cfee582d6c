/* strace_run.h — running a command under Debian's strace for `fsbench record`, and
 * measuring what tracing itself costs.
 *
 * strace writes its lines into a FIFO in a private directory (mode 0700 under $TMPDIR):
 * the traced program inherits no extra descriptor, and fsbench reads the lines as they
 * come, so a long recording needs no space for strace's text. The command runs with
 * fsbench's standard input, output and error; fsbench ignores SIGINT and SIGQUIT while it
 * runs (as system(3) does: the terminal's ^C goes to the command) and passes SIGTERM on.
 */
#ifndef FSBENCH_STRACE_RUN_H
#define FSBENCH_STRACE_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The options fsbench gives strace (strace_parse.h reads what they make). */
extern const char *const strace_run_options[];

struct strace_run {
    pid_t pid;
    int fd;              /* the FIFO's read end */
    int connected;       /* strace has opened it */
    int grown;           /* its buffer was grown: it is read in batches */
    int batch;           /* the last read found little: wait before the next */
    uint64_t user_ns;    /* after strace_run_wait: the command's CPU time in user mode
                          * and in the kernel, its waited-for children's with it */
    uint64_t sys_ns;
    char dir[4096];      /* the private directory */
    char fifo[4200];
};

/* Starts strace on argv (NULL-terminated) in our working directory.
 * 0, or -1 after error() ("record needs strace ..."). */
int strace_run_start(struct strace_run *s, char *const argv[]);
/* The same with the command's standard input, output and error on /dev/null. */
int strace_run_start_quiet(struct strace_run *s, char *const argv[]);
/* Reads strace's output: bytes (> 0), 0 at the end, -1 after error(). */
long strace_run_read(struct strace_run *s, char *buf, size_t len);
struct trace_recorder;
/* Reads strace's lines into rec (trace_rec_line) until the end; a line longer than 1 MiB
 * is given as unreadable. 0, or -1 after error() (reading, or the recorder's). */
int strace_run_pump(struct strace_run *s, struct trace_recorder *rec);
/* Waits for the command (and so strace) to end and removes the FIFO: the command's exit
 * status as the shell gives it (128 + signal when killed), or -1 after error(); its CPU
 * times into s->user_ns and s->sys_ns. */
int strace_run_wait(struct strace_run *s);

/* strace's version line ("strace -- version 6.1"), or "" when it cannot be run. */
void strace_run_version(char *buf, size_t len);

/* Measures, on this machine, what strace adds between two calls of a program that makes
 * them back to back (*gap_ns) and to each call's duration (*dur_ns): means (the slowest
 * 1 % left out) over a few thousand calls of cat(1) on small files, traced with the same
 * options, through the same FIFO and
 * parsing as a recording, so that the reader's share of the machine is in them; *p10_ns
 * is the quickest tenth's gap. 0, or -1 (no message; the figures are then 0). */
int strace_run_calibrate(uint64_t *gap_ns, uint64_t *p10_ns, uint64_t *dur_ns);

#endif
