/* run_consent.h — consent to destroy or age data, taken from this process's argv alone.
 *
 * The consent options (--destroy-data[=DEV], --force, --age-host-fs) and the device the
 * command line names (--device DEV) are read once, by run_consent_scan() over the argv the
 * program was started with, into one struct that nothing else fills: a job file, an include,
 * a stored set's arguments (--resume) or an import can name a device, but the argument
 * lists built from them never reach this struct, and the run's own parser ignores the
 * consent options it finds in them. Data is destroyed only on a device this command line
 * names (--device DEV, or --destroy-data=DEV).
 */
#ifndef FSBENCH_RUN_CONSENT_H
#define FSBENCH_RUN_CONSENT_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "run/job.h"

struct run_consent {
    bool destroy_data;       /* --destroy-data or --destroy-data=DEV */
    const char *destroy_dev; /* DEV of --destroy-data=DEV, or NULL */
    const char *device;      /* --device DEV on this command line, or NULL */
    bool force;              /* --force */
    bool age_host_fs;        /* --age-host-fs */
};

/* Fills the consent from argv (the process's own, argv[0] the sub-command) read with
 * getopt_long over shortopts and opts, in which the consent options are looked up by name
 * ("destroy-data", "force", "age-host-fs", "device"). Anything else is left to the
 * command's own parser. 0, or -1 after error() when --device and --destroy-data=DEV name
 * two devices. */
int run_consent_scan(int argc, char **argv, const char *shortopts, const struct option *opts);

/* What the scan found (all false and NULL before it). */
const struct run_consent *run_consent(void);

/* The device this command line names to be destroyed: --destroy-data=DEV, else --device
 * DEV; NULL when it names none. */
const char *run_consent_device(void);

/* Whether a and b are the same device: the same path, or paths that resolve to the same
 * file (a relative path, a symlink under /dev/disk). */
bool run_consent_same_device(const char *a, const char *b);

/* A device job i of jf names (its keys read through keys, the command line's options
 * aside) that is not the one this command line names (run_consent_device()): refused, at
 * its line, whatever else the command line says; the command line's --device would
 * replace it otherwise. Nothing to check when the command line names none. 0, or -1 after
 * error(). */
int run_consent_check_job(const struct job_file *jf, size_t i, const struct job_keys *keys);

#endif
