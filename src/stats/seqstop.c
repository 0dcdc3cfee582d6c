/* seqstop.c — has every phase of every configuration its sequential verdict? (see
 * seqstop.h) */
#include "stats/seqstop.h"

#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "stats/compare.h"
#include "stats/negligible.h"

/* Appends "name" or "name (group)" to buf, ", "-separated; "..." once full. */
static void add_name(char *buf, size_t len, const char *phase, const char *group, bool groups)
{
    size_t used = strlen(buf);
    if (used && !strcmp(buf + used - 3, "..."))
        return;
    char item[RES_NAME_MAX * 3 + 16];
    snprintf(item, sizeof item, "%s%s%s%s", phase, groups ? " (" : "", groups ? group : "",
             groups ? ")" : "");
    if (used + strlen(item) + 2 + 4 >= len) {
        snprintf(buf + used, len - used, "%s...", used ? ", " : "");
        return;
    }
    snprintf(buf + used, len - used, "%s%s", used ? ", " : "", item);
}

static unsigned counted_rounds(const struct run_set *rs)
{
    unsigned lo = 0, hi = 0;
    bool any = false;
    for (size_t i = 0; i < rs->nruns; i++) {
        if (rs->runs[i].warmup)
            continue;
        unsigned r = rs->runs[i].round;
        if (!any || r < lo)
            lo = r;
        if (!any || r > hi)
            hi = r;
        any = true;
    }
    return any ? hi - lo + 1 : 0;
}

int seqstop_check(const struct run_set *rs, struct seqstop_status *st)
{
    memset(st, 0, sizeof *st);
    st->rounds = counted_rounds(rs);
    int m = cmp_metric_find(rs->stop.metric[0] ? rs->stop.metric : "wall");
    struct cmp_options opt = {m < 0 ? CMP_WALL : (enum cmp_metric)m, rs->stop.confidence,
                              rs->stop.min_effect};
    struct cmp_input in = {rs->label[0] ? rs->label : "set", rs};
    struct cmp_result r;
    /* too early to compare (one configuration so far) is no error here: not yet */
    char why[512];
    err_capture_begin(why, sizeof why);
    int rc = cmp_build(&in, 1, &opt, &r);
    err_capture_end();
    if (rc < 0) {
        cmp_result_free(&r);
        if (strstr(why, "out of memory"))
            return error("out of memory");
        return 0;
    }
    bool groups = r.ngroups > 2;
    for (size_t p = 0; p < r.nphases; p++) {
        const struct cmp_phase *ph = &r.phases[p];
        for (size_t g = 1; g < r.ngroups; g++) {
            const struct cmp_vs *vs = &ph->vs[g];
            /* a side with no value yet though it ran: skipped (or failed) every time */
            const struct cmp_sample *a = &ph->s[0], *b = &ph->s[g];
            bool never = (a->n == 0 && a->skipped + a->failed + a->unavailable) ||
                         (b->n == 0 && b->skipped + b->failed + b->unavailable);
            bool waiting = vs->status == CMP_ST_TOO_FEW && !never;
            /* too short to judge (wall time only): neither gets nor needs a verdict */
            if (opt.metric == CMP_WALL && a->n > 0 && b->n > 0 &&
                stats_negligible(a->sum.median, b->sum.median, rs->stop.negligible_s)) {
                st->negligible++;
                add_name(st->negligible_names, sizeof st->negligible_names, ph->name,
                         r.groups[g].name, groups);
                continue;
            }
            if (vs->status != CMP_ST_OK && !waiting) {
                st->undecidable++;
                add_name(st->undecidable_names, sizeof st->undecidable_names, ph->name,
                         r.groups[g].name, groups);
                continue;
            }
            st->decidable++;
            if (vs->status == CMP_ST_OK && vs->state == SEQ_DIFFERENT) {
                st->different++;
            } else if (vs->status == CMP_ST_OK && vs->state == SEQ_FUTILE) {
                st->futile++;
            } else {
                st->undecided++;
                for (size_t f = 0; f < r.nfailures; f++)
                    if (r.failures[f].group == g) {
                        st->halted++;
                        break;
                    }
                add_name(st->undecided_names, sizeof st->undecided_names, ph->name,
                         r.groups[g].name, groups);
            }
        }
    }
    st->all = st->decidable + st->negligible > 0 && st->undecided == 0;
    st->settled = st->decidable + st->negligible > 0 && st->undecided == st->halted;
    cmp_result_free(&r);
    return 0;
}
