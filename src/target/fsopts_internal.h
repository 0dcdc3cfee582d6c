/* fsopts_internal.h — the allow-list tables of fsopts.c (fsopts_tables.c holds them): an
 * option's name, the shape of its value and, for one never passed on, the reason.
 */
#ifndef FSBENCH_FSOPTS_INTERNAL_H
#define FSBENCH_FSOPTS_INTERNAL_H

/* The shape of an option's value. */
enum shape {
    S_NONE,    /* a flag: no value */
    S_REFUSED, /* never passed on: arg is the reason */
    S_UINT,    /* digits */
    S_INT,     /* digits, optionally after '-' */
    S_REAL,    /* digits with an optional fraction */
    S_SIZE,    /* digits with an optional unit letter: 4096, 64k, 1g (xfs: 8s, 2b) */
    S_BOOL,    /* 0 or 1 */
    S_HEX,     /* hexadecimal digits, optionally after 0x */
    S_OCTAL,   /* octal digits */
    S_LABEL,   /* a volume label of at most max characters */
    S_UUID,    /* 8-4-4-4-12 hexadecimal digits, or one of the words in arg */
    S_OWNER,   /* UID:GID */
    S_WORD,    /* one word of [A-Za-z0-9_.-] (a character set, a file-name extension) */
    S_CHOICE,  /* one of the words in arg */
    S_LIST,    /* comma-separated words of arg, each optionally after '^' (features) */
    S_COLONS,  /* colon-separated words of arg */
    S_WORDS,   /* comma-separated S_WORDs */
    S_SUBOPTS, /* comma-separated key[=value] of the sub-option table in arg */
};

enum {
    F_OPTIONAL = 1u << 0, /* sub-option or mount key: "key" alone, or "key=value" */
    F_CI = 1u << 1,       /* S_CHOICE, S_LIST: case does not matter */
    F_LEVEL = 1u << 2,    /* S_CHOICE: ":N" may follow the word (compress=zstd:3) */
};

struct opt {
    const char *name; /* "-b", "--nodesize"; a sub-option or mount key: "stride" */
    enum shape shape;
    unsigned flags;  /* F_* */
    const void *arg; /* S_CHOICE, S_LIST, S_COLONS, S_UUID: words (const char *const *);
                      * S_SUBOPTS: const struct opt *; S_REFUSED: the reason */
    unsigned max;    /* S_LABEL: most characters */
};

struct fsdef {
    const char *const *types; /* the --fs names sharing the tables */
    const struct opt *mkfs;   /* NULL-name ended */
    const struct opt *mount;  /* NULL-name ended */
};

/* Every file system fsbench knows options of, ending with types NULL. */
extern const struct fsdef fsopts_defs[];
/* Mount keys no type gets, whatever its table says: they would name what is mounted. */
extern const struct opt fsopts_mount_never[];

#endif
