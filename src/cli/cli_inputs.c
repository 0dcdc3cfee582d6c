/* cli_inputs.c — the run sets a command reads (compare, report): labels from the results
 * store, opened read-only, or JSON files (see cli_inputs.h). A *.json argument that exists
 * but is not a regular file (a FIFO, a device) is refused, not taken for a label. */
#include "cli/cli_inputs.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "results/resjson.h"
#include "results/store.h"

/* Whether arg names a JSON file (a *.json that exists: resjson_read_file() checks that it
 * is a regular file). */
static bool is_json_file(const char *arg)
{
    size_t l = strlen(arg);
    struct stat st;
    return l > 5 && strcmp(arg + l - 5, ".json") == 0 && stat(arg, &st) == 0;
}

int cli_load_inputs(const char *cmd, char **args, size_t n, const char *db, struct run_set *sets)
{
    struct store *st = NULL;
    char dbpath[4096];
    int status = EXIT_OK;
    for (size_t i = 0; i < n && status == EXIT_OK; i++) {
        if (is_json_file(args[i])) {
            if (resjson_read_file(args[i], &sets[i]))
                status = EXIT_RUN_FAILED;
            continue;
        }
        if (!st) {
            if (db)
                snprintf(dbpath, sizeof dbpath, "%s", db);
            else if (store_default_path(dbpath, sizeof dbpath)) {
                error("%s: no database path (HOME is not set); use --db FILE", cmd);
                status = EXIT_USAGE;
                break;
            }
            /* Reading never creates a database: a missing one holds no labels. */
            if (access(dbpath, F_OK) != 0) {
                error("%s: no runs labelled '%s' in %s (no such database)", cmd, args[i],
                      dbpath);
                status = EXIT_USAGE;
                break;
            }
            st = store_open_read(dbpath);
            if (!st) {
                status = EXIT_RUN_FAILED;
                break;
            }
        }
        int rc = store_load_label(st, args[i], &sets[i]);
        if (rc == 1) {
            error("%s: no runs labelled '%s' in %s", cmd, args[i], dbpath);
            status = EXIT_USAGE;
        } else if (rc) {
            status = EXIT_RUN_FAILED;
        }
    }
    if (st)
        store_close(st);
    return status;
}


int cli_inputs_open(const char *cmd, char **args, size_t n, const char *db,
                    struct run_set **sets, struct cmp_input **in)
{
    *sets = calloc(n, sizeof **sets);
    *in = calloc(n, sizeof **in);
    if (!*sets || !*in)
        return error("out of memory"), EXIT_RUN_FAILED;
    for (size_t i = 0; i < n; i++) {
        (*in)[i].name = args[i];
        (*in)[i].rs = &(*sets)[i];
    }
    return cli_load_inputs(cmd, args, n, db, *sets);
}

void cli_inputs_free(struct run_set *sets, struct cmp_input *in, size_t n)
{
    for (size_t i = 0; sets && i < n; i++)
        run_set_free(&sets[i]);
    free(sets);
    free(in);
}
