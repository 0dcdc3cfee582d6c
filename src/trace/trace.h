/* trace.h — fsbench's trace of a real program: the kinds of call it holds, one decoded
 * call, the description of the whole trace and an entry of its initial state. What a
 * file holds and how (docs/trace-format.md) is in trace_codec.h, trace_write.h and
 * trace_read.h; this header is the vocabulary they share with the recorder and the replay.
 *
 * A trace names paths relative to the directory it was recorded below ("a/b", "." for
 * that directory itself): never absolute, never empty, no "." or ".." component, no empty
 * component, no NUL, shorter than TRACE_PATH_MAX. Descriptors are slots: the recorder gives
 * every descriptor the program opened below that directory a number (the lowest free one,
 * so slots stay few), and a replay maps each slot to a descriptor of its own. Errors are
 * stored as portable codes (enum trace_err), not as the recording system's errno numbers.
 */
#ifndef FSBENCH_TRACE_H
#define FSBENCH_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Limits every trace keeps (the reader refuses more). */
#define TRACE_PATH_MAX 4096           /* bytes of a path, NUL excluded: below this */
#define TRACE_THREADS_MAX (1u << 20)  /* recorded threads (each process or thread) */
#define TRACE_SLOTS_MAX (1u << 20)    /* descriptors open at once */
#define TRACE_IO_MAX ((uint64_t)1 << 31) /* bytes of one read or write */
#define TRACE_SIZE_MAX ((uint64_t)1 << 50) /* a file of the initial state, an offset */
#define TRACE_TEXT_MAX 65536          /* the command line, the strace version */
/* The longest think time a replay waits (original timing): a longer one (a program that
 * slept, or a crafted trace) is cut to this, and the replay's note says how many were. */
#define TRACE_THINK_MAX_NS ((uint64_t)60 * 1000000000u)
/* Format 5's think time per process: at most so many processes and threads (a trace with
 * more keeps one scale for all). */
#define TRACE_PROCS_MAX 4096u
#define TRACE_PROC_THREADS_MAX 16384u

/* The kinds of record. The numbers are part of the file format (version 3; version 2 had
 * every kind but TK_CHAN, TK_WAIT and TK_AWAY, version 1 also no TK_MMAP, and a reader
 * takes all three): never reuse
 * one. Kinds below TRACE_KIND_IMPLICIT are calls the program made; the others are what
 * the recorder adds so a replay can follow processes and descriptors. */
