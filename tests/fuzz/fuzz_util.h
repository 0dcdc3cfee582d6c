/* fuzz_util.h — what the libFuzzer targets share: the parsers under test read files, so
 * each input is written to a file in a private directory first. */
#ifndef FSBENCH_FUZZ_UTIL_H
#define FSBENCH_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"

/* A directory of this process's own, made once (messages off: bad input is the point). */
static inline const char *fuzz_dir(void)
{
    static char dir[64];
    if (!dir[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/fsbench-fuzz.XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(dir))
            abort();
        err_set_quiet(1);
    }
    return dir;
}

/* Writes data to dir/name, returns the path (static storage); aborts when it cannot. */
static inline const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", fuzz_dir(), name);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
        abort();
    return path;
}

#endif
