/* workload.h — the seeds' workloads as phases: fsync storms (seed 003), compilebench
 * (seed 001) and aging, plus the helpers they share (a seeded RNG and a tree walker that
 * lists a directory before it changes it).
 *
 * Every phase here works only below the workspace (ctx->ws_fd), through ctx->eng, makes its
 * random choices from ctx->seed (same seed, same tree: same operations) and records its
 * first failure with phase_fail(). ctx->params may be NULL (unit tests, old runners): the
 * WL_DEFAULT_* values below are used then.
 */
#ifndef FSBENCH_WORKLOAD_H
#define FSBENCH_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hash.h"
#include "measure/layout.h"
#include "phase/phase.h"

/* Defaults for struct phase_params (what `fsbench run` should use when not given). */
#define WL_DEFAULT_CB_INITIAL 3
#define WL_DEFAULT_CB_RUNS 20
#define WL_DEFAULT_FSYNC_ROUNDS 2
#define WL_DEFAULT_AGE_WRITTEN 4.0
#define WL_DEFAULT_AGE_FULLNESS 0.8
/* Scale of the kernel profile for one compilebench tree of the built-in model: about a
 * Linux 2.6.20 checkout, which compilebench's data set describes: 21,280 files (and the
 * model gives them its 233 MB). */
#define WL_CB_KERNEL_SCALE 0.266
/* Working-set directory of the age phase, below the tree directory. */
#define WL_AGE_DIR "age"
/* The safety limit of aging: never more than this multiple of the fs size written. */
#define WL_AGE_SAFETY 50.0
/* Aging by replay: never more repetitions than this in one age phase. */
#define WL_AGE_REPLAY_MOST 100000

/* ---- phases ---- */

/* fsyncstorm: rewrites every regular file of "tree" CVS-style (",name," then fsync, rename
 * over the original, optionally fsync of the directory). Counts files and dirs. */
int phase_fsyncstorm(struct phase_ctx *ctx);
/* createsync: extract with an fsync of each file before its close (fs_mark -S 1). */
int phase_createsync(struct phase_ctx *ctx);
/* cb_initial: compilebench's "initial create" of params->cb_initial trees "tree/kernel-N". */
int phase_cb_initial(struct phase_ctx *ctx);
/* cb_random: params->cb_runs compilebench operations on random trees. */
int phase_cb_random(struct phase_ctx *ctx);
/* age: create/append/truncate/delete/rename churn in "tree/age" until the written or the
 * fullness target; the aged files stay. */
int phase_age(struct phase_ctx *ctx);
/* age steps (--age-steps): ages on from where the last aging of this process left off until
 * ctx->age_until_x file-system sizes are written in all (skips, saying so, when they are);
 * fullness is held (deletes above it), not a stop. phase_age() calls it when age_until_x is
 * set. */
int phase_age_further(struct phase_ctx *ctx);
/* Forgets the kept state: the next step starts afresh (a new set, a fresh file system). */
void phase_age_steps_reset(void);
/* Bytes the steps wrote in all so far. */
double phase_age_steps_written(void);
/* Age by replaying params->age_replay (phase_age_replay.c): until `times` repetitions (0: no
 * such stop), goal_bytes written (0: none), with a profile (params->age_profile) every
 * bucket within converge of it (0: no such stop), the fullness, the free-space target or
 * the safety limit, whichever comes first; bytes written to *written. earlier: what earlier
 * age steps wrote (for the progress lines, which count every step's). 0, or -1 (the phase
 * failed). */
int age_replay_run(struct phase_ctx *ctx, double goal_bytes, unsigned times, double converge,
                   double earlier, double *written);
/* The next repetition is r0001 again, the books empty (a new set). */
void age_replay_reset(void);

/* ---- compilebench's per-kind results ---- */

enum cb_kind {
    CB_INITIAL, /* "initial create" (cb_initial) */
    CB_CREATE,
    CB_PATCH,
    CB_COMPILE,
    CB_CLEAN,
    CB_READ, /* "read tree" */
    CB_READ_COMPILED,
    CB_DELETE, /* "delete tree" */
    CB_DELETE_COMPILED,
    CB_STAT, /* "stat tree" */
    CB_STAT_COMPILED,
    CB_KINDS
};

/* The reference figures cb_initial takes first, on a tree of its own ("native-N"): the
 * clean tree, the patch and the patched objects written in path order, which also gives
 * the order every later write follows (the order the file system lists them back). */
enum cb_native { CB_NATIVE_CLEAN, CB_NATIVE_PATCH, CB_NATIVE_COMPILE, CB_NATIVES };

