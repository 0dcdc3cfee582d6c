/* fsopts_internal.h — the allow-list tables of fsopts.c (fsopts_tables.c holds them): an
 * option's name, the shape of its value and, for one never passed on, the reason.
 */
#ifndef FSBENCH_FSOPTS_INTERNAL_H
#define FSBENCH_FSOPTS_INTERNAL_H

/* The shape of an option's value. */
enum fsopt_shape {
    FSO_NONE,    /* a flag: no value */
    FSO_REFUSED, /* never passed on: arg is the reason */
    FSO_UINT,    /* digits */
    FSO_INT,     /* digits, optionally after '-' */
    FSO_REAL,    /* digits with an optional fraction */
    FSO_SIZE,    /* digits with an optional unit letter: 4096, 64k, 1g (xfs: 8s, 2b) */
    FSO_BOOL,    /* 0 or 1 */
    FSO_HEX,     /* hexadecimal digits, optionally after 0x */
    FSO_OCTAL,   /* octal digits */
    FSO_LABEL,   /* a volume label of at most max characters */
    FSO_UUID,    /* 8-4-4-4-12 hexadecimal digits, or one of the words in arg */
    FSO_OWNER,   /* UID:GID */
    FSO_WORD,    /* one word of [A-Za-z0-9_.-] (a character set, a file-name extension) */
    FSO_CHOICE,  /* one of the words in arg */
    FSO_LIST,    /* comma-separated words of arg, each optionally after '^' (features) */
    FSO_COLONS,  /* colon-separated words of arg */
    FSO_WORDS,   /* comma-separated FSO_WORDs */
    FSO_SUBOPTS, /* comma-separated key[=value] of the sub-option table in arg */
};

enum {
    FSO_OPTIONAL = 1u << 0, /* sub-option or mount key: "key" alone, or "key=value" */
    FSO_CI = 1u << 1,       /* FSO_CHOICE, FSO_LIST: case does not matter */
    FSO_LEVEL = 1u << 2,    /* FSO_CHOICE: ":N" may follow the word (compress=zstd:3) */
};

struct fsopt {
    const char *name; /* "-b", "--nodesize"; a sub-option or mount key: "stride" */
    enum fsopt_shape shape;
    unsigned flags;  /* FSO_OPTIONAL, FSO_CI, FSO_LEVEL */
    const void *arg; /* FSO_CHOICE, FSO_LIST, FSO_COLONS, FSO_UUID: words (const char *const *);
                      * FSO_SUBOPTS: const struct fsopt *; FSO_REFUSED: the reason */
    unsigned max;    /* FSO_LABEL: most characters */
};

struct fsopt_fs {
    const char *const *types;  /* the --fs names sharing the tables */
    const struct fsopt *mkfs;  /* NULL-name ended */
    const struct fsopt *mount; /* NULL-name ended */
};

/* Every file system fsbench knows options of, ending with types NULL. */
extern const struct fsopt_fs fsopts_defs[];
/* Mount keys no type gets, whatever its table says: they would name what is mounted. */
extern const struct fsopt fsopts_mount_never[];

#endif
