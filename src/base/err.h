/* err.h — the one place that turns a failure into a message.
 *
 * error() prints "fsbench: <message>" on stderr and returns -1, so callers write
 * `return error("...")`. error_errno() appends ": <strerror(errno)>". Only main/cli
 * decide to exit; nothing here exits. err_set_quiet() silences output in unit tests.
 */
#ifndef FSBENCH_ERR_H
#define FSBENCH_ERR_H

#include <stdarg.h>
#include <stddef.h>

/* Exit statuses: usage errors are 2, run failures 1 (as the README documents). */
enum { EXIT_OK = 0, EXIT_RUN_FAILED = 1, EXIT_USAGE = 2 };

int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int error_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Like error_errno() but with an explicit error number (engines return -errno). */
int error_num(int errnum, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A note, not an error: "fsbench: <message>" on stderr (captured and silenced alike). */
void inform(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void err_set_quiet(int quiet);
/* Until err_capture_end(), messages go into buf (the last one wins) instead of stderr, so a
 * caller can fold a lower layer's message into its own single line. Captures nest: the end
 * of an inner one restores the outer. */
void err_capture_begin(char *buf, size_t len);
void err_capture_end(void);

#endif
