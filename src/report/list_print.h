/* list_print.h — `fsbench list` printed (see list_print.c). */
#ifndef FSBENCH_REPORT_LIST_PRINT_H
#define FSBENCH_REPORT_LIST_PRINT_H

#include <stdbool.h>

#include "run/job.h"

/* list --names KIND: the names of kind (scenarios, phases, profiles or engines) alone, one
 * a line on stdout. 0, or -1 after error() for an unknown kind. */
int list_print_names(const char *kind);
/* Everything fsbench can run on stdout, folded to width columns (0: no limit); wide: each
 * profile's source too. keys: the job keys the shipped job files are parsed with. 0, or -1
 * after error(). */
int list_print_all(unsigned width, bool wide, const struct job_keys *keys);

#endif
