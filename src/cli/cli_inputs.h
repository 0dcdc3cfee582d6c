/* cli_inputs.h — loading the run sets named on a command line: an argument naming an
 * existing file that ends in ".json" is read as JSON, anything else is a label in the
 * results store (never created by reading: a missing database holds no labels).
 */
#ifndef FSBENCH_CLI_INPUTS_H
#define FSBENCH_CLI_INPUTS_H

#include <stddef.h>

#include "measure/results.h"
#include "stats/compare.h"

/* Loads args[i] into sets[i] (zeroed by the caller; freed by it whatever the result).
 * Returns an exit status: EXIT_OK; EXIT_USAGE for unknown labels (one line naming
 * `cmd` and the label); EXIT_RUN_FAILED when the store or a file cannot be read. */
int cli_load_inputs(const char *cmd, char **args, size_t n, const char *db,
                    struct run_set *sets);

/* The inputs of a command that reads run sets (compare, report): allocates *sets and *in
 * (n each, in[i] naming args[i] and pointing at sets[i]) and loads them. Returns an exit
 * status as cli_load_inputs(); free with cli_inputs_free() whatever it returned. */
int cli_inputs_open(const char *cmd, char **args, size_t n, const char *db,
                    struct run_set **sets, struct cmp_input **in);
void cli_inputs_free(struct run_set *sets, struct cmp_input *in, size_t n);

#endif
