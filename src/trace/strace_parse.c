/* strace_parse.c — the shape of strace's lines (strace_parse.h). A hand-written scanner:
 * the line is small, its grammar is a handful of forms, and every index is checked
 * against the line's length before it is read.
 */
#include "trace/strace_parse.h"

#include <string.h>

bool strace_span_is(struct strace_span a, const char *s)
{
    size_t n = strlen(s);
    return a.n == n && memcmp(a.p, s, n) == 0;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_word(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static struct strace_span trim(struct strace_span a)
{
    while (a.n && (a.p[0] == ' ' || a.p[0] == '\t'))
        a.p++, a.n--;
    while (a.n && (a.p[a.n - 1] == ' ' || a.p[a.n - 1] == '\t'))
        a.n--;
    return a;
}

static bool starts(const char *s, size_t n, const char *w)
{
    size_t k = strlen(w);
    return n >= k && memcmp(s, w, k) == 0;
}

/* Index of the ')' closing the '(' just before s[0], or n when there is none. Skips
 * strings, nested brackets and descriptor paths. */
static size_t match_paren(const char *s, size_t n)
{
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '"') {
            for (i++; i < n && s[i] != '"'; i++)
                if (s[i] == '\\')
                    i++;
            continue;
        }
        if (c == '<' && i > 0 && is_word(s[i - 1])) { /* 3</path> */
            while (i < n && s[i] != '>')
                i++;
            continue;
        }
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ']' || c == '}')
            depth--;
        else if (c == ')') {
            if (depth == 0)
                return i;
            depth--;
        }
    }
    return n;
}

/* "= RET [ERR (text)] [<dur>]" at s (n bytes) into l. false when it is not that. */
static bool parse_result(const char *s, size_t n, struct strace_line *l)
{
    size_t i = 0;
    while (i < n && s[i] == ' ')
        i++;
    if (i >= n || s[i] != '=')
        return false;
    i++;
    while (i < n && s[i] == ' ')
        i++;
    if (i < n && s[i] == '?') {
        l->ret_known = false;
        i++;
    } else {
        size_t b = i;
        if (i < n && s[i] == '-')
            i++;
        while (i < n && (is_word(s[i])))
            i++;
        int64_t v;
        if (strace_arg_num((struct strace_span){s + b, i - b}, &v) < 0)
            return false;
        l->ret = v;
        l->ret_known = true;
        if (i < n && s[i] == '<') { /* a descriptor's path */
            size_t d = i;
            while (i < n && s[i] != '>')
                i++;
            if (i >= n)
                return false;
            i++;
            l->ret_decor = (struct strace_span){s + d, i - d};
            if (starts(s + i, n - i, "(deleted)"))
                i += 9;
        }
    }
    while (i < n && s[i] == ' ')
        i++;
    if (i < n && s[i] == 'E') { /* the error's name, then its text in parentheses */
        size_t b = i;
        while (i < n && is_word(s[i]))
            i++;
        size_t k = i - b < sizeof l->err ? i - b : sizeof l->err - 1;
        memcpy(l->err, s + b, k);
        l->err[k] = '\0';
        while (i < n && s[i] == ' ')
            i++;
        if (i < n && s[i] == '(') {
            while (i < n && s[i] != ')')
                i++;
            i++;
        }
    }
    /* "(flags ...)" after some results, then the duration */
    while (i < n && s[i] != '<')
        i++;
    if (i < n) {
        size_t b = ++i;
        while (i < n && s[i] != '>')
            i++;
        if (i >= n)
            return false;
        uint64_t sec = 0, frac = 0;
        unsigned digits = 0;
        size_t j = b;
        /* bounded as it is read: a duration of more than 10^9 s is no strace's, and the
         * line is refused (unbounded, <18446744073709551617.0> wrapped to 1 s) */
        while (j < i && is_digit(s[j])) {
            sec = sec * 10 + (uint64_t)(s[j++] - '0');
            if (sec > 1000000000u)
                return false;
        }
        if (j < i && s[j] == '.')
            for (j++; j < i && is_digit(s[j]); j++)
                if (digits < 9)
                    frac = frac * 10 + (uint64_t)(s[j] - '0'), digits++;
        if (j != i) /* "<unavailable>": no duration */
            return true;
        while (digits++ < 9)
            frac *= 10;
        l->dur_ns = sec * 1000000000u + frac;
    }
    return true;
}

