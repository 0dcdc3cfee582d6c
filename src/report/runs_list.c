/* runs_list.c — what `fsbench runs` prints: the stored run sets as a table fitted to the
 * terminal (or every column whole), the command that finishes a set not done under it, and
 * `runs --labels`' plain list. What others wrote is shown escaped, never obeyed.
 */
#include "report/runs_list.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/err.h"
#include "base/text.h"
#include "measure/results.h"

int runs_list_collect(const struct store_set_info *info, void *arg)
{
    struct runs_listing *l = arg;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        struct store_set_info *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return error("out of memory");
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = *info;
    return 0;
}

static void local_date(double t, char *buf, size_t len)
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (!isfinite(t) || !localtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M", &tm))
        snprintf(buf, len, "?");
}

/* buf (len bytes) escaped for printing, in place (cut when the escapes do not fit). */
static void escape_in_place(char *buf, size_t len)
{
    if (!text_needs_escape(buf))
        return;
    char tmp[4096];
    text_escape(tmp, sizeof tmp, buf);
    snprintf(buf, len, "%s", tmp);
}

static int width(int w, const char *s)
{
    int n = (int)strlen(s);
    return n > w ? n : w;
}

/* The runs of a set: "12", or for one that is not done "7 of 12 runs (interrupted;
 * fsbench run --resume LABEL)"; fitted (!wide): "7 of 12 (interrupted)", the command
 * under the table (resume_note). */
static void runs_cell(const struct store_set_info *x, char *buf, size_t len, bool wide)
{
    bool done = !strcmp(x->state, "done");
    if (!x->planned || (done && x->nruns >= x->planned)) {
        snprintf(buf, len, "%u", x->nruns);
        return;
    }
    const char *how = x->running                     ? "running"
                      : !strcmp(x->state, "stopped") ? "stopped at a failure"
                      : done                         ? "a configuration failed"
                                                     : "interrupted";
    bool resume = wide && !done && !x->running && x->resumable;
    snprintf(buf, len, "%u of %u%s (%s%s%s)", x->nruns, x->planned, wide ? " runs" : "", how,
             resume ? "; fsbench run --resume " : "", resume ? x->label : "");
}

/* Whether set x can be finished with run --resume. */
static bool resumable(const struct store_set_info *x)
{
    return x->planned && strcmp(x->state, "done") && !x->running && x->resumable;
}

/* runs --labels: each label once, oldest set first, one a line and nothing else (for
 * scripts and the shell's completion); a label that would need escaping is left out. */
void runs_list_labels(const struct runs_listing *l)
{
    for (size_t i = 0; i < l->n; i++) {
        const char *label = l->v[i].label;
        bool seen = text_needs_escape(label) || strchr(label, ' ');
        for (size_t j = 0; j < i && !seen; j++)
            seen = !strcmp(l->v[j].label, label);
        if (!seen)
            printf("%s\n", label);
    }
}

/* The target without its mount options, for the fitted table: "ext4 /dev/vda" of
 * "ext4 /dev/vda (rw,relatime,...)"; "(per configuration)" stays, it says what the
 * file system is. In place. */
static void target_short(char *t)
{
    char *p = strstr(t, " (");
    if (p && strcmp(p, " (per configuration)"))
        *p = '\0';
}

/* s cut to w columns, the cut said by "..." (w >= 4). In place. */
static void cut_cell(char *s, int w)
{
    if ((int)strlen(s) > w)
        strcpy(s + w - 3, "...");
}

/* The runs table: id, label, date, scenario, tree, target, runs, fitting width columns
 * unless wide: the target without its mount options, then scenario, tree and target left
 * out as needed (in that order), then the label and the runs cut with "...": never a row
 * wider than width. wide: every column whole. Escapes what others wrote (in place). */
