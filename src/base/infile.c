/* infile.c — opening and reading input files (see infile.h). */
#include "base/infile.h"

#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m)    ? "a directory"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISSOCK(m) ? "a socket"
                         : "not a plain file";
}

int infile_open(const char *path, char *why, size_t whylen)
{
    struct stat st, fst;
    if (stat(path, &st) < 0) {
        snprintf(why, whylen, "%s", strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, whylen, "not a regular file (%s)", kind_of(st.st_mode));
        errno = EINVAL;
        return -1;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, whylen, "%s", strerror(errno));
        return -1;
    }
    if (fstat(fd, &fst) < 0 || !S_ISREG(fst.st_mode) || fst.st_dev != st.st_dev ||
        fst.st_ino != st.st_ino) {
        int e = errno;
        close(fd);
        snprintf(why, whylen, "%s",
                 !S_ISREG(fst.st_mode) ? "not a regular file (it changed while being opened)"
                 : e                   ? strerror(e)
                                       : "changed while being opened");
        errno = EINVAL;
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

const char *infile_limit_str(size_t max, char *buf, size_t len)
{
    if (max >= ((size_t)1 << 20) && max % ((size_t)1 << 20) == 0)
        snprintf(buf, len, "%zu MiB", max >> 20);
    else if (max >= 1024 && max % 1024 == 0)
        snprintf(buf, len, "%zu KiB", max >> 10);
    else
        snprintf(buf, len, "%zu bytes", max);
    return buf;
}

int infile_read(const char *path, size_t max, char **text, size_t *len, char *why, size_t whylen)
{
    *text = NULL;
    *len = 0;
    bool std_in = !strcmp(path, "-");
    int fd = std_in ? STDIN_FILENO : infile_open(path, why, whylen);
    if (fd < 0)
        return -1;
    char lim[32];
    struct stat st = {0};
    if (!std_in && fstat(fd, &st) == 0 && (unsigned long long)st.st_size > max) {
        close(fd);
        snprintf(why, whylen, "larger than %s", infile_limit_str(max, lim, sizeof lim));
        return -1;
    }
    size_t cap = std_in || st.st_size <= 0 ? 4096 : (size_t)st.st_size + 1, n = 0;
    if (cap > max + 1)
        cap = max + 1;
    char *buf = malloc(cap + 1);
    int rc = 0;
    while (buf) {
        if (n == cap) {
            if (cap > max) /* max + 1 bytes read: too large */
                break;
            size_t nc = cap * 2 > max + 1 ? max + 1 : cap * 2;
            char *nb = realloc(buf, nc + 1);
            if (!nb) {
                rc = ENOMEM;
                break;
            }
            buf = nb;
            cap = nc;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            rc = errno;
            break;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    if (!std_in)
        close(fd);
    if (!buf || rc) {
        free(buf);
        snprintf(why, whylen, "%s", strerror(buf ? rc : ENOMEM));
        return -1;
    }
    if (n > max) {
        free(buf);
        snprintf(why, whylen, "larger than %s", infile_limit_str(max, lim, sizeof lim));
        return -1;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

void infile_ini_limits(void)
{
    /* +3: inih's buffer holds the line, its "\r\n" and a NUL */
    ini_use_stack = false;
    ini_allow_realloc = false;
    ini_max_line = (int)INFILE_TEXT_MAX + 3;
    ini_initial_alloc = (int)INFILE_TEXT_MAX + 3;
}
