/* strace_parse.h — reading strace's output, one line at a time, as `fsbench record` runs
 * it: `strace -f -q --absolute-timestamps=format:unix,precision:ns --syscall-times=ns -y
 * -xx -s 0 -e signal=none -e abbrev=!socketpair`, so every line starts with a thread id and a time, every string
 * is hex escapes ("\x2f\x61"), every descriptor carries its path ("3</tmp/a>",
 * "AT_FDCWD</tmp>"), data buffers are left out ("...") and durations are in ns.
 *
 * Only the shape of a line is read here (which call, its arguments as text spans, its
 * result and times); what a call means is the recorder's business (trace_record.c).
 * Everything is bounded by the line: a malformed line is reported as such, never read
 * past.
 */
#ifndef FSBENCH_STRACE_PARSE_H
#define FSBENCH_STRACE_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* strace's AT_FDCWD as a descriptor number (Linux's own value). */
#define STRACE_AT_FDCWD (-100L)
#define STRACE_ARGS_MAX 8

enum strace_line_kind {
    SL_BAD,        /* not a line strace writes with those options */
    SL_CALL,       /* name(args) = result <duration> */
    SL_UNFINISHED, /* name(args <unfinished ...>: the rest comes in a "resumed" line */
    SL_RESUMED,    /* <... name resumed>rest */
    SL_EXIT,       /* +++ exited with N +++ or +++ killed by SIGNAL +++ */
    SL_OTHER,      /* a line to ignore (a signal, "+++ superseded ...") */
};

/* A piece of the line. */
struct strace_span {
    const char *p;
    size_t n;
};

struct strace_line {
    enum strace_line_kind kind;
    long tid;
    uint64_t ts_ns;            /* the call's start (unix time, ns) */
    struct strace_span name;   /* the system call */
    struct strace_span args;   /* SL_CALL: between the parentheses; SL_UNFINISHED: after
                                * '(' up to " <unfinished ...>"; SL_RESUMED: the rest of
                                * the line after "resumed>" */
    bool ret_known;            /* false for "= ?" */
    int64_t ret;               /* the result (-1 with err set for a failure) */
    struct strace_span ret_decor; /* "</path>" after a descriptor result, or empty */
    char err[24];              /* "ENOENT", "ERESTARTSYS", or "" */
    uint64_t dur_ns;           /* the duration, 0 when not shown */
};

/* Parses the line of n bytes at s (no newline) into *l. l->kind is SL_BAD when it is not
 * a line of the expected form; the spans point into s. */
void strace_parse_line(const char *s, size_t n, struct strace_line *l);

/* Splits a call's argument text at its top-level commas (not inside quotes, parentheses,
 * brackets, braces or a descriptor's <path>): the number of arguments (at most max are
 * stored), or -1 when the text is unbalanced. Spans are trimmed of blanks. */
int strace_split_args(struct strace_span args, struct strace_span *out, int max);

/* A quoted string argument ("\x2f\x61") decoded into out (cap bytes, NUL-terminated): its
 * length, or -1 when it is not a string, was cut short by strace ("..."), or is cap bytes
 * or longer. NULL (strace's word) is -2. */
long strace_arg_string(struct strace_span a, char *out, size_t cap);
/* A descriptor argument: "3</path>", "AT_FDCWD</dir>", "3", "AT_FDCWD", "-1". *fd gets its
 * number (STRACE_AT_FDCWD for AT_FDCWD); its decoded path, if shown, goes to path (cap
 * bytes; "" when not shown) and *deleted says whether strace marked it "(deleted)".
 * 0, or -1 when it is no descriptor. */
int strace_arg_fd(struct strace_span a, long *fd, char *path, size_t cap, bool *deleted);
/* A number: decimal, negative, 0x hex, or 0-prefixed octal (modes). 0, or -1. */
int strace_arg_num(struct strace_span a, int64_t *v);

/* A flag word ("O_WRONLY|O_CREAT|0x80000") mapped through a table ending with {NULL}:
 * the bits of every name found; names and numbers not in it are ignored. */
struct strace_flag {
    const char *name;
    uint32_t bits;
};
uint32_t strace_arg_flags(struct strace_span a, const struct strace_flag *table);
/* Whether the flag word a holds the name flag. */
bool strace_arg_has(struct strace_span a, const char *flag);

/* A span equal to the C string s? */
bool strace_span_is(struct strace_span a, const char *s);

#endif
