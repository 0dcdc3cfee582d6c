/* results.h — the data model of a measurement: what one phase of one run measured,
 * and the run set that holds all runs of one `fsbench run` invocation.
 *
 * Shared by the runner (fills it), report backends (print it), the JSON codec and the
 * store (persist it) and the statistics (summarise it). Plain structs, no behaviour;
 * helpers that operate on them live in results.c.
 */
#ifndef FSBENCH_RESULTS_H
#define FSBENCH_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Operation kinds counted (and timed) by the engines. Keep op_kind_name() in step. */
enum op_kind {
    OP_MKDIR,
    OP_CREATE,   /* openat(O_CREAT) of a new file */
    OP_WRITE,    /* one write() call */
    OP_OPEN,     /* openat of an existing file or directory */
    OP_READ,     /* one read() call */
    OP_CLOSE,
    OP_STAT,     /* fstatat/statx */
    OP_READDIR,  /* one getdents64 call */
    OP_UNLINK,
    OP_RMDIR,
    OP_RENAME,
    OP_FSYNC,
    OP_SYNCFS,
    OP_SYMLINK,
    OP_READLINK,
    OP_LINK,
    OP_COPY,     /* one copy_file_range call */
    OP_SETATTR,  /* fchmod/futimens/utimensat */
    OP_SEEK,     /* lseek (a replayed trace) */
    OP_FCNTL,    /* dup, fcntl (a replayed trace) */
    OP_KINDS
};

const char *op_kind_name(enum op_kind k);

/* Latency percentiles reported per op kind (nanoseconds). */
struct lat_summary {
    uint64_t count;
    uint64_t min_ns, p50_ns, p90_ns, p99_ns, p999_ns, max_ns;
    double mean_ns;
};

/* Block-device counters over a phase (from /sys/dev/block/M:m/stat). */
struct dev_io {
    bool valid;                 /* false: no block device behind the target (tmpfs) */
    uint64_t rd_ios, rd_sectors, wr_ios, wr_sectors;
    uint64_t io_ticks_ms;       /* time the device was busy */
};

/* One point of the progress time line: cumulative ops and bytes at t seconds, and when
 * the phase's timeline_dev is set, the target's block device at that moment: sectors
 * read and written and busy time since the phase began, requests in flight now. */
struct timeline_point {
    double t;
    uint64_t ops;
    uint64_t bytes;
    uint64_t dev_rd_sectors, dev_wr_sectors, dev_busy_ms;
    uint64_t dev_inflight;
};

/* One stall: a span of at least --stall seconds in which the phase made no progress or
 * progressed at under a fraction (5 %) of its median rate (measure/stall.h). */
struct stall {
    double start_s;             /* offset from the phase's start */
    double length_s;
    uint64_t ops;               /* operations completed during it */
    /* the device during the stall (valid when the phase's timeline_dev is set) */
    uint64_t dev_rd_sectors, dev_wr_sectors, dev_busy_ms, dev_inflight_max;
};

enum phase_status { PHASE_OK = 0, PHASE_SKIPPED, PHASE_FAILED };

/* One rank's own figures for a phase run on several ranks (MPI, src/mpi/): its wall time
 * from the common start (after the barrier) to its own end, and what it did. */
struct rank_result {
    double wall_s;
    uint64_t ops_total;
    uint64_t bytes;             /* read + written */
    uint64_t entries;           /* files, dirs and symlinks handled */
    enum phase_status status;
};

#define RES_NAME_MAX 64
#define RES_NOTE_MAX 512
#define RES_JOB_MAX 32768
#define RES_ARGS_MAX 8192

/* Free space measured around aging (measure/freefrag.h's figures, flattened): known with
 * its source, or unknown with the reason. */
struct age_free_figures {
    bool known;
    char source[16];            /* GETFSMAP, e2freefrag, xfs_db */
    char why[192];              /* unknown: why */
    uint64_t extents, bytes, largest;
    double small_share;         /* share of free bytes in extents under 1 MiB */
};

/* One repetition of aging by replay: what it wrote, the distance after it (-1: no profile). */
struct age_rep_figure {
    uint64_t bytes_written;
    double distance;
};

/* One bucket of the distributions the repetitions left: its dimension (0 sizes, 1 ages,
 * 2 depths), lower bound (bytes, seconds, depth), the profile's share (-1: no profile) and
 * the share now. */
struct age_bucket_figure {
    unsigned dim;
    uint64_t from;
    double target, now;
};

#define AGE_BUCKET_FIGURES 48

/* What aging measured, for the run's JSON and the store: by replay (--age-replay; the
 * phase's age_replay) or by a profile's engine (--age-profile; the phase's age_profile, with
 * the same figures but no trace or repetitions: trace "", nreps 0, and ops instead). */
