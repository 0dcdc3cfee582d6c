/* posix_term.c — terminal width with plain POSIX: there is no portable size query, so the
 * COLUMNS variable the shell exports is taken, or 80 when fd is a terminal without it. */
#include "os/term.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

int os_term_width(int fd)
{
    if (!isatty(fd))
        return -ENOTTY;
    const char *c = getenv("COLUMNS");
    long n = c ? strtol(c, NULL, 10) : 0;
    return n > 0 && n < 10000 ? (int)n : 80;
}
