/* cli_run.c — the shared tail of `fsbench run` and `fsbench cmd` (see cli_run.h): signals
 * caught, the set made through a run session (run/run_session.h) with the report's
 * callbacks of report/report_run.h.
 */
#include "cli/cli_run.h"

#include <stdio.h>

#include "base/sig.h"
#include "phase/phase.h"
#include "target/target.h"

/* A fault's handler runs this: async-signal-safe, so no message (see sig.h). */
static void release_targets(void)
{
    target_release_on_fault();
}

int cli_signals_install(void)
{
    /* a fault's last resort: whatever a managed target mounted and attached is released */
    sig_at_fatal(release_targets);
    return sig_install(&phase_interrupt);
}

void cli_run_reporter(struct report_run *c, const struct cli_output *out,
                      const struct runner_opts *ro, struct run_session_report *rep)
{
    struct report_run_opts o = {.format = out->format, .compilebench = out->compilebench,
                                .quiet = out->quiet, .wide = out->wide, .json = out->set.json};
    report_run_hooks(c, &o, ro, rep);
}

int cli_run_and_report(struct runner_opts *ro, const struct cli_output *out)
{
    struct run_session_opts so = out->set;
    so.meta = out->meta;
    so.nmeta = out->nmeta;
    struct report_run c;
    struct run_session_report rep;
    cli_run_reporter(&c, out, ro, &rep);
    return run_session_make(ro, &so, out->bisect, &rep);
}