void runs_list_print(struct runs_listing *l, unsigned cols, bool wide)
{
    enum { C_ID, C_LABEL, C_DATE, C_SCEN, C_TREE, C_TARGET, C_RUNS, NCOL };
    static const char *const head[NCOL] = {"id", "label", "date", "scenario", "tree", "target",
                                           "runs"};
    int w[NCOL];
    bool on[NCOL];
    for (int c = 0; c < NCOL; c++)
        w[c] = (int)strlen(head[c]), on[c] = true;
    size_t nresume = 0;
    char (*runs)[RES_NAME_MAX + 128] = calloc(l->n ? l->n : 1, sizeof *runs);
    char (*ids)[32] = calloc(l->n ? l->n : 1, sizeof *ids);
    char (*dates)[64] = calloc(l->n ? l->n : 1, sizeof *dates);
    char (*resume)[RES_NAME_MAX * 4] = calloc(l->n ? l->n : 1, sizeof *resume);
    if (!runs || !ids || !dates || !resume) {
        error("out of memory");
        goto out;
    }
    for (size_t i = 0; i < l->n; i++) {
        /* what others wrote is shown, never obeyed: control characters escaped */
        struct store_set_info *x = &l->v[i];
        escape_in_place(x->label, sizeof x->label);
        escape_in_place(x->scenario, sizeof x->scenario);
        escape_in_place(x->tree, sizeof x->tree);
        escape_in_place(x->target, sizeof x->target);
        if (!wide)
            target_short(x->target);
        snprintf(ids[i], sizeof ids[i], "%" PRId64, x->id);
        local_date(x->created, dates[i], sizeof dates[i]);
        runs_cell(x, runs[i], sizeof runs[i], wide);
        if (!wide && resumable(x))
            nresume++;
        w[C_ID] = width(w[C_ID], ids[i]);
        w[C_LABEL] = width(w[C_LABEL], x->label);
        w[C_DATE] = width(w[C_DATE], dates[i]);
        w[C_SCEN] = width(w[C_SCEN], x->scenario);
        w[C_TREE] = width(w[C_TREE], x->tree);
        w[C_TARGET] = width(w[C_TARGET], x->target);
        w[C_RUNS] = width(w[C_RUNS], runs[i]);
    }
    if (!wide) {
        static const int drop[] = {C_SCEN, C_TREE, C_TARGET};
        int total = 0;
        for (int c = 0; c < NCOL; c++)
            total += w[c] + (c ? 2 : 0);
        for (size_t d = 0; d < sizeof drop / sizeof *drop && total > (int)cols; d++) {
            on[drop[d]] = false;
            total -= w[drop[d]] + 2;
        }
        if (total > (int)cols) { /* the label, down to 8 columns, then the runs */
            int cut = total - (int)cols, lw = w[C_LABEL] - cut < 8 ? 8 : w[C_LABEL] - cut;
            total -= w[C_LABEL] - lw;
            w[C_LABEL] = lw;
            if (total > (int)cols && w[C_RUNS] - (total - (int)cols) >= 4)
                w[C_RUNS] -= total - (int)cols;
        }
        for (size_t i = 0; i < l->n; i++) {
            if (resumable(&l->v[i])) /* the command needs the whole label */
                snprintf(resume[i], sizeof resume[i], "%s", l->v[i].label);
            cut_cell(l->v[i].label, w[C_LABEL]);
            cut_cell(runs[i], w[C_RUNS]);
        }
    }
    for (size_t i = 0; i <= l->n; i++) {
        const struct store_set_info *x = i ? &l->v[i - 1] : NULL;
        const char *cell[NCOL] = {
            x ? ids[i - 1] : head[C_ID],      x ? x->label : head[C_LABEL],
            x ? dates[i - 1] : head[C_DATE],  x ? x->scenario : head[C_SCEN],
            x ? x->tree : head[C_TREE],       x ? x->target : head[C_TARGET],
            x ? runs[i - 1] : head[C_RUNS]};
        printf("%*s", w[C_ID], cell[C_ID]);
        for (int c = 1; c < NCOL; c++)
            if (on[c] && c == C_RUNS)
                printf("  %s", cell[c]);
            else if (on[c])
                printf("  %-*s", w[c], cell[c]);
        printf("\n");
    }
    /* a set not done: the command that finishes it (whole: a command cut is no use) */
    for (size_t i = 0; nresume && i < l->n; i++)
        if (resume[i][0])
            printf("set %s: fsbench run --resume %s\n", ids[i], resume[i]);
out:
    free(resume);
    free(runs);
    free(ids);
    free(dates);
}
