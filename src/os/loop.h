/* loop.h — a regular file as a block device: attaching an image to a free loop device and
 * detaching it again, only while it is still backed by that image. Needs root. The POSIX
 * fallback has none (the call fails with a clear line): managed images need Linux.
 */
#ifndef FSBENCH_OS_LOOP_H
#define FSBENCH_OS_LOOP_H

#include <stddef.h>
#include <sys/types.h>

/* Attaches image to a free loop device, without auto-clear (we detach it ourselves),
 * retrying when another process takes the same free device first; its path goes into
 * device (len bytes). 0, or -1 after error() (device ""). */
int os_loop_attach(const char *image, char *device, size_t len);
/* Detaches loop device `device` if it is still backed by the file image_dev/image_ino; the
 * kernel may hold it a moment after umount (EBUSY is retried). 0 when detached, no longer
 * attached, or backed by something else now (left alone); -1 after error(). */
int os_loop_detach(const char *device, dev_t image_dev, ino_t image_ino);
/* The same without a message, for a fault's handler: async-signal-safe (open, ioctl,
 * nanosleep, close only). 0, or -1 with errno set. */
int os_loop_detach_quiet(const char *device, dev_t image_dev, ino_t image_ino);

/* Calls fn for every attached loop device: its path ("/dev/loop3"), its backing file's path
 * as the kernel keeps it (" (deleted)" appended once the file is removed; "" when unknown)
 * and that file's device and inode, until fn returns non-zero (which is returned). 0, or
 * -1 with errno when the devices cannot be listed (ENOSYS in the POSIX fallback). */
int os_loop_each(int (*fn)(const char *device, const char *backing, dev_t dev, ino_t ino,
                           void *arg),
                 void *arg);

#endif