void strace_parse_line(const char *s, size_t n, struct strace_line *l)
{
    memset(l, 0, sizeof *l);
    l->kind = SL_BAD;
    size_t i = 0;
    long tid = 0;
    if (i >= n || !is_digit(s[i]))
        return;
    while (i < n && is_digit(s[i])) {
        if (tid > 100000000L)
            return;
        tid = tid * 10 + (s[i++] - '0');
    }
    while (i < n && s[i] == ' ')
        i++;
    /* the time: seconds.nanoseconds */
    uint64_t sec = 0, frac = 0;
    unsigned digits = 0;
    if (i >= n || !is_digit(s[i]))
        return;
    while (i < n && is_digit(s[i])) {
        sec = sec * 10 + (uint64_t)(s[i++] - '0');
        /* at most 10^10 s (the year 2286), so that sec * 10^9 + frac fits 64 bits */
        if (sec > 10000000000ull)
            return;
    }
    if (i < n && s[i] == '.')
        for (i++; i < n && is_digit(s[i]); i++)
            if (digits < 9)
                frac = frac * 10 + (uint64_t)(s[i] - '0'), digits++;
    while (digits++ < 9)
        frac *= 10;
    if (i >= n || s[i] != ' ')
        return;
    while (i < n && s[i] == ' ')
        i++;
    l->tid = tid;
    l->ts_ns = sec * 1000000000u + frac;
    const char *r = s + i;
    size_t m = n - i;
    if (starts(r, m, "+++ exited with ") || starts(r, m, "+++ killed by ")) {
        l->kind = SL_EXIT;
        return;
    }
    if (starts(r, m, "+++ ") || starts(r, m, "--- ")) {
        l->kind = SL_OTHER;
        return;
    }
    if (starts(r, m, "<... ")) {
        size_t j = 5;
        while (j < m && is_word(r[j]))
            j++;
        if (!starts(r + j, m - j, " resumed>"))
            return;
        l->name = (struct strace_span){r + 5, j - 5};
        l->args = (struct strace_span){r + j + 9, m - j - 9};
        l->kind = SL_RESUMED;
        return;
    }
    size_t j = 0;
    while (j < m && is_word(r[j]))
        j++;
    if (j == 0 || j >= m || r[j] != '(')
        return;
    l->name = (struct strace_span){r, j};
    const char *a = r + j + 1;
    size_t an = m - j - 1;
    static const char unf[] = " <unfinished ...>";
    if (an >= sizeof unf - 1 && !memcmp(a + an - (sizeof unf - 1), unf, sizeof unf - 1)) {
        l->args = (struct strace_span){a, an - (sizeof unf - 1)};
        l->kind = SL_UNFINISHED;
        return;
    }
    size_t close = match_paren(a, an);
    if (close >= an)
        return;
    l->args = (struct strace_span){a, close};
    if (parse_result(a + close + 1, an - close - 1, l))
        l->kind = SL_CALL;
}

int strace_split_args(struct strace_span args, struct strace_span *out, int max)
{
    const char *s = args.p;
    size_t n = args.n;
    int count = 0, depth = 0;
    size_t start = 0;
    if (trim(args).n == 0)
        return 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n) {
            char c = s[i];
            if (c == '"') {
                for (i++; i < n && s[i] != '"'; i++)
                    if (s[i] == '\\')
                        i++;
                if (i >= n)
                    return -1;
                continue;
            }
            if (c == '<' && i > 0 && is_word(s[i - 1])) {
                while (i < n && s[i] != '>')
                    i++;
                if (i >= n)
                    return -1;
                continue;
            }
            if (c == '(' || c == '[' || c == '{') {
                depth++;
                continue;
            }
            if (c == ')' || c == ']' || c == '}') {
                if (--depth < 0)
                    return -1;
                continue;
            }
            if (c != ',' || depth)
                continue;
        }
        if (depth)
            return -1;
        if (count < max)
            out[count] = trim((struct strace_span){s + start, i - start});
        count++;
        start = i + 1;
    }
    return count;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decodes strace's escapes of s[0..n) into out: its length, or -1 when bad or too long. */
