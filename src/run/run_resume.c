/* run_resume.c — a run set's resume data and states, and the stored set --resume
 * finishes loaded (see run_resume.h). */
#include "run/run_resume.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "run/run_consent.h"
#include "run/run_store.h"
#include "phase/phase.h"

void run_resume_describe(struct run_set *rs, const char *args_json, const struct runner_opts *ro)
{
    rs->args[0] = rs->cwd[0] = '\0';
    if (args_json && strlen(args_json) < sizeof rs->args && getcwd(rs->cwd, sizeof rs->cwd) != NULL)
        snprintf(rs->args, sizeof rs->args, "%s", args_json);
    else
        rs->cwd[0] = '\0';
    rs->planned = ro->runs * (unsigned)(ro->nconfigs ? ro->nconfigs : 1);
}

/* The phase names of ro, joined with ',' into buf. */
static const char *ro_phases(const struct runner_opts *ro, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t p = 0; p < ro->nphases && used < len; p++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", p ? "," : "",
                                 ro->phases[p]->name);
    return buf;
}

/* The phase names of stored run r, joined with ',' into buf. */
static const char *run_phases(const struct run_result *r, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t p = 0; p < r->nphases && used < len; p++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", p ? "," : "", r->phases[p].name);
    return buf;
}

int run_resume_check_plan(const struct run_set *kept, const struct runner_opts *ro, bool phases)
{
    const char *kind = runner_target_kind(ro);
    const char *dev = ro->tspec && ro->tspec->device ? ro->tspec->device : NULL;
    if (kept->target.kind[0] && strcmp(kept->target.kind, kind))
        return error("--resume: '%s' ran on %s %s; these arguments run on %s %s: the plan "
                     "changed, so it cannot be finished",
                     kept->label, strcmp(kept->target.kind, "image") ? "a" : "an",
                     kept->target.kind, strcmp(kind, "image") ? "a" : "an", kind);
    if (dev && !strcmp(kept->target.kind, "device") &&
        !run_consent_same_device(kept->target.device, dev))
        return error("--resume: '%s' ran on the device %s; these arguments name %s: the plan "
                     "changed, so it cannot be finished",
                     kept->label, kept->target.device, dev);
    unsigned planned = ro->runs * (unsigned)(ro->nconfigs ? ro->nconfigs : 1);
    if (kept->planned && planned != kept->planned)
        return error("--resume: '%s' planned %u runs; these arguments plan %u: the plan "
                     "changed, so it cannot be finished",
                     kept->label, kept->planned, planned);
    char now[1024], was[1024];
    ro_phases(ro, now, sizeof now);
    for (size_t i = 0; phases && i < kept->nruns; i++) {
        const struct run_result *r = &kept->runs[i];
        bool failed = false;
        for (size_t p = 0; p < r->nphases; p++)
            failed |= r->phases[p].status == PHASE_FAILED;
        if (failed && r->nphases == 1 && !strcmp(r->phases[0].name, "setup"))
            continue; /* a run whose target could not be set up */
        bool same = failed ? r->nphases <= ro->nphases : r->nphases == ro->nphases;
        for (size_t p = 0; same && p < r->nphases; p++)
            same = !strcmp(r->phases[p].name, ro->phases[p]->name);
        if (!same)
            return error("--resume: '%s' ran the phases %s; these arguments run %s: the plan "
                         "changed, so it cannot be finished",
                         kept->label, run_phases(r, was, sizeof was), now);
    }
    return 0;
}

static int plan_from_set(void *arg, const char *config, unsigned round)
{
    return runner_plan_from(arg, config, round);
}

void run_resume_adopt(struct run_set *rs, struct run_set *kept, struct runner_opts *ro)
{
    rs->runs = kept->runs;
    rs->nruns = kept->nruns;
    rs->warm_cache |= kept->warm_cache;
    if (!rs->nmeta) { /* the set keeps the notes it was made with */
        memcpy(rs->meta, kept->meta, sizeof rs->meta);
        rs->nmeta = kept->nmeta;
    }
    kept->runs = NULL;
    kept->nruns = 0;
    ro->plan = plan_from_set;
    ro->plan_arg = rs;
}

