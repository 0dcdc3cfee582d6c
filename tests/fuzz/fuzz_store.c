/* fuzz_store.c — libFuzzer target: the results store opening a foreign or corrupt SQLite
 * file (the fuzzer's bytes as the database), then listing it and loading a label. */
#include "fuzz_util.h"
#include "measure/results.h"
#include "results/store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void remove_db(const char *path)
{
    char side[160];
    unlink(path);
    const char *sfx[] = {"-journal", "-wal", "-shm"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(side, sizeof side, "%s%s", path, sfx[i]);
        unlink(side);
    }
}

static int count_set(const struct store_set_info *info, void *arg)
{
    (void)info;
    ++*(int *)arg;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("results.db", data, size);
    struct store *st = store_open(path);
    if (st) {
        int n = 0;
        store_list(st, count_set, &n);
        struct run_set rs;
        memset(&rs, 0, sizeof rs);
        if (store_load_label(st, "basic", &rs) == 0)
            run_set_free(&rs);
        store_close(st);
    }
    remove_db(path);
    return 0;
}
