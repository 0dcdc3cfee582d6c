/* runs_list.h — `fsbench runs` printed (see runs_list.c). */
#ifndef FSBENCH_REPORT_RUNS_LIST_H
#define FSBENCH_REPORT_RUNS_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include "results/store.h"

/* The stored sets, oldest first, as store_list() gave them. */
struct runs_listing {
    struct store_set_info *v;
    size_t n, cap;
};

/* store_list()'s callback: appends *info to the runs_listing arg. 0, or -1 after error(). */
int runs_list_collect(const struct store_set_info *info, void *arg);
/* runs --labels: each label once, one a line on stdout, oldest set first. */
void runs_list_labels(const struct runs_listing *l);
/* The runs table on stdout, fitted to cols columns unless wide; escapes l's texts in place. */
void runs_list_print(struct runs_listing *l, unsigned cols, bool wide);

#endif
