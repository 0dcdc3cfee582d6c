/* machine.h — what the system tells about the machine and the process, for the
 * descriptions stored with results and for sizing: CPU model, RAM and the memory limit the
 * process runs under, the kernel's writeback settings, the process's storage I/O bytes,
 * the processor time spent on all work, whether the CPU's time-stamp counter is invariant,
 * and dropping the caches.
 *
 * Every call answers "unknown" (a documented value) rather than failing where the system
 * cannot say; the POSIX fallback knows only what sysconf(3) says.
 */
#ifndef FSBENCH_OS_MACHINE_H
#define FSBENCH_OS_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The CPU's model name into buf: 0, or -1 (buf "") where unknown. */
int os_cpu_model(char *buf, size_t len);
/* Physical memory in bytes; 0 where unknown. */
uint64_t os_ram_bytes(void);
/* The memory limit the process runs under (the cgroup's memory.max on Linux) when lower
 * than physical memory; else os_ram_bytes(). 0 where unknown. */
uint64_t os_ram_usable(void);
/* A kernel virtual-memory setting by its sysctl name under vm. ("dirty_ratio",
 * "dirty_bytes", "vfs_cache_pressure", ...); -1 where unknown. */
long os_vm_setting(const char *name);
/* Bytes the process has read from and written to storage so far (/proc/self/io
 * read_bytes and write_bytes): 0, or -1 (both 0) where the system does not count them. */
int os_proc_io(uint64_t *read_bytes, uint64_t *write_bytes);
/* True when the CPU's time-stamp counter runs at one rate in every power state, the same
 * on every CPU (Linux: /proc/cpuinfo's constant_tsc and nonstop_tsc); false where unknown. */
bool os_tsc_invariant(void);
/* The processor time all processors have spent working since boot, in ns (Linux: the first
 * line of /proc/stat: user, nice, system, irq, softirq and steal; the time given to guests
 * is in user): with the machine's processors and one's own use, how busy the others kept
 * it. 0, or -1 where the system does not say. */
int os_cpu_busy_ns(uint64_t *ns);
/* Writes back everything dirty, then drops the page, dentry and inode caches: 0, or
 * -errno with the reason in why (e.g. "cannot open /proc/sys/vm/drop_caches: Permission
 * denied"; ENOSYS where the system has no such control). Needs root. */
int os_drop_caches(char *why, size_t len);

/* An identity of the running process pid that another process can check later, into buf:
 * "PID:BOOT-ID:START" on Linux (the boot's id and the process's start time, so that the
 * pid reused by another process, or after a reboot, does not match), "PID@HOST" elsewhere
 * (the process is alive when a signal 0 reaches it). It starts with the pid in decimal.
 * 0, or -1 when no such process runs (or it cannot be told). */
int os_process_identity(long pid, char *buf, size_t len);

#endif
