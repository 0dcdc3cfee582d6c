/* fuzz_options.c — libFuzzer target: the parsers of option values. The first byte picks
 * the parser, the rest is the value: --image/--size sizes, --scale, --precision,
 * --mount-opts, counts and seeds. Each must accept or refuse, never crash, and what it
 * accepts must be in its range. */
#include <math.h>
#include <sys/mount.h>

#include "cli/cli.h"
#include "fuzz_util.h"
#include "target/target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    char *s = malloc(size);
    if (!s)
        return 0;
    memcpy(s, data + 1, size - 1);
    s[size - 1] = '\0';
    fuzz_dir(); /* messages off */
    uint64_t u;
    double d;
    unsigned long c;
    unsigned long long ull;
    switch (data[0] % 5) {
    case 0:
        if (target_parse_size(s, &u) == 0 && u == 0)
            abort();
        break;
    case 1:
        if (num_parse_positive(s, &d) == 0 && !(d > 0 && isfinite(d)))
            abort();
        break;
    case 2:
        if (num_parse_percent(s, &d) == 0 && !(d > 0 && d < 1))
            abort();
        break;
    case 3: {
        unsigned long flags;
        char opts[4096];
        if (target_parse_mount_opts(s, &flags, opts, sizeof opts) == 0 &&
            strnlen(opts, sizeof opts) == sizeof opts)
            abort();
        break;
    }
    default:
        if (num_parse_count(s, &c) == 0 && c == 0)
            abort();
        num_parse_u64(s, &ull);
        break;
    }
    free(s);
    return 0;
}