enum trace_kind {
    TK_NONE = 0,
    TK_OPEN = 1,       /* open, openat, openat2, creat: path flags mode -> slot */
    TK_CLOSE,          /* slot */
    TK_READ,           /* read, readv: slot size */
    TK_PREAD,          /* pread64, preadv: slot size off */
    TK_WRITE,          /* write, writev: slot size */
    TK_PWRITE,         /* pwrite64, pwritev: slot size off */
    TK_LSEEK,          /* slot soff flags(whence) -> offset */
    TK_GETDENTS,       /* getdents64: slot size -> bytes */
    TK_FSYNC,          /* slot */
    TK_FDATASYNC,      /* slot */
    TK_SYNC_RANGE,     /* sync_file_range: slot off size(len) flags */
    TK_FALLOCATE,      /* slot flags(mode) off size(len) */
    TK_FTRUNCATE,      /* slot size */
    TK_FSTAT,          /* fstat, fstatat/statx of "" with AT_EMPTY_PATH: slot */
    TK_FSTATFS,        /* slot */
    TK_FCHMOD,         /* slot mode */
    TK_FCHOWN,         /* slot */
    TK_FUTIMENS,       /* futimens (utimensat of a descriptor): slot flags */
    TK_DUP,            /* dup, dup2, dup3, fcntl F_DUPFD*: slot -> slot */
    TK_SETFL,          /* fcntl F_SETFL: slot flags (TRO_APPEND, TRO_NONBLOCK, ...) */
    TK_SYNCFS,         /* slot */
    TK_SYNC,           /* sync */
    TK_STAT,           /* stat, lstat, fstatat, statx: path flags */
    TK_ACCESS,         /* access, faccessat: path mode */
    TK_STATFS,         /* path */
    TK_MKDIR,          /* path mode */
    TK_RMDIR,          /* rmdir, unlinkat AT_REMOVEDIR: path */
    TK_UNLINK,         /* path */
    TK_RENAME,         /* rename, renameat, renameat2: path path2 flags */
    TK_LINK,           /* link, linkat: path(old) path2(new) */
    TK_SYMLINK,        /* symlink, symlinkat: path2(target, any text) path(the link) */
    TK_READLINK,       /* path size -> bytes */
    TK_CHMOD,          /* chmod, fchmodat: path mode */
    TK_CHOWN,          /* chown, lchown, fchownat: path */
    TK_UTIMENS,        /* utimensat, utimes: path flags */
    TK_TRUNCATE,       /* path size */
    TK_COPY,           /* copy_file_range, sendfile: slot(in) slot2(out) size flags off off2 */
    TK_MMAP,           /* mmap of a descriptor (format 2): slot size(len) off flags(TRM_*) */
    TK_CALL_KINDS,     /* (end of the calls) */
    TRACE_KIND_IMPLICIT = 64,
    TK_SPAWN = 64,     /* a new thread or process: thread(the new one) aux(its creator) */
    TK_EXIT,           /* a thread ended: thread */
    TK_INHERIT,        /* a child's copy of a parent descriptor (fork): slot -> slot */
    TK_DROP,           /* a descriptor closed by exit, execve (close-on-exec) or close_range */
    TK_CHAN,           /* (format 3) bytes through a pipe or socket pair between the program's
                        * threads: size(bytes) off(the channel) flags(TRP_*) */
    TK_WAIT,           /* (format 3) a wait of thread for its child aux that had ended */
    TK_AWAY,           /* format 3, just before a call of thread: of the time since the
                        * thread's last call (or its spawn), dur the part it was blocked, not
                        * working (wait4, waitid, select, poll, a sleep, a pipe's or socket's
                        * read or write, a vfork), and size the calls the tracer stopped it
                        * at that the trace does not hold (each costs a tracer's gap) */
    TRACE_KIND_END     /* (end of every kind) */
};

/* Fields a kind carries, in this order in a record (trace_codec.c). */
enum {
    TF_PATH = 1u << 0,
    TF_PATH2 = 1u << 1,
    TF_SLOT = 1u << 2,
    TF_SLOT2 = 1u << 3,
    TF_SIZE = 1u << 4,
    TF_OFF = 1u << 5,
    TF_OFF2 = 1u << 6,
    TF_SOFF = 1u << 7, /* a signed offset (lseek) */
    TF_FLAGS = 1u << 8,
    TF_MODE = 1u << 9,
    TF_AUX = 1u << 10,
};

/* What a kind's result means when it is >= 0. */
enum trace_result {
    TR_NONE,  /* 0 (success) */
    TR_COUNT, /* bytes moved or listed: a replay compares it exactly */
    TR_OFFSET,/* a file offset (lseek): compared exactly */
    TR_SLOT,  /* the new descriptor's slot */
};

/* Portable open flags (TK_OPEN's flags; TK_SETFL takes APPEND, NONBLOCK, DIRECT, NOATIME). */
enum {
    TRO_ACCMODE = 3, /* 0 read only, 1 write only, 2 read and write */
    TRO_WRONLY = 1,
    TRO_RDWR = 2,
    TRO_CREAT = 1u << 2,
    TRO_EXCL = 1u << 3,
    TRO_TRUNC = 1u << 4,
    TRO_APPEND = 1u << 5,
    TRO_DIRECTORY = 1u << 6,
    TRO_NOFOLLOW = 1u << 7,
    TRO_SYNC = 1u << 8,
    TRO_DSYNC = 1u << 9,
    TRO_DIRECT = 1u << 10,
    TRO_NONBLOCK = 1u << 11,
    TRO_TMPFILE = 1u << 12,
    TRO_PATH = 1u << 13,
    TRO_NOATIME = 1u << 14,
    TRO_CLOEXEC = 1u << 15, /* for the recorder's bookkeeping; a replay ignores it */
    TRO_ALL = (1u << 16) - 1,
};

