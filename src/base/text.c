/* text.c — checking and escaping untrusted strings (see text.h).
 *
 * UTF-8 is decoded strictly (RFC 3629): no overlong forms, no surrogates, nothing above
 * U+10FFFF. A "control" is C0 (below 0x20), DEL and C1 (U+0080-U+009F); the
 * bidirectional-text controls are U+061C, U+200E, U+200F, U+202A-U+202E and U+2066-U+2069.
 */
#include "base/text.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Decodes the UTF-8 sequence at s (n bytes left): its length, with the code point in *cp,
 * or 0 when the bytes are not UTF-8. */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned char c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t len;
    uint32_t v, min;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2, v = c & 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, v = c & 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, v = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return len;
}

static bool is_bidi(uint32_t cp)
{
    return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

static bool is_control(uint32_t cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F);
}

int text_check(const char *s, size_t n, unsigned allow, struct text_flaw *f)
{
    const unsigned char *u = (const unsigned char *)s;
    struct text_flaw dummy;
    if (!f)
        f = &dummy;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = utf8_decode(u + i, n - i, &cp);
        f->off = i;
        if (!len) {
            snprintf(f->what, sizeof f->what, "a byte that is not UTF-8 (0x%02x)", u[i]);
            return -1;
        }
        if (cp == 0) {
            snprintf(f->what, sizeof f->what, "a NUL byte");
            return -1;
        }
        bool ok = !is_control(cp) && !is_bidi(cp);
        if (cp == '\n' || (cp == '\r' && i + 1 < n && u[i + 1] == '\n'))
            ok = allow & TEXT_ALLOW_NEWLINE;
        if (cp == '\t')
            ok = allow & TEXT_ALLOW_TAB;
        if (!ok) {
            if (cp == '\n' || cp == '\r')
                snprintf(f->what, sizeof f->what, "a line break");
            else if (is_bidi(cp))
                snprintf(f->what, sizeof f->what, "a bidirectional-text control (U+%04X)",
                         (unsigned)cp);
            else
                snprintf(f->what, sizeof f->what, "a control character (0x%02x)", (unsigned)cp);
            return -1;
        }
        i += len;
    }
    return 0;
}

int text_line_of(const char *s, size_t off)
{
    int line = 1;
    for (size_t i = 0; i < off && s[i]; i++)
        line += s[i] == '\n';
    return line;
}

int text_check_name(const char *s, char *why, size_t len)
{
    struct text_flaw f;
    if (!*s) {
        snprintf(why, len, "is empty");
        return -1;
    }
    if (*s == '-') {
        snprintf(why, len, "starts with '-' (it would be read as an option)");
        return -1;
    }
    if (text_check(s, strlen(s), 0, &f) < 0) {
        snprintf(why, len, "holds %s", f.what);
        return -1;
    }
    return 0;
}

/* The escape for the code point or byte at s, or 0 when it is printed as it is. */
static size_t escape_one(const unsigned char *s, size_t n, char esc[16], size_t *used)
{
    uint32_t cp;
    size_t len = utf8_decode(s, n, &cp);
    if (!len) {
        *used = 1;
        return (size_t)snprintf(esc, 16, "\\x%02x", s[0]);
    }
    *used = len;
    if (!is_control(cp) && !is_bidi(cp))
        return 0;
    if (cp == '\n')
        return (size_t)snprintf(esc, 16, "\\n");
    if (cp == '\r')
        return (size_t)snprintf(esc, 16, "\\r");
    if (cp == '\t')
        return (size_t)snprintf(esc, 16, "\\t");
    if (cp < 0x80)
        return (size_t)snprintf(esc, 16, "\\x%02x", (unsigned)cp);
    return (size_t)snprintf(esc, 16, "\\u%04x", (unsigned)cp);
}

bool text_needs_escape(const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        char esc[16];
        size_t used;
        if (escape_one((const unsigned char *)s + i, n - i, esc, &used))
            return true;
        i += used;
    }
    return false;
}

char *text_escape(char *out, size_t len, const char *s)
{
    if (!len)
        return out;
    /* room: where "..." still fits after the pieces written so far (a piece boundary) */
    size_t n = strlen(s), o = 0, room = 0;
    for (size_t i = 0; i < n;) {
        char esc[16];
        size_t used, e = escape_one((const unsigned char *)s + i, n - i, esc, &used);
        const char *piece = e ? esc : s + i;
        size_t plen = e ? e : used;
        if (o + plen + 1 > len) {
            o = room;
            if (len >= 4) {
                memcpy(out + o, "...", 3);
                o += 3;
            }
            break;
        }
        memcpy(out + o, piece, plen);
        o += plen;
        if (o + 4 <= len)
            room = o;
        i += used;
    }
    out[o] = '\0';
    return out;
}

#define SHOWN_SLOTS 8
#define SHOWN_SIZE 8192

const char *text_shown(const char *s)
{
    static _Thread_local char slot[SHOWN_SLOTS][SHOWN_SIZE];
    static _Thread_local unsigned next;
    if (!text_needs_escape(s))
        return s;
    char *out = slot[next++ % SHOWN_SLOTS];
    return text_escape(out, SHOWN_SIZE, s);
}

char *text_gets(char *str, int num, const char *text, size_t *pos)
{
    if (!text[*pos] || num < 2)
        return NULL;
    const char *start = text + *pos, *nl = strchr(start, '\n');
    size_t take = nl ? (size_t)(nl - start) + 1 : strlen(start);
    if (take > (size_t)num - 1)
        take = (size_t)num - 1;
    memcpy(str, start, take);
    str[take] = '\0';
    *pos += take;
    return str;
}
