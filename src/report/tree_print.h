/* tree_print.h — `fsbench tree stats` printed (see tree_print.c). */
#ifndef FSBENCH_REPORT_TREE_PRINT_H
#define FSBENCH_REPORT_TREE_PRINT_H

#include "tree/tarentry.h"
#include "tree/tree.h"

/* An archive's totals on stdout, one a line; path: the archive as it is shown. */
void tree_print_archive(const char *path, const struct tarent_totals *tt);
/* The totals of the tree spec makes, one a line, and a histogram of its file sizes, on
 * stdout. */
void tree_print_totals(const struct tree_spec *spec, const struct tree_totals *t);

#endif