/* Other kinds' flags. */
enum {
    TRS_NOFOLLOW = 1,                /* TK_STAT: lstat, AT_SYMLINK_NOFOLLOW */
    TRR_NOREPLACE = 1,               /* TK_RENAME */
    TRR_EXCHANGE = 2,
    TRR_WHITEOUT = 4,
    TRU_TIMES = 1,                   /* TK_UTIMENS, TK_FUTIMENS: times given, not "now" */
    TRF_KEEP_SIZE = 1,               /* TK_FALLOCATE */
    TRF_PUNCH_HOLE = 2,
    TRF_ZERO_RANGE = 4,
    TRF_OTHER = 8,                   /* collapse, insert, unshare: replayed as plain */
    TRY_WAIT_BEFORE = 1,             /* TK_SYNC_RANGE: Linux's own values */
    TRY_WRITE = 2,
    TRY_WAIT_AFTER = 4,
    TRC_IN_OFF = 1,                  /* TK_COPY: off is the input's offset */
    TRC_OUT_OFF = 2,                 /*          off2 is the output's */
    TRC_SENDFILE = 4,                /* it was sendfile */
    TRM_READ = 1,                    /* TK_MMAP: PROT_READ (or PROT_EXEC) */
    TRM_WRITE = 2,                   /*          PROT_WRITE */
    TRM_SHARED = 4,                  /*          MAP_SHARED: writes reach the file */
    TRP_WRITE = 1,                   /* TK_CHAN: bytes written (else read) */
    TRP_SOCKET = 2,                  /*          a socket pair's (else a pipe's) */
};
/* The kinds a trace of format 1 holds (TK_MMAP came with format 2). */
#define TRACE_V1_CALL_KINDS 38u

/* TK_LSEEK whence values. */
enum { TRW_SET, TRW_CUR, TRW_END, TRW_DATA, TRW_HOLE, TRW_COUNT };

/* Portable error codes: a result < 0 is -code. */
enum trace_err {
    TE_OK = 0,
    TE_PERM, TE_NOENT, TE_SRCH, TE_INTR, TE_IO, TE_NXIO, TE_2BIG, TE_NOEXEC, TE_BADF,
    TE_CHILD, TE_AGAIN, TE_NOMEM, TE_ACCES, TE_FAULT, TE_BUSY, TE_EXIST, TE_XDEV, TE_NODEV,
    TE_NOTDIR, TE_ISDIR, TE_INVAL, TE_NFILE, TE_MFILE, TE_NOTTY, TE_TXTBSY, TE_FBIG, TE_NOSPC,
    TE_SPIPE, TE_ROFS, TE_MLINK, TE_PIPE, TE_RANGE, TE_NAMETOOLONG, TE_NOSYS, TE_NOTEMPTY,
    TE_LOOP, TE_NODATA, TE_OVERFLOW, TE_OPNOTSUPP, TE_DQUOT, TE_STALE, TE_NOTSUP,
    TE_OTHER, /* an error this table does not name */
    TE_COUNT
};

/* One record, decoded. Unused fields are 0; path and path2 point into the decoder's buffer
 * (valid until its next record) or the caller's storage when encoding. */