struct cb_kind_total {
    uint64_t runs;
    uint64_t bytes; /* data created, written, read or (clean) removed */
    double seconds; /* wall time of the operations of this kind */
    double value;   /* sum of each run's figure: MB/s, or seconds for delete and stat */
    double user_s, sys_s;
};

struct cb_summary {
    struct cb_kind_total k[CB_KINDS];
    struct cb_kind_total native[CB_NATIVES];
    unsigned trees; /* trees left after the last phase */
    bool no_sync;   /* --cb-no-sync: no sync in the operations' time, caches kept */
    bool warm;      /* caches could not be dropped (not root, or no such control) */
    uint32_t cpu_file_ns, cpu_entry_ns; /* --cb-program-cpu: the program's time added */
};

/* compilebench's name of a kind ("read compiled tree"), and of a reference figure
 * ("native patched"). */
const char *cb_kind_name(enum cb_kind k);
const char *cb_native_name(enum cb_native n);
/* true: reported in MB/s (bytes / seconds); false: in seconds per run (delete, stat). */
bool cb_kind_is_throughput(enum cb_kind k);
/* Average of a kind as compilebench prints it: the mean of its runs' figures, MB/s (MB =
 * 2^20 bytes) or seconds; 0 when it has no runs. */
double cb_kind_avg(const struct cb_kind_total *t, enum cb_kind k);

/* Copies the totals of this process's last cb_initial / cb_random phases into *out:
 * 0, or -1 if neither has run. cb_initial clears everything; cb_random clears all kinds
 * but "initial create" and the reference figures. Not thread-safe (phases run one at a
 * time). */
int compilebench_last(struct cb_summary *out);
/* fsbench's table of the kinds, one line each: "create total runs 5 avg 15.64 MB/s (user
 * 1.08s sys 1.97s)" (user and system time per run) or "no runs for delete compiled tree",
 * then the reference figures and what the method left out. Returns the length (snprintf
 * rules). */
int compilebench_format(const struct cb_summary *s, char *buf, size_t len);
/* compilebench's own "run complete" block, line for line as compilebench 0.6 prints it
 * (its labels, "intial create" included, units and rounding). */
int compilebench_format_original(const struct cb_summary *s, char *buf, size_t len);

/* Internal to compilebench.c and phase_compilebench.c. */
#define WL_CB_PREFIX "kernel-"
#define WL_CB_NATIVE_PREFIX "native-"
#define WL_CB_DEFAULT_BUFFER ((unsigned)256 << 10)
struct cb_listing;
/* What an operation does with its listing. */
enum cb_op {
    CB_OP_WRITE,  /* create each file (and its directories), write its size */
    CB_OP_CLEAN,  /* unlink each file */
    CB_OP_READ,   /* read every file of the tree */
    CB_OP_STAT,   /* stat every entry of the tree */
    CB_OP_DELETE, /* rm -rf the tree */
};
enum { CB_UNLINK_FIRST = 1u << 0, CB_TRUNCATE_FIRST = 1u << 1 };
struct cb_env {
    int tdir;         /* the open "tree" directory */
    char *wbuf;       /* bufsize bytes of 'a', what every write writes */
    char *rbuf;       /* bufsize bytes to read into */
    size_t bufsize;
    bool sync;        /* a sync of the file system ends each operation's time */
    uint32_t cpu_file_ns;  /* the program's own processor time: each file written or read */
    uint32_t cpu_entry_ns; /* and each entry stat'ed, unlinked or removed (progcpu.h) */
};
/* Opens the workspace's "tree" (made if missing): an engine fd, or -1 after phase_fail. */
int compilebench_open_trees(struct phase_ctx *ctx);
/* Runs op on tree `name` below env->tdir (l: the listing of WRITE and CLEAN; flags
 * CB_UNLINK_FIRST / CB_TRUNCATE_FIRST for WRITE), timed from its start to the end of its sync
 * (env->sync), and adds the run to *t if t is not NULL: its figure MB/s when throughput
 * (bytes: the listing's for WRITE and CLEAN, those read for READ), else seconds. 0 or -1
 * after phase_fail. */
int compilebench_run(struct phase_ctx *ctx, const struct cb_env *env, enum cb_op op,
                     const struct cb_listing *l, unsigned flags, const char *name,
                     struct cb_kind_total *t, bool throughput);
/* The files of tree `name` in the order the file system lists them (a walk in readdir
 * order, as compilebench's os.walk), each with its size in `from` (sorted); into *out. 0 or
 * -1 after phase_fail. */
int compilebench_native_order(struct phase_ctx *ctx, const struct cb_env *env,
                              const char *name, const struct cb_listing *from,
                              struct cb_listing *out);