int run_resume_ready(struct store *s, int64_t set_id, const struct run_set *kept,
                     const struct run_set *rs)
{
    /* the round order is a permutation of the configurations: the same ones, in the same
     * declared order, or the rounds would not pair */
    if (strcmp(kept->target.configs, rs->target.configs)) {
        char was[sizeof kept->target.configs], now[sizeof rs->target.configs];
        snprintf(was, sizeof was, "%s", kept->target.configs);
        snprintf(now, sizeof now, "%s", rs->target.configs);
        for (char *p = was; (p = strchr(p, '\n'));)
            *p = ' ';
        for (char *p = now; (p = strchr(p, '\n'));)
            *p = ' ';
        return error("--resume: '%s' ran the configurations %s; these arguments make %s: "
                     "the plan changed (a configuration that failed its pre-flight?), so it "
                     "cannot be finished in the same rounds",
                     kept->label, was[0] ? was : "(one)", now[0] ? now : "(one)");
    }
    int claim = store_claim_set(s, set_id);
    if (claim == 1)
        return error("--resume: '%s' is being finished by another fsbench", kept->label);
    if (claim < 0 || store_drop_interrupted(s, set_id) < 0)
        return -1;
    return 0;
}

void run_resume_end(struct store *s, int64_t set_id, const struct runner_opts *ro,
                    const struct run_set *rs, int rc)
{
    const char *state = "done";
    if (rc < 0) {
        bool failed = false;
        for (size_t i = 0; i < rs->nruns && !failed; i++)
            for (size_t p = 0; p < rs->runs[i].nphases; p++)
                failed |= !rs->runs[i].interrupted && rs->runs[i].phases[p].status == PHASE_FAILED;
        state = !phase_interrupt && ro->fail_fast && failed ? "stopped" : "interrupted";
    }
    store_set_state(s, set_id, state);
}

/* The set --resume finishes while its stored arguments run (cmd_run_resume.c sets it). */
static struct {
    struct run_set *set;
    int64_t id;
} resuming;

int run_resume_load(const char *label, const char *db, struct run_set **setp,
                    struct store_set_info *info, size_t *keptp)
{
    char dbbuf[4096];
    if (!db) {
        if (store_default_path(dbbuf, sizeof dbbuf) < 0)
            return error("--resume: no default results database (HOME is not set); use "
                         "--db FILE"),
                   EXIT_USAGE;
        db = dbbuf;
    }
    if (access(db, F_OK) != 0)
        return error("--resume: no run set labelled '%s' (there is no results database %s)", label,
                     db),
               EXIT_USAGE;
    /* opened to write: runs that waited in the spool join the set before it is read, so
     * that they are not made again */
    struct store *s = run_store_open_write(db);
    if (!s)
        return EXIT_RUN_FAILED;
    int rc = store_last_set(s, label, info);
    struct run_set *set = NULL;
    if (rc == 0 && info->resumable && !info->running && strcmp(info->state, "done")) {
        set = calloc(1, sizeof *set);
        rc = !set ? error("out of memory") : store_load_set(s, info->id, set);
    }
    store_close(s);
    if (rc != 0) {
        free(set);
        if (rc < 0)
            return EXIT_RUN_FAILED;
        return error("--resume: no run set labelled '%s'; 'fsbench runs' lists them", label),
               EXIT_USAGE;
    }
    if (info->running)
        return error("--resume: '%s' is still running (another fsbench is making its runs)", label),
               EXIT_RUN_FAILED;
    if (!info->resumable)
        return error("--resume: '%s' cannot be resumed: it was made by fsbench cmd, an import "
                     "or an older fsbench, which kept no arguments to run again",
                     label),
               EXIT_USAGE;
    if (!strcmp(info->state, "done")) {
        inform("--resume: '%s' is complete: %u of %u runs%s; nothing to do", label, info->nruns,
               info->planned,
               info->nruns < info->planned ? " (its failed configurations' later "
                                           "rounds were not run)"
                                         : "");
        return EXIT_OK;
    }
    /* the run a signal stopped is made again */
    size_t kept = 0;
    for (size_t i = 0; i < set->nruns; i++) {
        struct run_result *r = &set->runs[i];
        if (!r->interrupted) {
            set->runs[kept++] = *r;
            continue;
        }
        for (size_t p = 0; p < r->nphases; p++)
            phase_result_free(&r->phases[p]);
        free(r->phases);
    }
    set->nruns = kept;
    *setp = set;
    *keptp = kept;
    return RUN_RESUME_GO;
}

void run_resume_set(struct run_set *set, int64_t id)
{
    resuming.set = set;
    resuming.id = id;
}

struct run_set *run_resuming(int64_t *id)
{
    if (id)
        *id = resuming.id;
    return resuming.set;
}