struct trace_call {
    uint8_t kind;
    uint32_t thread;    /* recorded thread index, 0 .. nthreads-1 */
    uint64_t start_ns;  /* from the start of the recording */
    uint64_t dur_ns;
    int64_t result;     /* >= 0 as enum trace_result says, or -enum trace_err */
    uint32_t slot, slot2;
    uint64_t size, off, off2;
    int64_t soff;
    uint32_t flags, mode, aux;
    const char *path, *path2;
    uint32_t path_len, path2_len;
};

/* Entry types of the initial state. */
enum { TT_REG = 1, TT_DIR = 2, TT_SYMLINK = 3 };

/* One path of the initial state: what existed below the directory before the program
 * started, and the program used. Entries come sorted by path (byte order), so a
 * directory comes before everything below it. */
struct trace_entry {
    const char *path;
    uint32_t path_len;
    uint8_t type;
    uint32_t mode;      /* permission bits (07777) */
    uint64_t size;      /* a file's bytes (a symlink's: its target's length) */
    const char *target; /* a symlink's target (any text), else NULL */
    uint32_t target_len;
};

/* Format 5: one process of the recorded program (its threads share it) and the think time
 * given to it from its own CPU time run untraced (record --untraced-run). */
struct trace_proc {
    uint32_t leader;     /* the recorded thread that leads it */
    char comm[16];       /* its command name (the kernel's comm; "" when not seen) */
    uint64_t cpu_ns;     /* its CPU time in the untraced run (0: no process matched) */
    uint64_t think_ns;   /* its think time in all: over its threads' gaps (their scale),
                          * and tail_ns of it over its leader's life */
    uint64_t tail_ns;    /* what its gaps could not hold (a process that makes no call:
                          * all of it), worked on its leader's thread over its life,
                          * beside the others */
    uint64_t span_ns;    /* its leader's life: from its spawn (or the start) to its exit */
};

/* The classes of call a table prices (each kind of call counts in one). */
enum trace_calib_class {
    CAL_OPEN,     /* open of an existing file */
    CAL_CREATE,   /* open that creates the file */
    CAL_CLOSE,
    CAL_STAT,     /* a lookup by path: stat, access, readlink, a failed open */
    CAL_FSTAT,    /* a call on a descriptor that moves no data: fstat, lseek, dup, fcntl */
    CAL_READ,     /* read, pread, a mapped range (its call; the bytes below) */
    CAL_WRITE,    /* write, pwrite (its call; the bytes below) */
    CAL_GETDENTS, /* one getdents64 of a 32 KiB buffer */
    CAL_MKDIR,
    CAL_RMDIR,
    CAL_UNLINK,
    CAL_RENAME,   /* rename, link, symlink */
    CAL_FSYNC,    /* fsync, fdatasync, sync_file_range, syncfs, sync */
    CAL_SETATTR,  /* chmod, chown, utimens, truncate, fallocate and their descriptor kin */
    CAL_CLASSES
};

/* What each class of call costs a replay on the recording's machine and file system
 * (trace_calib.h; format 6). */
struct trace_calib {
    uint64_t call_ns[CAL_CLASSES]; /* CPU time per call, user and kernel */
    uint64_t read_ns_per_mib;      /* and per MiB moved, read and written */
    uint64_t write_ns_per_mib;
};

