/* posix_machine.c — machine.h with what POSIX offers: memory from sysconf where the system
 * has _SC_PHYS_PAGES (the BSDs and glibc do), and "unknown" for the rest. */
#include "os/machine.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int os_cpu_model(char *buf, size_t len)
{
    if (len)
        buf[0] = '\0';
    return -1;
}

uint64_t os_ram_bytes(void)
{
#ifdef _SC_PHYS_PAGES
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    return pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0;
#else
    return 0;
#endif
}

uint64_t os_ram_usable(void)
{
    return os_ram_bytes();
}

long os_vm_setting(const char *name)
{
    (void)name;
    return -1;
}

int os_proc_io(uint64_t *read_bytes, uint64_t *write_bytes)
{
    *read_bytes = *write_bytes = 0;
    return -1;
}

int os_cpu_busy_ns(uint64_t *ns)
{
    *ns = 0;
    return -1;
}

bool os_tsc_invariant(void)
{
    return false;
}

int os_drop_caches(char *why, size_t len)
{
    sync();
    snprintf(why, len, "this system offers no way to drop the caches");
    return -ENOSYS;
}

int os_process_identity(long pid, char *buf, size_t len)
{
    char host[256] = "";
    if (kill((pid_t)pid, 0) < 0 && errno != EPERM)
        return -1;
    gethostname(host, sizeof host - 1);
    snprintf(buf, len, "%ld@%s", pid, host);
    return 0;
}
