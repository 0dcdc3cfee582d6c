/* report_failures.c — under a run set's table: which configurations failed during the set,
 * in which round and phase (their later rounds were not run), and a run stopped by a
 * signal, with how to finish the set. Prints what the runs say; computes nothing else.
 */
#include "report/report.h"

#include <string.h>

#include "base/text.h"

void report_failures(FILE *out, const struct run_set *rs)
{
    char note[RES_NOTE_MAX * 4];
    for (size_t i = 0; i < rs->nruns; i++) {
        const struct run_result *r = &rs->runs[i];
        const struct phase_result *failed = NULL;
        for (size_t p = 0; p < r->nphases && !failed; p++)
            if (r->phases[p].status == PHASE_FAILED)
                failed = &r->phases[p];
        if (!failed)
            continue;
        bool first = true; /* a configuration's first failure is its failure */
        for (size_t j = 0; j < i && first; j++)
            for (size_t p = 0; p < rs->runs[j].nphases; p++)
                if (!rs->runs[j].interrupted && !strcmp(rs->runs[j].config, r->config) &&
                    rs->runs[j].phases[p].status == PHASE_FAILED)
                    first = false;
        /* without named configurations the table's notes say it already */
        if (!first || (!r->interrupted && !r->config[0]))
            continue;
        text_escape(note, sizeof note, failed->note);
        if (r->interrupted)
            fprintf(out, "interrupted: run %zu%s%s (round %u), phase %s: %s%s%s\n", i + 1,
                    r->config[0] ? " of " : "", text_shown(r->config), r->round + 1, failed->name,
                    note, rs->args[0] ? "; fsbench run --resume " : "",
                    rs->args[0] ? text_shown(rs->label) : "");
        else
            fprintf(out,
                    "failed: %s in round %u (run %zu), phase %s: %s; its later rounds were "
                    "not run\n",
                    text_shown(r->config), r->round + 1, i + 1, failed->name, note);
    }
}
