/* fuzz_shape.c — libFuzzer target: a SHAPE.ini from the fuzzer through shape_load_ini and,
 * when it loads and is small enough to fit quickly, shape_to_profile (the profile fit). */
#include "fuzz_util.h"
#include "tree/shape.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("in.ini", data, size);
    struct shape s;
    if (shape_load_ini(path, &s) == 0 && s.files <= 2000 && s.dirs <= 2000) {
        static struct shape_model m;
        shape_to_profile(&s, "fuzz", &m);
    }
    unlink(path);
    return 0;
}
