/* run_usage.h — `fsbench run --help`, made from the table of run's options. */
#ifndef FSBENCH_RUN_USAGE_H
#define FSBENCH_RUN_USAGE_H

#include <stdio.h>

/* Prints `fsbench run --help` from the table (run/run_request_table.c). */
void run_options_usage(FILE *out);

#endif
