/* infile.h — every file fsbench reads as input (job files and their includes, SHAPE.ini,
 * imported JSON, archives) is opened here: it must be a regular file (a symlink to one is
 * fine), so that /dev/zero cannot fill memory, a FIFO cannot hang the run and a directory
 * is named as one; text inputs are read whole with a size limit.
 *
 * The path is checked with stat() before it is opened (a device is never opened), opened
 * with O_NONBLOCK (a FIFO swapped in after the check cannot block) and O_NOCTTY, and checked
 * again with fstat(): the same regular file, or the open is refused.
 */
#ifndef FSBENCH_INFILE_H
#define FSBENCH_INFILE_H

#include <stddef.h>

/* The most a text input may hold: a job file, an include, a SHAPE.ini. It is also the
 * longest line of a job file (inih's line buffer is this big, see infile_ini_limits()). */
#define INFILE_TEXT_MAX ((size_t)1 << 20)

/* The most an imported JSON run set may hold: 256 MiB. fsbench's own largest exports are
 * far below it (30 runs x 10 phases with ten-minute time lines, 6,000 points each at ~120
 * bytes indented, are about 200 MB, and jansson needs several times the text in memory). */
#define INFILE_JSON_MAX ((size_t)256 << 20)

/* Opens path for reading after the checks above: the fd (blocking again, O_CLOEXEC), or -1
 * with the reason in why ("not a regular file (a FIFO)", or strerror(errno)), errno set. */
int infile_open(const char *path, char *why, size_t whylen);

/* Reads the whole of path (or fd 0 for "-", which may be a pipe) into a new NUL-terminated
 * buffer *text of *len bytes (the file's own NULs kept: callers refuse them with a line
 * number). More than max bytes is refused ("larger than 1 MiB"). 0, or -1 with the reason
 * in why and nothing allocated. */
int infile_read(const char *path, size_t max, char **text, size_t *len, char *why, size_t whylen);

/* "1 MiB", "256 MiB": a limit for messages. */
const char *infile_limit_str(size_t max, char *buf, size_t len);

/* Makes inih (Debian's build lets a program set its line buffer at run time) read lines
 * as long as a whole text input, on the heap, so a long description or mount-option list
 * is one line like any other. Called before every ini_parse_*. */
void infile_ini_limits(void);

#endif
