/* report_job.h — the job file a stored run set ran, printed under `fsbench show`'s table. */
#ifndef FSBENCH_REPORT_JOB_H
#define FSBENCH_REPORT_JOB_H

#include <stdio.h>

#include "measure/results.h"

/* rs's job file on out under a heading naming its sha256 and how to export it (label: the
 * set's label as the user gave it), each line indented and escaped; nothing when the set
 * was not made from a job file. Cuts rs->job_text into its lines (in place). */
void report_job_text(FILE *out, struct run_set *rs, const char *label);

#endif
