/* cli_resume.c — a run set's resume data and states (see cli_resume.h). */
#include "cli/cli_resume.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "phase/phase.h"

void cli_resume_describe(struct run_set *rs, const char *args_json, const struct runner_opts *ro)
{
    rs->args[0] = rs->cwd[0] = '\0';
    if (args_json && strlen(args_json) < sizeof rs->args && getcwd(rs->cwd, sizeof rs->cwd) != NULL)
        snprintf(rs->args, sizeof rs->args, "%s", args_json);
    else
        rs->cwd[0] = '\0';
    rs->planned = ro->runs * (unsigned)(ro->nconfigs ? ro->nconfigs : 1);
}

static int plan_from_set(void *arg, const char *config, unsigned round)
{
    return runner_plan_from(arg, config, round);
}

void cli_resume_adopt(struct run_set *rs, struct run_set *kept, struct runner_opts *ro)
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

int cli_resume_ready(struct store *s, int64_t set_id, const struct run_set *kept,
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

void cli_resume_end(struct store *s, int64_t set_id, const struct runner_opts *ro,
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