/* What a trace holds, from its info section (trace_read.h). */
struct trace_info {
    char *command;              /* the recorded command line, shell-quoted (owned) */
    char *root;                 /* the directory it was recorded below (owned) */
    char *tracer;               /* the strace version line (owned) */
    uint64_t started_unix_ns;   /* wall clock at the start */
    uint64_t duration_ns;       /* first call's start to the last call's end */
    uint32_t nthreads;          /* threads and processes (recorded thread indices) */
    uint32_t nslots;            /* slots used (the highest + 1) */
    uint32_t max_concurrency;   /* most threads alive at once */
    uint64_t max_io;            /* the largest read, write or copy, bytes */
    uint64_t ncalls;            /* call records (kinds below TRACE_KIND_IMPLICIT) */
    uint64_t nrecords;          /* every record */
    uint64_t left_outside;      /* calls on paths or descriptors outside the directory */
    uint64_t left_prestart;     /* calls on descriptors opened before the start */
    uint64_t left_other;        /* lines the recorder could not use (unsupported forms) */
    uint64_t tracer_gap_ns;     /* the tracer's own time between two calls: taken off each
                                 * gap to give the program's think time (trace_record.h) */
    uint64_t tracer_dur_ns;     /* what the tracer adds to a call's duration */
    uint64_t calib_gap_ns;      /* the calibration's mean gap (cat, traced as recorded) */
    uint64_t gap_p10_ns;        /* the quickest tenth of this trace's gaps, and the
                                 * calibration's: their ratio is how much busier the
                                 * recording was than the calibration */
    uint64_t calib_p10_ns;
    uint64_t think_scale_ppm;   /* think time = (gap - tracer_gap) x this / 1e6 (<= 1e6) */
    uint64_t mirror_gap_ns;     /* the mean gap of a replay of this trace, traced the same
                                 * way (0: not measured); the tracer's gap when measured */
    uint64_t mirror_calls;      /* the calls that replay made */
    uint64_t quick_ns;          /* the mean duration of this trace's quick calls (close,
                                 * fstat, lseek), and that replay's: the tracer's round
                                 * trip at each moment (0: not measured) */
    uint64_t mirror_quick_ns;
    uint64_t cpu_ns;               /* the program's CPU time, user and kernel (its processes
                                    * and the children they waited for; 0: not known) */
    uint64_t mirror_cpu_ns;        /* that of the traced replay of mirror_calls calls */
    uint64_t think_ns;             /* the sum of the think times (trace_record.h; 0: the gaps
                                    * less the tracer's part) */
    /* Format 4: record --untraced-run ran the program once untraced first (0 where it did
     * not, and in older formats). think_ns is then plain_cpu_ns less plain_replay_cpu_ns
     * (scaled to all calls) where those are known. */
    uint64_t plain_cpu_ns;         /* the untraced run's CPU time, user and kernel */
    uint64_t plain_wall_ns;        /* its wall-clock time */
    uint64_t plain_replay_cpu_ns;  /* an untraced replay's CPU for plain_replay_calls calls */
    uint64_t plain_replay_calls;
    /* Format 6: the calls priced one by one (record --untraced-run): the table measured on
     * the recording's machine and file system, and what it says a replay spends on all the
     * calls (calib_calls_ns). Where plain_replays equals plain_runs, each run was
     * followed by its replay and plain_replay_cpu_ns (the kept run's replay's, for all
     * plain_replay_calls = ncalls calls) is taken off plain_cpu_ns; else the larger of it
     * (the least of the replays) and calib_calls_ns. All 0: not measured. */
    struct trace_calib calib;
    uint64_t calib_calls_ns;
    uint64_t plain_runs;           /* the untraced runs made (plain_cpu_ns: the kept one's) */
    uint64_t plain_replays;        /* the untraced replays made (0: none) */
    /* Format 5 (0 / NULL where the think time is not given per process): the program's
     * processes, and for each recorded thread its process (an index of procs) and the
     * scale of its think times (in place of think_scale_ppm). Owned. */
    uint32_t nprocs;
    struct trace_proc *procs;
    uint32_t nthread_think;        /* nthreads, or 0 */
    uint32_t *thread_proc;
    uint32_t *thread_scale_ppm;
    uint64_t count[TK_CALL_KINDS]; /* calls per kind */
    uint64_t bytes_read, bytes_written;
    uint64_t nstate;            /* entries of the initial state */
    uint64_t state_bytes;       /* their sizes added up */
    uint32_t format;            /* the file's format version (the reader sets it; a writer
                                 * given 1 writes format 1, for tests; 0: the current) */
};