static long unescape(const char *s, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)s[i];
        if (c == '\\') {
            if (++i >= n)
                return -1;
            char e = s[i];
            if (e == 'x') {
                if (i + 2 >= n)
                    return -1;
                int h = hexval(s[i + 1]), g = hexval(s[i + 2]);
                if (h < 0 || g < 0)
                    return -1;
                c = h * 16 + g;
                i += 2;
            } else if (e >= '0' && e <= '7') {
                c = 0;
                for (int d = 0; d < 3 && i < n && s[i] >= '0' && s[i] <= '7'; d++, i++)
                    c = c * 8 + (s[i] - '0');
                i--;
                if (c > 255)
                    return -1;
            } else {
                static const char from[] = "ntrvfab\\\"'", to[] = "\n\t\r\v\f\a\b\\\"'";
                const char *f = memchr(from, e, sizeof from - 1);
                if (!f)
                    return -1;
                c = (unsigned char)to[f - from];
            }
        }
        if (k + 1 >= cap)
            return -1;
        out[k++] = (char)c;
    }
    out[k] = '\0';
    return (long)k;
}

long strace_arg_string(struct strace_span a, char *out, size_t cap)
{
    a = trim(a);
    if (strace_span_is(a, "NULL"))
        return -2;
    if (a.n < 2 || a.p[0] != '"' || a.p[a.n - 1] != '"')
        return -1; /* not a string, or cut short: "..."... */
    return unescape(a.p + 1, a.n - 2, out, cap);
}

int strace_arg_fd(struct strace_span a, long *fd, char *path, size_t cap, bool *deleted)
{
    a = trim(a);
    *deleted = false;
    if (cap)
        path[0] = '\0';
    size_t i = 0;
    if (starts(a.p, a.n, "AT_FDCWD")) {
        *fd = STRACE_AT_FDCWD;
        i = 8;
    } else {
        bool neg = a.n && a.p[0] == '-';
        i = neg;
        long v = 0;
        if (i >= a.n || !is_digit(a.p[i]))
            return -1;
        while (i < a.n && is_digit(a.p[i])) {
            if (v > 100000000L)
                return -1;
            v = v * 10 + (a.p[i++] - '0');
        }
        *fd = neg ? -v : v;
    }
    if (i == a.n)
        return 0;
    if (a.p[i] != '<')
        return -1;
    size_t b = ++i;
    while (i < a.n && a.p[i] != '>')
        i++;
    if (i >= a.n || unescape(a.p + b, i - b, path, cap) < 0)
        return -1;
    i++;
    if (starts(a.p + i, a.n - i, "(deleted)")) {
        *deleted = true;
        i += 9;
    }
    return i == a.n ? 0 : -1;
}

int strace_arg_num(struct strace_span a, int64_t *v)
{
    a = trim(a);
    size_t i = 0;
    bool neg = false;
    if (i < a.n && a.p[i] == '-')
        neg = true, i++;
    if (i >= a.n || !is_digit(a.p[i]))
        return -1;
    unsigned base = 10;
    if (a.n - i > 2 && a.p[i] == '0' && (a.p[i + 1] == 'x' || a.p[i + 1] == 'X'))
        base = 16, i += 2;
    else if (a.n - i > 1 && a.p[i] == '0')
        base = 8, i++;
    uint64_t x = 0;
    for (; i < a.n; i++) {
        int d = hexval(a.p[i]);
        if (d < 0 || (unsigned)d >= base)
            return -1;
        if (x > (UINT64_MAX - (uint64_t)d) / base)
            return -1;
        x = x * base + (uint64_t)d;
    }
    if (x > (uint64_t)INT64_MAX)
        return -1;
    *v = neg ? -(int64_t)x : (int64_t)x;
    return 0;
}

uint32_t strace_arg_flags(struct strace_span a, const struct strace_flag *table)
{
    a = trim(a);
    uint32_t bits = 0;
    size_t i = 0;
    while (i < a.n) {
        size_t b = i;
        while (i < a.n && a.p[i] != '|')
            i++;
        struct strace_span w = trim((struct strace_span){a.p + b, i - b});
        for (const struct strace_flag *f = table; f->name; f++)
            if (strace_span_is(w, f->name))
                bits |= f->bits;
        i++;
    }
    return bits;
}

bool strace_arg_has(struct strace_span a, const char *flag)
{
    const struct strace_flag t[] = {{flag, 1}, {NULL, 0}};
    return strace_arg_flags(a, t) != 0;
}
