/* report_job.c — the job file a stored run set ran, under `fsbench show`'s table (see
 * report_job.h): what others wrote is shown escaped, one line at a time.
 */
#include "report/report_job.h"

#include <stdbool.h>
#include <string.h>

#include "base/text.h"

void report_job_text(FILE *out, struct run_set *rs, const char *label)
{
    if (!rs->job_text[0])
        return;
    fprintf(out, "\njob file, sha256 %s (fsbench export %s --job writes it):\n",
            text_shown(rs->job_hash), text_shown(label));
    for (char *l = rs->job_text; *l;) {
        size_t n = strcspn(l, "\n");
        bool nl = l[n] == '\n';
        l[n] = '\0'; /* rs is ours: each line is printed (escaped) on its own */
        fprintf(out, "  %s\n", text_shown(l));
        l += n + nl;
    }
}
