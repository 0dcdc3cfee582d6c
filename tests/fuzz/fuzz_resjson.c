/* fuzz_resjson.c — libFuzzer target: a results JSON file from the fuzzer through the import
 * path (resjson_read_file: jansson's parser, then every object of the schema). */
#include "fuzz_util.h"
#include "measure/results.h"
#include "results/resjson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("in.json", data, size);
    struct run_set rs;
    memset(&rs, 0, sizeof rs);
    if (resjson_read_file(path, &rs) == 0)
        run_set_free(&rs);
    unlink(path);
    return 0;
}