/* The name of a kind ("open", "rename", "spawn"); "?" for none. */
const char *trace_kind_name(unsigned kind);
/* The kind named name (calls only), or TK_NONE. */
unsigned trace_kind_find(const char *name);
/* Whether kind is one a file may hold. */
bool trace_kind_valid(unsigned kind);
/* The fields (TF_*) and the result meaning of a kind (0 / TR_NONE for an invalid one). */
unsigned trace_kind_fields(unsigned kind);
enum trace_result trace_kind_result(unsigned kind);
/* All three in one look-up, for a decoder's hot path: TRACE_SHAPE_VALID where the kind is
 * one a file may hold, its fields in the low 16 bits, its result meaning above them (0 for
 * an invalid kind). */
#define TRACE_SHAPE_VALID (1u << 31)
#define TRACE_SHAPE_FIELDS(s) ((s) & 0xffffu)
#define TRACE_SHAPE_RESULT(s) ((enum trace_result)(((s) >> 16) & 0xffu))
uint32_t trace_kind_shape(unsigned kind);

/* The portable code of the system's errno e (TE_OTHER for one the table lacks). */
enum trace_err trace_err_from_errno(int e);
/* The system's errno for a code (EIO for TE_OTHER and unknown codes). */
int trace_err_to_errno(unsigned code);
/* The code named by its errno name ("ENOENT"), or TE_OTHER. */
enum trace_err trace_err_from_name(const char *name);
/* "ENOENT"; "E?" for TE_OTHER and unknown codes. */
const char *trace_err_name(unsigned code);

/* The bytes a call read (*rd) and wrote (*wr): its result when it succeeded, for read,
 * pread (read), write and pwrite (written), copy (both); else 0. */
static inline void trace_call_bytes(const struct trace_call *c, uint64_t *rd, uint64_t *wr)
{
    uint64_t n = c->result > 0 ? (uint64_t)c->result : 0;
    *rd = *wr = 0;
    switch (c->kind) {
    case TK_READ:
    case TK_PREAD: *rd = n; break;
    case TK_WRITE:
    case TK_PWRITE: *wr = n; break;
    case TK_COPY: *rd = *wr = n; break;
    default: break;
    }
}
/* The think time before a call (the program's own work, what a replay with original timing
 * spends): gap, the time since the end of the thread's last call (or its spawn), less
 * away_ns, what the thread waited in it (TK_AWAY: for a child, a pipe), and less the
 * tracer's gap (in->tracer_gap_ns) for the call's own stop and each of away_stops others,
 * scaled by in->think_scale_ppm; 0 where nothing is left. Not cut to TRACE_THINK_MAX_NS. */
uint64_t trace_think_ns(const struct trace_info *in, uint64_t gap, uint64_t away_ns,
                        uint64_t away_stops);
/* The same for a call of recorded thread thread: its process's scale where the trace gives
 * one per process (format 5), else the trace's. */
uint64_t trace_thread_think_ns(const struct trace_info *in, uint32_t thread, uint64_t gap,
                               uint64_t away_ns, uint64_t away_stops);
/* The think time of thread's process its gaps could not hold (format 5: its tail_ns, where
 * thread leads it; 0 for others): in all, the part worked before a record of thread at
 * `at` ns whose previous record (or spawn) was at prev (the tail spread over the leader's
 * life, span_ns, in proportion to the time; at its exit, end, what is left), *spent
 * keeping the part given so far. */
uint64_t trace_exit_think_ns(const struct trace_info *in, uint32_t thread);
uint64_t trace_tail_think_ns(const struct trace_info *in, uint32_t thread, uint64_t prev,
                             uint64_t at, bool end, uint64_t *spent);
/* Whether p (n bytes) is a path a trace may hold (the rules at the top). */
bool trace_path_valid(const char *p, size_t n);
/* n with thousands separated by commas ("41,200") into buf: returns buf. */
char *trace_count_str(uint64_t n, char *buf, size_t len);
/* Frees the strings and tables of info. */
void trace_info_free(struct trace_info *info);

#endif
