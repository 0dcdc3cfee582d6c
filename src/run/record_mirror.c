/* record_mirror.c — record_mirror.h: the trace replayed under strace in a temporary
 * workspace (laid down untraced first, then the calls traced), its lines read through a
 * recorder whose root is the replay's tree, and the workspace removed.
 */
#include "run/record_mirror.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/prog.h"
#include "os/selfexe.h"
#include "phase/phase.h"
#include "phase/workspace.h"
#include "run/record_dir.h"
#include "trace/strace_run.h"
#include "trace/trace_record.h"

static int count_call(void *arg, const struct trace_call *c)
{
    (void)arg, (void)c;
    return 0;
}

#if defined(__SANITIZE_ADDRESS__)
#define MIRROR_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MIRROR_ASAN 1
#endif
#endif

/* In a sanitizer build (make SAN=1) only: the leak check at the traced replay's exit stops
 * the process's threads with ptrace, which a process strace already traces (mmap among the
 * traced calls) never gets, and it waits for ever; it is turned off for that replay. */
static void leak_check_off(void)
{
#ifdef MIRROR_ASAN
    const char *o = getenv("ASAN_OPTIONS");
    char v[1024];
    snprintf(v, sizeof v, "%s%sdetect_leaks=0", o ? o : "", o && *o ? ":" : "");
    setenv("ASAN_OPTIONS", v, 1);
#endif
}

/* What a mirror replay needs before it starts: fsbench's own program in self (PATH_MAX
 * bytes) and a workspace in parent (NULL: the temporary directory). 0, or -1 with why. */
static int mirror_open(char *self, struct workspace *ws, const char *parent, char *why,
                       size_t len)
{
    if (os_self_exe(self, PATH_MAX) < 0)
        return snprintf(why, len, "fsbench's own program cannot be named here"), -1;
    err_set_quiet(1);
    int rc = ws_open(ws, parent);
    err_set_quiet(0);
    if (rc < 0)
        return snprintf(why, len, "no temporary directory"), -1;
    return 0;
}

/* The trace at path's initial state laid down in the workspace at ws by fsbench (self) as
 * `trace --part state --sparse`; options first, then "--": a trace named "-x" is not
 * taken for one. 0, or its status with why. */
static int lay_state(const char *self, const char *path, const char *ws, char *why, size_t len)
{
    char *argv[] = {(char *)self, "trace", "--part", "state", "--sparse", "--",
                    "replay", (char *)path, (char *)ws, NULL};
    int st = prog_run_quiet(argv, 0, NULL);
    if (st != 0)
        snprintf(why, len, "its initial state could not be laid down (status %d)", st);
    return st;
}

/* The traced part: the calls replayed under strace, read into a recorder rooted at the
 * replay's tree. 0 or -1 with why. */
static int traced(char *const argv[], const char *root, struct record_mirror *m, char *why,
                  size_t len)
{
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return snprintf(why, len, "the current directory: %s", strerror(errno)), -1;
    struct trace_rec_opts ro = {.root = root, .cwd = cwd, .emit = count_call,
                                .gaps_of_started = true};
    struct trace_recorder *rec = trace_rec_new(&ro);
    struct strace_run sr;
    if (!rec || strace_run_start_quiet(&sr, argv) < 0) {
        trace_rec_free(rec);
        return snprintf(why, len, "strace could not run fsbench"), -1;
    }
    int rc = strace_run_pump(&sr, rec);
    int status = strace_run_wait(&sr);
    struct trace_info info = {0};
    if (rc == 0 && status == 0)
        rc = trace_rec_finish(rec, &info);
    if (rc == 0 && status == 0) {
        m->calls = info.ncalls;
        trace_rec_gaps(rec, 0, &m->gaps, &m->gap_total_ns);
        trace_rec_gaps(rec, MIRROR_SHORT_NS, &m->short_gaps, &m->short_total_ns);
        trace_rec_quick(rec, &m->quick, &m->quick_total_ns);
        m->user_ns = sr.user_ns;
        m->sys_ns = sr.sys_ns;
    }
    trace_rec_free(rec);
    if (status != 0)
        return snprintf(why, len, "strace's replay of it ended with status %d", status), -1;
    if (rc < 0)
        return snprintf(why, len, "its lines could not be read"), -1;
    return 0;
}

