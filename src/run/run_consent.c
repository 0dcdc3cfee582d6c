/* run_consent.c — consent from this process's argv alone (see run_consent.h). */
#include "run/run_consent.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "run/job.h"

static struct run_consent consent;

int run_consent_scan(int argc, char **argv, const char *shortopts, const struct option *opts)
{
    memset(&consent, 0, sizeof consent);
    /* getopt_long permutes what it scans: a copy of the pointers, the strings shared */
    char **copy = calloc((size_t)argc + 1, sizeof *copy);
    if (!copy)
        return error("out of memory");
    memcpy(copy, argv, (size_t)argc * sizeof *copy);
    argv = copy;
    int saved = opterr;
    opterr = 0;
    optind = 0;
    char optstring[64];
    snprintf(optstring, sizeof optstring, ":%s", shortopts);
    for (;;) {
        int idx = -1;
        int c = getopt_long(argc, argv, optstring, opts, &idx);
        if (c == -1)
            break;
        const char *name = NULL;
        if (idx >= 0)
            name = opts[idx].name;
        else
            for (const struct option *o = opts; c != '?' && c != ':' && o->name; o++)
                if (o->val == c)
                    name = o->name;
        if (!name)
            continue;
        if (!strcmp(name, "destroy-data")) {
            consent.destroy_data = true;
            if (optarg)
                consent.destroy_dev = optarg;
        } else if (!strcmp(name, "force")) {
            consent.force = true;
        } else if (!strcmp(name, "age-host-fs")) {
            consent.age_host_fs = true;
        } else if (!strcmp(name, "device")) {
            consent.device = optarg;
        }
    }
    opterr = saved;
    optind = 0;
    free(copy);
    if (consent.device && consent.destroy_dev &&
        !run_consent_same_device(consent.device, consent.destroy_dev))
        return error("--device %s and --destroy-data=%s name two devices: name the one whose "
                     "data mkfs may destroy",
                     consent.device, consent.destroy_dev);
    return 0;
}

const struct run_consent *run_consent(void)
{
    return &consent;
}

const char *run_consent_device(void)
{
    return consent.destroy_dev ? consent.destroy_dev : consent.device;
}

bool run_consent_same_device(const char *a, const char *b)
{
    if (!a || !b)
        return false;
    if (!strcmp(a, b))
        return true;
    char ra[PATH_MAX], rb[PATH_MAX];
    if (realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb))
        return true;
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && S_ISBLK(sa.st_mode) &&
           S_ISBLK(sb.st_mode) && sa.st_rdev == sb.st_rdev;
}

int run_consent_check_job(const struct job_file *jf, size_t i, const struct job_keys *keys)
{
    const char *named = run_consent_device();
    if (!named)
        return 0;
    struct job_arg *ja;
    int n = job_args(jf, i, keys, NULL, &ja);
    if (n < 0)
        return -1;
    int rc = 0;
    for (int k = 0; k < n && rc == 0; k++) {
        const char *v = ja[k].value;
        if (strcmp(ja[k].key, "device") || run_consent_same_device(v, named))
            continue;
        rc = error("%s:%d: job %s: device = %s, but the command line names %s: refusing to "
                   "destroy a device the job file and the command line do not agree on",
                   ja[k].file, ja[k].line, job_name(jf, i), v, named);
    }
    job_args_free(ja, n);
    return rc;
}
