/* linux_machine.c — machine.h on Linux: /proc/cpuinfo, /proc/meminfo, the cgroup v2
 * memory.max, /proc/sys/vm, /proc/self/io, /proc/sys/vm/drop_caches, and a process's
 * identity from the boot id and /proc/PID/stat. */
#include "os/machine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DROP_CACHES "/proc/sys/vm/drop_caches"

/* Value after "key<spaces>:" in a /proc file of "key : value" lines, trimmed: 0 or -1. */
static int proc_keyed(const char *path, const char *key, char *out, size_t size)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    char line[512];
    size_t klen = strlen(key);
    int rc = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) != 0)
            continue;
        char *p = line + klen;
        p += strspn(p, " \t");
        if (*p != ':')
            continue;
        p++;
        p += strspn(p, " \t");
        p[strcspn(p, "\n")] = '\0';
        snprintf(out, size, "%s", p);
        rc = 0;
        break;
    }
    fclose(f);
    return rc;
}

int os_cpu_model(char *buf, size_t len)
{
    if (proc_keyed("/proc/cpuinfo", "model name", buf, len) == 0 && buf[0])
        return 0;
    buf[0] = '\0';
    return -1;
}

uint64_t os_ram_bytes(void)
{
    char buf[64];
    if (proc_keyed("/proc/meminfo", "MemTotal", buf, sizeof buf) == 0)
        return strtoull(buf, NULL, 10) * 1024u; /* "N kB" */
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0;
}

uint64_t os_ram_usable(void)
{
    uint64_t ram = os_ram_bytes();
    FILE *f = fopen("/sys/fs/cgroup/memory.max", "re");
    if (f) {
        unsigned long long lim;
        if (fscanf(f, "%llu", &lim) == 1 && lim > 0 && (ram == 0 || lim < ram))
            ram = lim;
        fclose(f);
    }
    return ram;
}

long os_vm_setting(const char *name)
{
    char path[128], buf[64], *end;
    snprintf(path, sizeof path, "/proc/sys/vm/%s", name);
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    char *ok = fgets(buf, sizeof buf, f);
    fclose(f);
    if (!ok)
        return -1;
    errno = 0;
    long v = strtol(buf, &end, 10);
    return end == buf || errno ? -1 : v;
}

/* Value of the line "key: N" in buf (key must start a line); 0 when absent. */
static uint64_t keyed_value(const char *buf, const char *key)
{
    size_t klen = strlen(key);
    for (const char *p = buf; *p;) {
        if (strncmp(p, key, klen) == 0 && p[klen] == ':')
            return strtoull(p + klen + 1, NULL, 10);
        const char *nl = strchr(p, '\n');
        if (!nl)
            break;
        p = nl + 1;
    }
    return 0;
}

int os_proc_io(uint64_t *read_bytes, uint64_t *write_bytes)
{
    char buf[1024];
    size_t len = 0;
    *read_bytes = *write_bytes = 0;
    int fd = open("/proc/self/io", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    while (len < sizeof buf - 1) {
        ssize_t n = read(fd, buf + len, sizeof buf - 1 - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        len += (size_t)n;
    }
    close(fd);
    buf[len] = '\0';
    if (!len)
        return -1;
    *read_bytes = keyed_value(buf, "read_bytes");
    *write_bytes = keyed_value(buf, "write_bytes");
    return 0;
}

int os_cpu_busy_ns(uint64_t *ns)
{
    *ns = 0;
    FILE *f = fopen("/proc/stat", "re");
    if (!f)
        return -1;
    unsigned long long v[8] = {0};
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
                   &v[4], &v[5], &v[6], &v[7]);
    fclose(f);
    long hz = sysconf(_SC_CLK_TCK);
    if (n < 8 || hz <= 0)
        return -1;
    /* user, nice, system; idle (3) and iowait (4) are not work; irq, softirq, steal */
    unsigned long long ticks = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
    *ns = (uint64_t)(ticks * (1000000000ull / (unsigned long long)hz));
    return 0;
}

bool os_tsc_invariant(void)
{
    FILE *f = fopen("/proc/cpuinfo", "re");
    if (!f)
        return false;
    char line[8192];
    bool found = false, constant = false, nonstop = false;
    while (!found && fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5))
            continue;
        found = true;
        char *save = NULL, *list = strchr(line, ':');
        for (char *tok = strtok_r(list ? list + 1 : line, " \t\n", &save); tok;
             tok = strtok_r(NULL, " \t\n", &save)) {
            constant |= !strcmp(tok, "constant_tsc");
            nonstop |= !strcmp(tok, "nonstop_tsc");
        }
    }
    fclose(f);
    return constant && nonstop;
}

int os_drop_caches(char *why, size_t len)
{
    /* Only clean pages can be dropped: write everything back first, on every file system. */
    sync();
    int fd = open(DROP_CACHES, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        snprintf(why, len, "cannot open %s: %s", DROP_CACHES, strerror(e));
        return -e;
    }
    ssize_t n = write(fd, "3\n", 2);
    int e = n < 0 ? errno : EIO;
    close(fd);
    if (n != 2) {
        snprintf(why, len, "cannot write %s: %s", DROP_CACHES, strerror(e));
        return -e;
    }
    return 0;
}

int os_process_identity(long pid, char *buf, size_t len)
{
    char path[64], stat[1024], boot[64] = "";
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = '\0';
    /* the start time is field 22; the name (field 2) may hold blanks and ')' */
    char *p = strrchr(stat, ')');
    unsigned long long start = 0;
    for (int field = 2; p && field < 22; field++)
        p = strchr(p + 1, ' ');
    if (!p || sscanf(p + 1, "%llu", &start) != 1)
        return -1;
    f = fopen("/proc/sys/kernel/random/boot_id", "re");
    if (f) {
        if (!fgets(boot, sizeof boot, f))
            boot[0] = '\0';
        boot[strcspn(boot, "\n")] = '\0';
        fclose(f);
    }
    snprintf(buf, len, "%ld:%s:%llu", pid, boot, start);
    return 0;
}