struct age_replay_result {
    char trace[RES_NAME_MAX];   /* the trace's file name; "" for profile aging */
    char profile[RES_NAME_MAX]; /* "" without --age-profile */
    char stop[48];              /* "converged", "repetitions done", ... */
    unsigned first, last;       /* repetition numbers (r0001 ...) of this phase */
    uint64_t bytes_written;     /* by all its repetitions (profile aging: by its ops) */
    uint64_t ops;               /* profile aging: the operations it made (replay: 0) */
    double fs_bytes, fullness;  /* the file system's size; its fullness at the end (0..1) */
    struct age_free_figures free_before, free_after;
    uint64_t files;             /* files the repetitions left */
    double distance;            /* from the profile at the end, -1 without one */
    double dim_distance[3];     /* sizes, ages, depths */
    struct age_bucket_figure buckets[AGE_BUCKET_FIGURES];
    size_t nbuckets;
    struct age_rep_figure *reps; /* owned; one per repetition, in order */
    size_t nreps;
};

struct phase_result {
    char name[RES_NAME_MAX];
    enum phase_status status;
    char note[RES_NOTE_MAX];    /* why skipped / first failure "create tree/a/b: No space left" */

    double wall_s, user_s, sys_s;
    uint64_t ops[OP_KINDS];
    uint64_t ops_total;
    uint64_t bytes_read, bytes_written;
    uint64_t files, dirs, symlinks; /* entries the phase handled */

    /* getrusage deltas (self + waited-for children) */
    long nvcsw, nivcsw, majflt, minflt, inblock, oublock;
    /* /proc/self/io deltas */
    uint64_t io_read_bytes, io_write_bytes;
    struct dev_io dev;

    struct lat_summary lat[OP_KINDS];

    struct timeline_point *timeline; /* owned; may be NULL */
    size_t timeline_len;
    bool timeline_dev;          /* the points carry device counters */
    double longest_stall_s;     /* longest interval with no progress */
    struct stall *stalls;       /* owned; may be NULL; in order of start */
    size_t nstalls;

    /* Run on several ranks (MPI): every rank's own figures (owned; NULL otherwise). The
     * phase's other figures are then the aggregate: wall from the common start to the last
     * rank's end, counts summed over ranks; latency and time line are rank 0's. */
    struct rank_result *ranks;
    size_t nranks;
    bool stonewalled;           /* --stonewall stopped ranks before they finished */

    /* Aging by replay's own figures (owned; NULL for every other phase). */
    struct age_replay_result *age_replay;
    /* Profile aging's own figures (--age-profile; owned; NULL for every other phase). */
    struct age_replay_result *age_profile;
};

/* All phases of one run, in order. */
struct run_result {
    unsigned index;             /* 0-based run number within the set */
    unsigned round;             /* round the run belonged to (configurations interleaved) */
    char config[RES_NAME_MAX];  /* configuration name, "" for the default */
    bool warmup;                /* discarded from statistics */
    bool interrupted;           /* stopped by a signal: a resumed set runs it again */
    double started;             /* UNIX time */
    struct phase_result *phases;
    size_t nphases;
};

struct tree_info {
    char profile[RES_NAME_MAX];
    double scale;
    uint64_t seed;
    uint64_t files, dirs, symlinks, bytes;
};

struct machine_info {
    char hostname[128];
    char kernel[128];           /* uname -r */
    char kernel_version[256];   /* uname -v */
    char arch[32];
    char cpu[128];
    int ncpu;
    uint64_t ram_bytes;
    /* kernel settings that change file-system results; -1 when unreadable */
    long dirty_ratio, dirty_background_ratio, dirty_bytes, dirty_background_bytes;
    long dirty_expire_centisecs, dirty_writeback_centisecs, vfs_cache_pressure;
};

struct target_info {
    char path[4096];
    char fstype[64];
    char mount_point[4096];
    char mount_opts[1024];
    char device[256];           /* "/dev/loop0", or the mount source, or "" */
    char blockdev[64];          /* sysfs name used for device I/O ("loop0"), "" if none */
    /* What the runs ran on: "directory", "image" (made by fsbench) or "device" (the
     * user's, mkfs'ed); "" in sets stored before it was kept. */
    char kind[16];
    /* The configurations as declared, one per line: the first is compare's baseline
     * (runs are made in a random order in each round, so run order cannot tell). */
    char configs[2048];
};

/* How a run set was run on several ranks (MPI); count 0: one process. */
struct ranks_info {
    unsigned count;             /* ranks (MPI processes) */
    unsigned nodes;             /* distinct nodes (shared-memory domains) */
    char placement[16];         /* "unique" (DIR/rank.N each) or "shared" (one tree) */
    unsigned shift;             /* --rank-shift: rank r read rank (r+shift) mod count's tree */
    double stonewall_s;         /* --stonewall; 0: none */
};

/* How a set decided when to stop, when it looked at its own results after every round:
 * --runs until-verdict (until every phase has a verdict) or --runs auto (until the
 * intervals are narrow: precision only). compare then analyses its paired comparisons with
 * the sequential method, whose intervals and p-values allow for the looking. method ""
 * for a set of a fixed size. */
