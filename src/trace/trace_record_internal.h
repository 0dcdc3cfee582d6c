/* trace_record_internal.h — the recorder's state, shared by trace_record.c (lines, orphans,
 * think time), trace_record_state.c (threads, descriptor tables, slots),
 * trace_record_calls.c (what each system call means: the table, descriptor and process
 * calls), trace_record_paths.c (the calls on a path) and trace_record_args.c (where a
 * call's arguments point).
 */
#ifndef FSBENCH_TRACE_RECORD_INTERNAL_H
#define FSBENCH_TRACE_RECORD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/strace_parse.h"
#include "trace/trace_record.h"

/* What a descriptor number of a process is. */
enum {
    FD_NONE = 0, /* not open, or opened before the program started */
    FD_OUT,      /* opened by the program, not below the directory */
    FD_SLOT,     /* below the directory: slot */
};

struct fdent {
    uint32_t slot;
    uint8_t state;
    uint8_t cloexec;
};

/* A descriptor table: a process's, shared by its threads (CLONE_FILES). */
struct fdtab {
    unsigned refs;
    struct fdent *e;
    size_t cap;
};

/* A working directory, shared by threads (CLONE_FS). */
struct fsctx {
    unsigned refs;
    char *cwd;
};

struct task {
    long tid;
    uint32_t thread;
    struct fdtab *fds;
    struct fsctx *fs;
    uint64_t last_end;      /* the recorded end of its last call (0: none yet) */
    /* since then: the time it was blocked (waits, pipes: rec_stop), and the calls the
     * tracer stopped it at, its next recorded one included (TK_AWAY) */
    uint64_t away_ns;
    uint64_t stops;
    char *pending;          /* an unfinished call: "name(args" */
    uint64_t pending_ts;
    /* an unfinished close: the descriptor it closes, taken out of the table when the call
     * started (the kernel frees the number at once, so another thread's open can return
     * it before this close is reported done) */
    bool closing;
    struct fdent closing_fd;
    struct task *next;      /* in the tid map */
};

struct orphan {
    long tid;
    char *buf;              /* lines, each ending with '\n' */
    size_t len, cap;
    struct orphan *next;
};

#define REC_BUCKETS 4096
/* Socket pairs remembered (their ends' inodes), and threads that ended (for a wait that
 * returns one): the latest so many. */
#define REC_PAIRS 1024
#define REC_DEAD 1024

struct rec_pair {
    uint64_t a, b;
};
struct rec_dead {
    long tid;
    uint32_t thread;
};
/* Gaps between a thread's calls, by microsecond up to 10 ms (the last bucket: longer). */
#define GAP_BUCKETS 10001

struct gap_hist {
    uint64_t count[GAP_BUCKETS];
    uint64_t sum[GAP_BUCKETS]; /* ns */
    uint64_t n, total;
    uint64_t quick_n, quick_total; /* durations of the quick calls (trace_rec_quick) */
};

struct trace_recorder {
    struct trace_rec_opts o;
    size_t rootlen;
    struct task *map[REC_BUCKETS];
    struct orphan *orphans;
    size_t orphan_bytes;
    bool started;
    uint64_t t0;
    uint32_t live;
    uint32_t *free_slots;   /* a min-heap of freed slots */
    size_t nfree, free_cap;
    uint32_t slot_hw;       /* slots ever used: the next new one */
    struct trace_info info;
    char *line;             /* a resumed call put back together */
    size_t line_cap;
    struct gap_hist *gaps;
    /* socket pairs made by the program, and threads that ended: rings (trace_record_calls.c) */
    struct rec_pair pairs[REC_PAIRS];
    unsigned npairs;
    struct rec_dead dead[REC_DEAD];
    unsigned ndead;
    /* a clone seen: its child's kept lines are fed to it after the call (trace_record.c) */
    bool adopt_pending;
    long adopt_tid;
    /* per recorded thread: the recorded thread that leads its process (itself for a
     * process), that process's command name (as the kernel's comm: the base name of its
     * last execve, else its parent's) and the calls the thread made */
    struct rec_proc *proc;
    size_t proc_cap;
};

struct rec_proc {
    uint32_t leader;
    char comm[16];
    uint64_t calls;
};

/* trace_record_state.c */
struct task **rec_bucket(struct trace_recorder *r, long tid);
struct task *rec_find(struct trace_recorder *r, long tid);
struct fsctx *rec_fs_new(const char *cwd);
void rec_fs_put(struct fsctx *f);
/* A new thread tid with table fds and directory fs (the counts of the info block). */
struct task *rec_task_new(struct trace_recorder *r, long tid, struct fdtab *fds, struct fsctx *fs);
struct fdtab *rec_fdtab_new(void);
/* Drops every slot of t's table when t was its last user, and frees it. */
int rec_fdtab_put(struct trace_recorder *r, struct task *t, const struct strace_line *l);
/* A record of the recorder's own (spawn, exit, inherit, drop), at the time of line l. */
int rec_implicit(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                 unsigned kind, uint32_t slot, int64_t result, uint32_t aux);
/* Emits a record of thread t for the call of line l (its times), counting it. */
/* Counts line l, a call of t finished, as a stop of the tracer and, where the call is
 * one a program waits in (rec_blocking), its time as t's away from work. */
void rec_stop(struct task *t, const struct strace_line *l);
int rec_emit(struct trace_recorder *r, struct task *t, const struct strace_line *l,
             struct trace_call *c);
