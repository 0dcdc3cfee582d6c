/* linux_kmsg.c — kmsg.h on Linux: /dev/kmsg, one record a read(2) ("PRI,SEQ,TS,FLAGS;text"
 * and continuation lines), opened non-blocking and moved to the end, so that only what the
 * kernel logs afterwards is read. */
#include "os/kmsg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

int os_kmsg_open(void)
{
    int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (lseek(fd, 0, SEEK_END) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Whether text names the device or the file system ("XFS (loop0): ...", "EXT4-fs ..."). */
static bool about(const char *text, const char *dev, const char *fstype)
{
    if (dev && *dev && strstr(text, dev) && !strstr(text, "capacity change"))
        return true;
    size_t n = fstype ? strlen(fstype) : 0;
    return n && !strncasecmp(text, fstype, n);
}

int os_kmsg_find(int h, const char *dev, const char *fstype, char *buf, size_t len)
{
    if (h < 0 || !len)
        return -1;
    char rec[8192];
    int found = 0; /* 0 none, 1 any, 2 warning or worse */
    for (;;) {
        ssize_t n = read(h, rec, sizeof rec - 1);
        if (n < 0 && errno == EPIPE)
            continue; /* records were overwritten meanwhile: go on with the next */
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        rec[n] = '\0';
        char *text = strchr(rec, ';');
        if (!text)
            continue;
        text++;
        text[strcspn(text, "\n")] = '\0';
        int level = atoi(rec) & 7; /* the facility is in the bits above */
        if (!about(text, dev, fstype))
            continue;
        int rank = level <= 4 ? 2 : 1;
        if (rank >= found) {
            snprintf(buf, len, "%s", text);
            found = rank;
        }
    }
    return found ? 0 : -1;
}

void os_kmsg_close(int h)
{
    if (h >= 0)
        close(h);
}
