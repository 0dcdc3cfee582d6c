/* linux_term.c — terminal width through TIOCGWINSZ (see term.h). */
#include "os/term.h"

#include <errno.h>
#include <sys/ioctl.h>

int os_term_width(int fd)
{
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) < 0)
        return -errno;
    return ws.ws_col ? ws.ws_col : -ENOTTY;
}