uint32_t rec_slot_alloc(struct trace_recorder *r);
void rec_slot_free(struct trace_recorder *r, uint32_t slot);
/* The entry of descriptor fd in t's table (grown as needed), or NULL (bad fd, no memory). */
struct fdent *rec_fd(struct trace_recorder *r, struct task *t, long fd);
/* Forgets what descriptor fd was, dropping its slot (a "drop" record) if it had one. */
int rec_fd_release(struct trace_recorder *r, struct task *t, const struct strace_line *l, long fd);
/* A clone, fork or vfork of t returned child tid `child` (its kept lines are then adopted:
 * r->adopt_pending). */
int rec_spawn(struct trace_recorder *r, struct task *t, const struct strace_line *l, long child,
              bool thread, bool share_files, bool share_fs);
/* A successful execve of t, of the file named name (its base name becomes the process's
 * command name): close-on-exec descriptors are dropped. */
int rec_exec(struct trace_recorder *r, struct task *t, const struct strace_line *l,
             const char *name);

/* trace_record_chan.c */
/* A read or write (kind) that moved res bytes on descriptor argument a, outside the
 * directory: a chan record when it is a pipe, or a socket of a pair seen (1; -1: the emit
 * failed); 0 when it is neither (the caller counts it left out). A channel is named by the
 * inode its bytes are read from: the pipe's, or the reading end of the pair. */
int rec_chan(struct trace_recorder *r, struct task *t, const struct strace_line *l,
             struct strace_span a, unsigned kind, int64_t res);
/* socketpair's descriptor array "[A<socket:[a]>, B<socket:[b]>]": the pair remembered. */
void rec_socketpair(struct trace_recorder *r, struct strace_span fds);
/* waitid's siginfo argument: its si_pid (0: none). */
int64_t rec_waitid_pid(struct strace_span s);
/* A wait of t that returned child pid: a wait record for the child's thread, when pid is a
 * recorded thread (alive, or among the last REC_DEAD ended). 0, or -1 (emit failed). */
int rec_wait(struct trace_recorder *r, struct task *t, const struct strace_line *l, int64_t pid);

/* trace_record_args.c */
/* Room for a directory and a path joined, before they are normalized. */
#define REC_PATHBUF (TRACE_PATH_MAX * 2 + 16)
/* How a call's path or descriptor came out: below the directory, or left out and why. */
enum { REC_IN = 1, REC_OUT_DIR = 0, REC_OUT_PRESTART = -1, REC_OUT_BAD = -2 };
/* Counts a call left out (how: REC_OUT_*) in r's info block. */
void rec_count_out(struct trace_recorder *r, int how);
/* The call's result as a trace result: false when there is none to record (unknown, or a
 * call the kernel restarts and strace shows again). */
bool rec_result(const struct strace_line *l, int64_t *res);
/* Collapses "//", "/./" and "/x/.." in an absolute path, in place: its new length. */
size_t rec_normalize(char *s);
/* The path of abs (normalized) relative to the root into rel: REC_IN, or REC_OUT_DIR
 * (REC_OUT_BAD: too long). */
int rec_relative(const struct trace_recorder *r, const char *abs, char *rel, size_t *rlen);
/* Resolves the path argument pa against the directory argument da (NULL: the working
 * directory) into rel: REC_IN, REC_OUT_DIR, or REC_OUT_BAD. */
int rec_path_arg(struct trace_recorder *r, struct task *t, const struct strace_span *da,
                 struct strace_span pa, char *rel, size_t *rlen);
/* The state of descriptor argument a in t: REC_IN with *slot, REC_OUT_DIR (outside),
 * REC_OUT_PRESTART, or REC_OUT_BAD. */
int rec_fd_arg(struct trace_recorder *r, struct task *t, struct strace_span a, uint32_t *slot);
/* A number argument; 0 when it is none or not above 0. */
uint64_t rec_num(struct strace_span a);
/* Marks the call's paths as used (the initial state) and records the call. */
int rec_emit_path(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                  struct trace_call *c);

/* The arguments of a call, split. */
struct rec_args {
    struct strace_span a[STRACE_ARGS_MAX];
    int n;
};
/* A call family's handler; how: which member of the family (the table's number). 0, or -1
 * (emit failed, no memory). */
typedef int (*rec_handler)(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                           const struct rec_args *a, int how);

/* trace_record_paths.c: the calls on a path (how: the row of their table) */
int rec_h_path(struct trace_recorder *r, struct task *t, const struct strace_line *l,
               const struct rec_args *a, int how);
/* lstat: stat without following a last symlink */
int rec_h_lstat(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                const struct rec_args *a, int how);
/* rename family and link family: two paths. how: 0 rename, 1 renameat, 2 renameat2,
 * 3 link, 4 linkat. */
int rec_h_two(struct trace_recorder *r, struct task *t, const struct strace_line *l,
              const struct rec_args *a, int how);
/* symlink(target, path), symlinkat(target, dir, path): how 1 for the latter. */
int rec_h_symlink(struct trace_recorder *r, struct task *t, const struct strace_line *l,
                  const struct rec_args *a, int how);

/* trace_record_calls.c */
/* Acts on one complete call of task t. 0, or -1 (emit failed, no memory). */
int rec_call(struct trace_recorder *r, struct task *t, const struct strace_line *l);
/* An unfinished call l started: a close takes its descriptor out of t's table now. */
void rec_call_started(struct trace_recorder *r, struct task *t, const struct strace_line *l);
/* 1 when the call table is sorted by name, as its lookup needs (a unit test asks). */
int trace_rec_table_sorted(void);

#endif