int record_mirror(const char *path, uint64_t limit, struct record_mirror *m, char *why,
                  size_t len)
{
    memset(m, 0, sizeof *m);
    char self[PATH_MAX], lim[32], tree[PATH_MAX + 16], root[PATH_MAX];
    struct workspace ws;
    if (mirror_open(self, &ws, NULL, why, len) < 0)
        return -1;
    int rc = 0;
    snprintf(lim, sizeof lim, "%llu", (unsigned long long)limit);
    char *calls[] = {self, "trace", "--part", "calls", "--limit", lim, "--",
                     "replay", (char *)path, ws.path, NULL};
    int st = lay_state(self, path, ws.path, why, len);
    if (st != 0)
        rc = -1;
    snprintf(tree, sizeof tree, "%s/%s", ws.path, PHASE_TREE_DIR);
    if (rc == 0 && !realpath(tree, root)) {
        snprintf(why, len, "%s: %s", tree, strerror(errno));
        rc = -1;
    }
    if (rc == 0) {
        leak_check_off();
        rc = traced(calls, root, m, why, len);
    }
    if (ws_close(&ws) < 0 && rc == 0) { /* said by ws_close */
        snprintf(why, len, "its temporary directory could not be removed");
        rc = -1;
    }
    if (rc == 0 && m->short_gaps < 100) {
        snprintf(why, len, "too few calls (%llu gaps)", (unsigned long long)m->gaps);
        rc = -1;
    }
    return rc;
}

/* The replay threads' CPU time `trace replay` says into *ns (0.000 s for a short replay
 * too): 0, or -1 when it says none. */
static int threads_cpu(const char *said, uint64_t *ns)
{
    const char *k = "the replay threads' CPU time ";
    const char *p = strstr(said, k);
    char *end = NULL;
    double s = p ? strtod(p + strlen(k), &end) : 0;
    if (!p || end == p + strlen(k) || s < 0)
        return -1;
    *ns = (uint64_t)(s * 1e9);
    return 0;
}

int record_mirror_plain(const char *path, uint64_t limit, const char *near, uint64_t *cpu_ns,
                        char *why, size_t len)
{
    *cpu_ns = 0;
    char self[PATH_MAX], lim[32];
    struct workspace ws;
    /* on near's file system: an fsync there costs what the program's did */
    struct record_dir rd;
    const char *dir = record_dir_make(&rd, near, ".fsbench-replay") == 0 ? rd.path : NULL;
    if (mirror_open(self, &ws, dir, why, len) < 0) {
        record_dir_remove(&rd);
        return -1;
    }
    int rc = 0;
    snprintf(lim, sizeof lim, "%llu", (unsigned long long)limit);
    char *calls[] = {self, "trace", "--part", "calls", "--limit", lim, "--",
                     "replay", (char *)path, ws.path, NULL};
    int st = lay_state(self, path, ws.path, why, len);
    if (st != 0)
        rc = -1;
    /* the CPU time of the threads that make the calls, as `trace replay` says it: not the
     * process's, whose main thread starts, reads and decodes the trace alongside them (a
     * replay with original timing spends the think time on the calls' threads, beside
     * it). Status 1: some calls diverged (a fifo or device the initial state does not
     * hold): the calls were still made, and their CPU time counts */
    char said[1024];
    if (rc == 0 && (st = prog_run_output(calls, said, sizeof said)) != 0 && st != 1) {
        snprintf(why, len, "its replay ended with status %d", st);
        rc = -1;
    }
    if (rc == 0 && threads_cpu(said, cpu_ns) < 0 && st == 0) {
        snprintf(why, len, "its replay did not say its CPU time");
        rc = -1;
    }
    if (ws_close(&ws) < 0 && rc == 0) {
        snprintf(why, len, "its temporary directory could not be removed");
        rc = -1;
    }
    record_dir_remove(&rd);
    return rc;
}
