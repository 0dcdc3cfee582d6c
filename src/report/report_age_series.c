/* report_age_series.c — an --age-steps set's steps printed as a series (see
 * report_age_series.h); the steps themselves are run/age_steps.c's. */
#include "report/report_age_series.h"

#include <stdio.h>

#include "report/report.h"
#include "report/report_history.h"
#include "run/age_steps.h"
#include "stats/history.h"

int report_age_series(FILE *f, const struct run_set *rs)
{
    const char *steps = age_steps_of(rs);
    if (!steps)
        return 0;
    struct series sr;
    struct hist_result h;
    int rc = age_steps_series(rs, &sr, &h);
    if (rc == 0) {
        fprintf(f, "\nperformance vs age (steps %s: file-system sizes written in all; each "
                   "step's median wall with its interval):\n",
                steps);
        hist_report_text(f, &sr, &h, "age step");
        report_aging_steps(f, rs); /* aging's free space beside (replay or profile) */
    }
    hist_free(&h);
    series_free(&sr);
    return rc < 0 ? -1 : 0;
}
