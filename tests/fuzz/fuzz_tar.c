/* fuzz_tar.c — libFuzzer target: an archive from the fuzzer through tarsrc_open (libarchive's
 * reader, decompression into a scratch copy, the index pass of tarindex.c) and
 * tarsrc_measure. Any outcome but a crash, a leak or undefined behaviour is fine. */
#include "fuzz_util.h"
#include "tree/tarsrc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("in.tar", data, size);
    struct tarsrc *src = tarsrc_open(path, fuzz_dir());
    if (src) {
        struct tarent_totals t;
        tarsrc_measure(src, &t);
        if (t.files > t.entries + t.dirs)
            abort(); /* counts out of thin air */
        tarsrc_close(src);
    }
    unlink(path);
    return 0;
}