struct stop_rule {
    char rule[16];       /* "until-verdict" or "auto" */
    char method[32];     /* the analysis: "mixture-sprt" */
    char metric[16];     /* the metric it looked at: "wall" */
    double confidence;   /* 0.95 */
    double min_effect;   /* the effect of interest: futile when shown below it (0.10) */
    double negligible_s; /* a phase whose median is below this on both sides is negligible
                          * (stats/negligible.h); 0: off, as for sets made before it */
    double mixture_var;  /* the mixture's variance (seqtest.h) */
    unsigned max_rounds; /* the planned horizon: most counted rounds (--max-runs) */
};

/* One KEY=VALUE the user attached to a set (fsbench run --meta commit=abc123): what the
 * set stands for in a series (a commit, its date, a kernel), for `fsbench history --by KEY`.
 * Keys: letters, digits, '.', '_', '-'; values: printable text (results/meta.h checks). */
#define RES_META_MAX 16
#define RES_META_KEY_MAX 64
#define RES_META_VALUE_MAX 256
struct run_meta {
    char key[RES_META_KEY_MAX];
    char value[RES_META_VALUE_MAX];
};

/* What changes the work a configuration's runs did, beyond the tree and the phases (which
 * the set and its runs hold): kept as fields so that compare can tell different work apart
 * (stats/workdiff.h) without reading the command line. In the store they live in the set's
 * meta_json under the key "_work" (no --meta key can start with '_'), in JSON as "work". A
 * set made before they were kept has none (nwork 0): workdiff then reads its stored
 * arguments. */
#define RES_WORK_MAX 32
#define RES_MKFS_OPTS_MAX 256
/* The extract phase's calls: 2 since extract makes tar -x's owner, mode and time calls on
 * each entry (--extract-calls tar), 1 before (create, write and times only). */
#define RES_EXTRACT_VERSION 2
struct run_work {
    /* the configurations it is about: "" every one; "NAME" the configuration NAME and, for
     * jobs interleaved as configurations, every "NAME/..." of that job */
    char config[RES_NAME_MAX];
    unsigned threads;                 /* -j; 1 when not given */
    char mkfs_opts[RES_MKFS_OPTS_MAX];/* --mkfs-opts, "" none */
    char trace[RES_NAME_MAX];         /* the replayed trace's file name, "" none */
    uint64_t trace_calls;             /* its identity: the calls it holds ... */
    uint64_t trace_recorded_ns;       /* ... and when its recording began (UNIX ns) */
    char extract_calls[16];           /* "tar" or "create" (--extract-calls) */
    unsigned extract_version;         /* RES_EXTRACT_VERSION when made; 0 unknown */
};

/* A run set: every run of one invocation. */
struct run_set {
    int schema_version;
    char label[RES_NAME_MAX];
    char scenario[RES_NAME_MAX];
    char engine[64];
    char command_line[4096];
    double created;             /* UNIX time */
    bool root;                  /* ran as root */
    bool warm_cache;            /* caches could not be dropped */
    struct machine_info machine;
    struct target_info target;
    struct tree_info tree;
    /* The job file the set ran, after includes and ${} expansion ("" when none: the
     * command line alone), and its SHA-256 in hex. */
    char job_text[RES_JOB_MAX];
    char job_hash[65];
    struct ranks_info ranks;
    /* What finishes the set after an interrupt (`fsbench run --resume LABEL`; kept by the
     * store, not in JSON): the arguments of `fsbench run` that made it (a JSON array of
     * strings, options that say where results go left out; "" when it cannot be resumed),
     * the directory they ran in, and the runs it plans (0: unknown). */
    char args[RES_ARGS_MAX];
    char cwd[4096];
    unsigned planned;
    struct stop_rule stop;
    struct run_meta meta[RES_META_MAX]; /* in the order given */
    unsigned nmeta;
    struct run_work work[RES_WORK_MAX]; /* what changes the work, per configuration */
    unsigned nwork;
    /* What --keep-image left in place after the set: kind "image", "device" or "tree" and
     * its path ("" when nothing was kept). In JSON, not in the store. */
    char kept_kind[16];
    char kept_path[4096];
    struct run_result *runs;
    size_t nruns;
};

#define RESULTS_SCHEMA_VERSION 1

/* Allocation helpers; every function returns 0 or -1 after error(). */
struct run_result *run_set_add_run(struct run_set *rs, size_t nphases);
void run_set_free(struct run_set *rs);
void phase_result_free(struct phase_result *pr);
/* Frees a and its repetitions (NULL: nothing). */
void age_replay_result_free(struct age_replay_result *a);
/* A fresh copy of a with its own repetitions: NULL after error() (or for a NULL a). */
struct age_replay_result *age_replay_result_dup(const struct age_replay_result *a);
/* *dst = *src with its own copies of the owned arrays (time line, stalls, ranks, aging), so the two
 * are freed apart. 0, or -1 after error() with *dst holding no owned array. */
int phase_result_copy(struct phase_result *dst, const struct phase_result *src);

#endif
