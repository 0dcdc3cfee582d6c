/* linux_kmsg.c — kmsg.h on Linux: /dev/kmsg, one record a read(2) ("PRI,SEQ,TS,FLAGS;text"
 * and continuation lines), opened non-blocking and moved to the end, so that only what the
 * kernel logs afterwards is read. */
#include "os/kmsg.h"

#include <ctype.h>
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

/* Whether text names device dev as a whole name: "loop1" is not in "(loop10)", which
 * another program's mount may log meanwhile. */
static bool names_dev(const char *text, const char *dev)
{
    size_t n = strlen(dev);
    for (const char *s = strstr(text, dev); s; s = strstr(s + 1, dev)) {
        bool start = s == text || !isalnum((unsigned char)s[-1]);
        bool end = !isalnum((unsigned char)s[n]);
        if (start && end)
            return true;
    }
    return false;
}

/* The device a message is about, where it names one after its source: "loop0" of
 * "EXT4-fs (loop0): ..." or "XFS (loop0): ...", into buf; false when it names none. */
static bool source_dev(const char *text, char *buf, size_t len)
{
    const char *open = strchr(text, '(');
    if (!open || open - text > 32)
        return false;
    size_t n = strcspn(open + 1, ")");
    if (open[1 + n] != ')' || open[2 + n] != ':' || n >= len)
        return false;
    memcpy(buf, open + 1, n);
    buf[n] = '\0';
    return true;
}

/* How much text is about the device or the file system: 2 it names the device, 1 it
 * comes from the file system and names no other device ("xfs: Unknown parameter ..."; the
 * kernel log is the machine's, and other programs mount too), 0 not about them. */
static int about(const char *text, const char *dev, const char *fstype)
{
    if (dev && *dev && names_dev(text, dev) && !strstr(text, "capacity change"))
        return 2;
    size_t n = fstype ? strlen(fstype) : 0;
    char other[64];
    if (!n || strncasecmp(text, fstype, n) || source_dev(text, other, sizeof other))
        return 0;
    return 1;
}

int os_kmsg_find(int h, const char *dev, const char *fstype, char *buf, size_t len)
{
    if (h < 0 || !len)
        return -1;
    char rec[8192];
    int found = 0; /* 0 none, else about()'s rank twice, and 1 for warning or worse */
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
        int rank = about(text, dev, fstype);
        if (!rank)
            continue;
        rank = 2 * rank + (level <= 4);
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
