/* fsopts.c — the check of mkfs and mount options against the allow-lists (see fsopts.h;
 * the tables are in fsopts_tables.c).
 *
 * A word or value holding '/' (a path), a blank, a control character or a byte that is not
 * ASCII is refused before any table is read. An mkfs word must be an option of the file
 * system's table, one word each ("-b 4096", not "-b4096" or "-jq"; a long option's value
 * attached, "--label=x", or the next word), or the value of the option before it, in that
 * option's shape; sub-options (-E stride=4,nodiscard) and mount options (key or key=value)
 * are checked against their tables the same way. Refused entries carry their reason, so the
 * user learns why, not only that. Every refusal is one line: "'WORD' is refused for FS: ...".
 */
#include "target/fsopts.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "target/fsopts_internal.h"

/* ---- helpers ---- */

static const struct fsopt_fs *fsdef_find(const char *fstype)
{
    for (const struct fsopt_fs *d = fsopts_defs; fstype && d->types; d++)
        for (size_t i = 0; d->types[i]; i++)
            if (!strcmp(d->types[i], fstype))
                return d;
    return NULL;
}

/* The entry of table named by the n bytes at name, or NULL. */
static const struct fsopt *opt_find(const struct fsopt *table, const char *name, size_t n)
{
    for (const struct fsopt *o = table; o && o->name; o++)
        if (strlen(o->name) == n && !strncmp(o->name, name, n))
            return o;
    return NULL;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_xdigit(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool is_alnum(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* n >= 1 digits from s; returns the length. */
static size_t digits(const char *s)
{
    size_t n = 0;
    while (is_digit(s[n]))
        n++;
    return n;
}

/* Printable ASCII only: no control characters, no bytes above 0x7e. */
static bool printable(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x21 || (unsigned char)s[i] > 0x7e)
            return false;
    return true;
}

/* Whether the n bytes at s are one of words. */
static bool in_words(const char *const *words, const char *s, size_t n, bool ci)
{
    for (size_t i = 0; words && words[i]; i++)
        if (strlen(words[i]) == n && (ci ? !strncasecmp(words[i], s, n) : !strncmp(words[i], s, n)))
            return true;
    return false;
}

/* "a, b or c" of words, into buf. */
static const char *join_words(const char *const *words, const char *sep, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; words && words[i] && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? sep : "", words[i]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    return buf;
}

/* The names of a table's entries that are not refused, blank separated. */
static const char *join_names(const struct fsopt *table, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const struct fsopt *o = table; o && o->name && used < len; o++) {
        if (o->shape == FSO_REFUSED)
            continue;
        int n = snprintf(buf + used, len - used, "%s%s", used ? " " : "", o->name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    return buf;
}

/* Whether the n bytes at v have shape o (not FSO_SUBOPTS, FSO_NONE or FSO_REFUSED). */
static bool shape_ok(const struct fsopt *o, const char *v, size_t n)
{
    size_t d;
    switch (o->shape) {
    case FSO_UINT:
        return n && digits(v) == n;
    case FSO_INT:
        if (n && v[0] == '-')
            v++, n--;
        return n && digits(v) == n;
    case FSO_REAL:
        d = digits(v);
        if (d && d < n && v[d] == '.')
            return n > d + 1 && digits(v + d + 1) == n - d - 1;
        return d && d == n;
    case FSO_SIZE:
        d = digits(v);
        return d && (d == n || (d + 1 == n && strchr("kKmMgGtTpPeEsSbB", v[d])));
    case FSO_BOOL:
        return n == 1 && (v[0] == '0' || v[0] == '1');
    case FSO_HEX:
        if (n > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
            v += 2, n -= 2;
        for (d = 0; d < n && is_xdigit(v[d]); d++)
            ;
        return n && d == n;
    case FSO_OCTAL:
        for (d = 0; d < n && v[d] >= '0' && v[d] <= '7'; d++)
            ;
        return n && d == n;
    case FSO_LABEL:
        if (!n || n > o->max || v[0] == '-')
            return false;
        for (d = 0; d < n; d++)
            if (!is_alnum(v[d]) && !strchr("_.+:@-", v[d]))
                return false;
        return true;
    case FSO_UUID: {
        static const size_t group[] = {8, 4, 4, 4, 12};
        if (in_words(o->arg, v, n, false))
            return true;
        size_t p = 0;
        for (int g = 0; g < 5; g++) {
            for (d = 0; d < group[g]; d++, p++)
                if (p >= n || !is_xdigit(v[p]))
                    return false;
            if (g < 4 && (p >= n || v[p++] != '-'))
                return false;
        }
        return p == n;
    }
    case FSO_OWNER:
        d = digits(v);
        return d && d + 1 < n && v[d] == ':' && digits(v + d + 1) == n - d - 1;
    case FSO_WORD:
        if (!n || v[0] == '-')
            return false;
        for (d = 0; d < n; d++)
            if (!is_alnum(v[d]) && !strchr("_.-", v[d]))
                return false;
        return true;
    case FSO_CHOICE: {
        size_t w = n;
        const char *colon = o->flags & FSO_LEVEL ? memchr(v, ':', n) : NULL;
        if (colon) {
            w = (size_t)(colon - v);
            if (digits(colon + 1) != n - w - 1 || n - w - 1 == 0)
                return false;
        }
        return in_words(o->arg, v, w, o->flags & FSO_CI);
    }
    case FSO_LIST:
    case FSO_COLONS:
    case FSO_WORDS: {
        char sep = o->shape == FSO_COLONS ? ':' : ',';
        struct fsopt word = {NULL, FSO_WORD, 0, NULL, 0};
        size_t i = 0;
        if (!n)
            return false;
        while (i <= n) {
            size_t j = i;
            while (j < n && v[j] != sep)
                j++;
            const char *item = v + i;
            size_t len = j - i;
            if (o->shape == FSO_LIST && len && item[0] == '^')
                item++, len--;
            if (!len)
                return false;
            if (o->shape == FSO_WORDS ? !shape_ok(&word, item, len)
                                      : !in_words(o->arg, item, len, o->flags & FSO_CI))
                return false;
            i = j + 1;
        }
        return true;
    }
    case FSO_NONE:
    case FSO_REFUSED:
    case FSO_SUBOPTS:
        break;
    }
    return false;
}

/* What shape o asks for, for a message. */
static const char *shape_text(const struct fsopt *o, char *buf, size_t len)
{
    char w[512];
    switch (o->shape) {
    case FSO_UINT:
        return "a whole number";
    case FSO_INT:
        return "a whole number, optionally negative";
    case FSO_REAL:
        return "a number (digits, optionally with a fraction)";
    case FSO_SIZE:
        return "a size (digits with an optional unit: 4096, 64k, 1g)";
    case FSO_BOOL:
        return "0 or 1";
    case FSO_HEX:
        return "a hexadecimal number";
    case FSO_OCTAL:
        return "an octal number";
    case FSO_LABEL:
        snprintf(buf, len,
                 "a label of 1 to %u characters from A-Z a-z 0-9 _ . + : @ - "
                 "(not starting with -)",
                 o->max);
        return buf;
    case FSO_UUID:
        snprintf(buf, len, "a UUID (8-4-4-4-12 hexadecimal digits)%s%s",
                 o->arg ? " or one of " : "", o->arg ? join_words(o->arg, ", ", w, sizeof w) : "");
        return buf;
    case FSO_OWNER:
        return "UID:GID (two whole numbers)";
    case FSO_WORD:
        return "one word of A-Z a-z 0-9 _ . -";
    case FSO_WORDS:
        return "a comma-separated list of words of A-Z a-z 0-9 _ . -";
    case FSO_CHOICE:
        snprintf(buf, len, "one of %s%s", join_words(o->arg, ", ", w, sizeof w),
                 o->flags & FSO_LEVEL ? " (optionally :LEVEL)" : "");
        return buf;
    case FSO_LIST:
        snprintf(buf, len, "a comma-separated list of %s (each optionally after ^)",
                 join_words(o->arg, ", ", w, sizeof w));
        return buf;
    case FSO_COLONS:
        snprintf(buf, len, "a colon-separated list of %s", join_words(o->arg, ", ", w, sizeof w));
        return buf;
    case FSO_NONE:
    case FSO_REFUSED:
    case FSO_SUBOPTS:
        break;
    }
    return "a value";
}

/* Checks one key[=value] item (a sub-option of opt, or a mount option: opt NULL) against
 * table. 0, or -1 with why: "'WHAT' is refused for FS: ...". */
static int check_item(const struct fsopt *table, const char *item, size_t n, const char *what,
                      const char *fs, const char *optname, char *why, size_t len)
{
    const char *eq = memchr(item, '=', n);
    size_t klen = eq ? (size_t)(eq - item) : n;
    const char *val = eq ? eq + 1 : NULL;
    size_t vlen = eq ? n - klen - 1 : 0;
    char names[2048], shape[768];
    const struct fsopt *o = optname ? NULL : opt_find(fsopts_mount_never, item, klen);
    if (!o)
        o = opt_find(table, item, klen);
    if (!o) {
        if (optname)
            snprintf(why, len,
                     "'%s' is refused for %s: '%.*s' is not a %s sub-option fsbench "
                     "allows (it allows: %s)",
                     what, fs, (int)klen, item, optname, join_names(table, names, sizeof names));
        else
            snprintf(why, len,
                     "'%s' is refused for %s: '%.*s' is not among the %s mount options fsbench "
                     "allows (see fsbench(1), MKFS AND MOUNT OPTIONS)",
                     what, fs, (int)klen, item, fs);
        return -1;
    }
    if (o->shape == FSO_REFUSED) {
        snprintf(why, len, "'%s' is refused for %s: %s", what, fs, (const char *)o->arg);
        return -1;
    }
    if (o->shape == FSO_NONE) {
        if (eq) {
            snprintf(why, len, "'%s' is refused for %s: %.*s takes no value", what, fs, (int)klen,
                     item);
            return -1;
        }
        return 0;
    }
    if (!eq) {
        if (o->flags & FSO_OPTIONAL)
            return 0;
        snprintf(why, len, "'%s' is refused for %s: %.*s needs a value (%.*s=...)", what, fs,
                 (int)klen, item, (int)klen, item);
        return -1;
    }
    if (!shape_ok(o, val, vlen)) {
        snprintf(why, len, "'%s' is refused for %s: the value of %.*s is not %s", what, fs,
                 (int)klen, item, shape_text(o, shape, sizeof shape));
        return -1;
    }
    return 0;
}

/* A value holding '/' or a character that is not printable ASCII: the message, else NULL. */
static const char *bad_word(const char *s, size_t n)
{
    if (!printable(s, n))
        return "it holds a blank, a control character or a byte that is not ASCII";
    if (memchr(s, '/', n))
        return "it names a path or device (fsbench makes and mounts a file system only on its "
               "own target)";
    return NULL;
}

/* Checks the value v of mkfs option o (given as word w). */
static int check_value(const struct fsopt *o, const char *w, const char *v, const char *fs,
                       char *why, size_t len)
{
    char what[512], shape[768];
    snprintf(what, sizeof what, "%s%s%s", w, w[1] == '-' && strchr(w, '=') ? "" : " ",
             w[1] == '-' && strchr(w, '=') ? "" : v);
    const char *bad = bad_word(v, strlen(v));
    if (bad) {
        snprintf(why, len, "'%s' is refused for %s: %s", what, fs, bad);
        return -1;
    }
    if (o->shape != FSO_SUBOPTS) {
        if (shape_ok(o, v, strlen(v)))
            return 0;
        snprintf(why, len, "'%s' is refused for %s: the value of %s is not %s", what, fs, o->name,
                 shape_text(o, shape, sizeof shape));
        return -1;
    }
    size_t n = strlen(v);
    if (!n) {
        snprintf(why, len, "'%s' is refused for %s: %s needs a value", what, fs, o->name);
        return -1;
    }
    for (size_t i = 0; i <= n;) {
        size_t j = i;
        while (j < n && v[j] != ',')
            j++;
        if (j == i) {
            snprintf(why, len,
                     "'%s' is refused for %s: an empty sub-option (two commas, or one "
                     "at an end)",
                     what, fs);
            return -1;
        }
        if (check_item(o->arg, v + i, j - i, what, fs, o->name, why, len) < 0)
            return -1;
        i = j + 1;
    }
    return 0;
}

/* ---- the checks ---- */

int fsopts_check_mkfs(const char *fstype, const char *opts, char *why, size_t len)
{
    if (!opts || !opts[strspn(opts, FSOPTS_BLANKS)])
        return 0;
    const char *fs = fstype ? fstype : "?";
    const struct fsopt_fs *d = fsdef_find(fstype);
    char buf[4096], names[1024];
    if (strlen(opts) >= sizeof buf) {
        snprintf(why, len, "mkfs options too long for %s (at most %zu characters)", fs,
                 sizeof buf - 1);
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", opts);
    char *w[sizeof buf / 2 + 1];
    size_t nw = 0;
    for (char *save = NULL, *t = strtok_r(buf, FSOPTS_BLANKS, &save); t;
         t = strtok_r(NULL, FSOPTS_BLANKS, &save))
        w[nw++] = t;
    if (!nw)
        return 0;
    if (!d) {
        snprintf(why, len,
                 "'%s' is refused for %s: fsbench knows no mkfs.%s options (it passes "
                 "mkfs options for ext2, ext3, ext4, xfs, btrfs, f2fs, vfat, msdos and "
                 "exfat)",
                 w[0], fs, fs);
        return -1;
    }
    for (size_t i = 0; i < nw; i++) {
        const char *word = w[i], *bad = bad_word(word, strlen(word));
        if (bad) {
            snprintf(why, len, "'%s' is refused for %s: %s", word, fs, bad);
            return -1;
        }
        if (word[0] != '-') {
            snprintf(why, len,
                     "'%s' is refused for %s: it is not an option, and mkfs.%s would "
                     "take a word without a leading '-' for another device or a size "
                     "(only the value of the option before it may lack one)",
                     word, fs, fs);
            return -1;
        }
        if (!word[1] || !strcmp(word, "--")) {
            snprintf(why, len,
                     "'%s' is refused for %s: it would end the options, and mkfs.%s "
                     "would take what follows for devices",
                     word, fs, fs);
            return -1;
        }
        const char *eq = word[1] == '-' ? strchr(word, '=') : NULL;
        size_t nlen = eq ? (size_t)(eq - word) : strlen(word);
        const struct fsopt *o = opt_find(d->mkfs, word, nlen);
        if (!o) {
            const struct fsopt *s = word[1] != '-' ? opt_find(d->mkfs, word, 2) : NULL;
            if (s && s->shape != FSO_NONE && s->shape != FSO_REFUSED)
                snprintf(why, len,
                         "'%s' is refused for %s: give the value of %s as its own word "
                         "('%s %s')",
                         word, fs, s->name, s->name, word + 2);
            else
                snprintf(why, len,
                         "'%s' is refused for %s: it is not an mkfs.%s option fsbench "
                         "allows (it allows: %s)",
                         word, fs, fs, join_names(d->mkfs, names, sizeof names));
            return -1;
        }
        if (o->shape == FSO_REFUSED) {
            snprintf(why, len, "'%s' is refused for %s: %s", o->name, fs, (const char *)o->arg);
            return -1;
        }
        if (o->shape == FSO_NONE) {
            if (eq) {
                snprintf(why, len, "'%s' is refused for %s: %s takes no value", word, fs, o->name);
                return -1;
            }
            continue;
        }
        const char *val = eq ? eq + 1 : i + 1 < nw ? w[++i] : NULL;
        if (!val) {
            snprintf(why, len, "'%s' is refused for %s: %s needs a value", word, fs, o->name);
            return -1;
        }
        if (check_value(o, word, val, fs, why, len) < 0)
            return -1;
    }
    return 0;
}

int fsopts_check_mount(const char *fstype, const char *opts, char *why, size_t len)
{
    const char *fs = fstype ? fstype : "?";
    const struct fsopt_fs *d = fsdef_find(fstype);
    for (const char *p = opts; p && *p;) {
        size_t n = strcspn(p, ",");
        char item[512];
        snprintf(item, sizeof item, "%.*s", (int)(n < sizeof item ? n : sizeof item - 1), p);
        const char *bad = n ? bad_word(p, n) : NULL;
        if (bad) {
            snprintf(why, len, "'%s' is refused for %s: %s", item, fs, bad);
            return -1;
        }
        if (n >= sizeof item) {
            snprintf(why, len, "'%.40s...' is refused for %s: a mount option that long is none",
                     item, fs);
            return -1;
        }
        if (n && !in_words(fsopts_mount_flags, p, n, false)) {
            const char *eq = memchr(p, '=', n);
            size_t klen = eq ? (size_t)(eq - p) : n;
            if (!d && !opt_find(fsopts_mount_never, p, klen)) {
                snprintf(why, len,
                         "'%s' is refused for %s: fsbench knows no %s mount options, "
                         "only the generic ones (ro, noatime, relatime, sync, ...)",
                         item, fs, fs);
                return -1;
            }
            if (check_item(d ? d->mount : NULL, p, n, item, fs, NULL, why, len) < 0)
                return -1;
        }
        p += n;
        if (*p == ',')
            p++;
    }
    return 0;
}

const char *fsopts_mkfs_names(const char *fstype, char *buf, size_t len)
{
    const struct fsopt_fs *d = fsdef_find(fstype);
    if (!d) {
        if (len)
            buf[0] = '\0';
        return buf;
    }
    return join_names(d->mkfs, buf, len);
}

const char *fsopts_mount_names(const char *fstype, char *buf, size_t len)
{
    const struct fsopt_fs *d = fsdef_find(fstype);
    if (!d) {
        if (len)
            buf[0] = '\0';
        return buf;
    }
    return join_names(d->mount, buf, len);
}
