/* set_csv.h — a run set written as CSV (fsbench export --csv): a header line, then one
 * row per (run, phase) with its label, configuration, run and round (from 1), status and
 * figures; a skipped phase's figures, rates without a positive wall time and device
 * counters without a device are empty fields. Text fields go through base/csv.h (quoted,
 * and guarded against spreadsheet formulas).
 */
#ifndef FSBENCH_SET_CSV_H
#define FSBENCH_SET_CSV_H

#include <stdio.h>

#include "measure/results.h"

void set_csv_write(FILE *f, const struct run_set *rs);

#endif