/* ---- shared helpers (workload.c) ---- */

/* A small deterministic RNG (xorshift64*, seeded through splitmix64). */
struct wl_rng {
    uint64_t s;
};

static inline uint64_t wl_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Seeds a stream: the same (seed, stream) always gives the same numbers. */
static inline void wl_rng_seed(struct wl_rng *r, uint64_t seed, uint64_t stream)
{
    r->s = wl_mix64(seed ^ wl_mix64(stream));
    if (r->s == 0)
        r->s = 1;
}

static inline uint64_t wl_rng_next(struct wl_rng *r)
{
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * 0x2545f4914f6cdd1dull;
}

/* Uniform in [0, n) (n > 0; the modulo bias is below 2^-40 for the n used here). */
static inline uint64_t wl_rng_below(struct wl_rng *r, uint64_t n)
{
    return n ? wl_rng_next(r) % n : 0;
}

/* Uniform in [0, 1). */
static inline double wl_rng_unit(struct wl_rng *r)
{
    return (double)(wl_rng_next(r) >> 11) * 0x1p-53;
}

/* FNV-1a of a string, continuing from h (start with WL_HASH_INIT). */
#define WL_HASH_INIT HASH_FNV1A_INIT
uint64_t wl_hash_str(uint64_t h, const char *s);

/* A lognormal file size from a profile's body (or, with its large_share, its large mode),
 * truncated to the profile's bounds by redrawing (clamped after a few tries). */
uint64_t wl_profile_size(const struct profile *p, struct wl_rng *r);

/* One directory's entries, listed before the walker's callback may change the directory.
 * Sorted by name, so choices made while walking are the same on every file system. */
struct wl_ent {
    size_t name_off;    /* into wl_list.names */
    unsigned char type; /* DT_REG, DT_DIR, DT_LNK, ... (resolved by lstat if unknown) */
    uint64_t size;      /* st_size if the walk stats entries, else 0 */
    uint32_t mode;      /* permission bits if the walk stats entries, else 0 */
};

struct wl_list {
    struct wl_ent *ent;
    size_t n, cap;
    char *names;
    size_t used, ncap;
};

static inline const char *wl_name(const struct wl_list *l, size_t i)
{
    return l->names + l->ent[i].name_off;
}

/* Per-directory callback: dirfd is the directory, path its path for messages ("tree/a/b"),
 * depth 0 for the walk's root. 0 to go on, -1 after phase_fail(). */
typedef int (*wl_visit_fn)(struct phase_ctx *ctx, int dirfd, const char *path,
                           const struct wl_list *l, unsigned depth, void *arg);

struct wl_walk {
    wl_visit_fn visit; /* each directory, before its subdirectories (may be NULL) */
    wl_visit_fn leave; /* each directory, after its subdirectories (may be NULL) */
    bool stat_all;     /* lstat every entry (sizes; "find -ls") */
    bool rmdirs;       /* rmdir each subdirectory once walked (visit emptied it) */
    bool count_dirs;   /* count the subdirectories in ctx->res->dirs */
    bool shallow;      /* the root only: no descent into subdirectories */
    bool native_order; /* entries in the order the file system lists them (readdir's), not
                          by name: what a program walking with readdir sees */
    void *arg;
};

/* Walks directory `name` under dirfd depth first (its fd opened through the engine), the
 * root included as depth 0. `path` names it in messages. Checks phase_check_interrupt per
 * directory. 0, or -1 after phase_fail(). */
int wl_walk(struct phase_ctx *ctx, int dirfd, const char *name, const char *path,
            const struct wl_walk *wk);

/* mkdir that accepts an existing directory: 0 or -errno. */
int wl_mkdir_p(struct phase_ctx *ctx, int dirfd, const char *name);

/* Writes `size` bytes of a deterministic pattern to fd through the engine, in pieces of
 * at most the pattern's length. 0 or -errno. */
int wl_write_pattern(struct phase_ctx *ctx, int fd, uint64_t size, uint64_t salt);

/* A read-only pattern of WL_PATTERN_LEN bytes (odd, so repeats do not align to blocks). */
#define WL_PATTERN_LEN ((size_t)65521)
const unsigned char *wl_pattern(void);

/* The `layout` phase (phase_layout.c): scans the workspace's "tree", counts its files in
 * res->files, puts score and key numbers into res->note; skipped with a note where FIEMAP is
 * unsupported or the engine does not touch the file system. 0, or -1 (res->status/note set). */
int phase_layout(struct phase_ctx *ctx);
/* Copies the result of the last phase_layout() that scanned into out: 0, or -1 (no
 * message) when none has. */
int phase_layout_last(struct layout_result *out);

#endif
