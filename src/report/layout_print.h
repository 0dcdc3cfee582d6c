/* layout_print.h — `fsbench layout` printed (see layout_print.c). */
#ifndef FSBENCH_REPORT_LAYOUT_PRINT_H
#define FSBENCH_REPORT_LAYOUT_PRINT_H

#include "measure/freefrag.h"
#include "measure/layout.h"

/* r, the layout of the tree below dir, as a short table on stdout. */
void layout_print_text(const char *dir, const struct layout_result *r);
/* The free space's fragmentation on stdout: the summary, then the histogram's non-empty
 * buckets. */
void layout_print_freefrag(const struct freefrag *f);
/* r and ff as one JSON object written to path (- for stdout). 0, or -1 after error(). */
int layout_print_json(const char *path, const char *dir, const struct layout_result *r,
                      const struct freefrag *ff);

#endif
