/* outcheck.h — whether what a command printed on standard output got there.
 *
 * fsbench ignores SIGPIPE (base/sig.h), so a closed pipe (`fsbench run | head -1`), a full
 * disk (`> /dev/full`) or any other failed write to standard output shows as the stream's
 * error flag. A command checks it once at its end: one line on stderr says what went wrong
 * and what is kept anyway, and the command exits 1. Work is never cut short by it: a run
 * set finishes and every run is saved.
 */
#ifndef FSBENCH_OUTCHECK_H
#define FSBENCH_OUTCHECK_H

/* Flushes standard output. 0 when everything written got there; else -1 after one error()
 * line ("standard output was closed before the end (the reader of the pipe ended): KEPT",
 * kept may be NULL), said once per process (a second failing check returns -1 quietly). */
int outcheck_stdout(const char *kept);
/* The same for a caller that saw a write to standard output fail with errno e (0 when it
 * does not know why), which the flush may no longer tell. */
int outcheck_stdout_err(int e, const char *kept);

#endif
