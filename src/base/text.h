/* text.h — untrusted strings: checked at the door, escaped on the way out.
 *
 * Job files, imported results, labels and archive names come from other people. What
 * fsbench keeps as a name (a label, a configuration) must be valid UTF-8 with no control
 * character and no bidirectional-text control (U+202E can make a terminal show "abc" for
 * "cba"); a job file may hold line breaks and tabs besides. Everything else that came from
 * outside is printed through text_escape()/text_shown(), which turn each control character,
 * bidirectional control and byte that is not UTF-8 into a visible escape (\n, \x1b, \u202e,
 * \xff), so a string can neither forge an output line nor send a terminal an escape
 * sequence. Backslashes are left alone: the escapes are for people to read, not to parse.
 */
#ifndef FSBENCH_TEXT_H
#define FSBENCH_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* What text_check() allows besides printable UTF-8. */
enum {
    TEXT_ALLOW_NEWLINE = 1, /* \n, and \r right before it (CRLF files) */
    TEXT_ALLOW_TAB = 2,
};

/* The first thing text_check() refused: its byte offset and what it is ("a NUL byte",
 * "a control character (0x1b)", "a byte that is not UTF-8 (0xff)", "a bidirectional-text
 * control (U+202E)", "a line break"). */
struct text_flaw {
    size_t off;
    char what[64];
};

/* Checks n bytes of s: 0, or -1 with the first flaw in *f (f may be NULL). */
int text_check(const char *s, size_t n, unsigned allow, struct text_flaw *f);

/* The line (1-based) holding byte off of s: for FILE:LINE messages. */
int text_line_of(const char *s, size_t off);

/* A name fsbench keeps and others type (a label, a configuration): not empty, not starting
 * with '-' (it would be read as an option later), and passing text_check() with nothing
 * allowed. 0, or -1 with the reason in why ("starts with '-'...", "holds a line break"). */
int text_check_name(const char *s, char *why, size_t len);

/* s with every control character, bidirectional control and non-UTF-8 byte escaped, into
 * out (len bytes, NUL-terminated; cut with "..." when it does not fit). Returns out. */
char *text_escape(char *out, size_t len, const char *s);

/* Whether s needs text_escape() at all. */
bool text_needs_escape(const char *s);

/* s itself when it needs no escape, else its escaped form in one of a few per-thread
 * buffers reused in turn (valid until eight more calls on this thread): for printing a
 * handful of strings in one printf. */
const char *text_shown(const char *s);

/* fgets over a string, for inih's ini_parse_stream: the next line of text from *pos (its
 * newline kept; at most num - 1 bytes, the rest of a longer line coming next) into str, *pos
 * moved past it. str, or NULL at the end of text. */
char *text_gets(char *str, int num, const char *text, size_t *pos);

#endif
