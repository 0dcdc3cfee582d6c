/* lockfile.h — an advisory lock on an open file that lives as long as the lock holder: the
 * way a live run is told from one that was killed (a marker or owner file whose lock can be
 * taken belongs to nobody any more). Linux and the BSDs: flock(2), per open file, released
 * when the last descriptor of it closes, whatever the process does; the POSIX fallback: a
 * whole-file fcntl(2) lock, released when the process ends or closes any descriptor of the
 * file (so the holder must not open the file a second time).
 */
#ifndef FSBENCH_OS_LOCKFILE_H
#define FSBENCH_OS_LOCKFILE_H

#include <stdbool.h>

/* Takes an exclusive lock on fd without waiting: 0 when taken, 1 when another holder has
 * it, -1 with errno on failure. fd may be open read-only where os_lock_readonly is true;
 * else it must be open for writing. */
int os_lock_try(int fd);
/* Whether a read-only descriptor can hold the lock (flock: yes; fcntl: no). A lock held
 * through a descriptor open for writing keeps its file system from being remounted
 * read-only, so holders use a read-only one where they can. */
extern const bool os_lock_readonly;

#endif
