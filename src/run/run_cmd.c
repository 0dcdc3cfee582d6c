/* run_cmd.c — `fsbench cmd` below the command line: whether the program after -- can be
 * run at all, and the commands given checked together with the rest of cmd's options and
 * made the configurations of a run set (one a command, named by the command, escaped),
 * with the "cmd" scenario's one phase. Nothing here parses argv or prints a report.
 */
#include "run/run_cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/text.h"
#include "run/run_session.h"
#include "run/scenario.h"
#include "stats/seqtest.h"

/* Whether the program after -- can be run at all: a path must name an executable file, a
 * bare name one in PATH (or be one of the shell's special built-ins: it runs under sh -c).
 * 0, or -1 after the one line that says why (before anything is run). */
int run_cmd_program_check(const char *prog)
{
    static const char *const builtins[] = {":", ".", "cd", "command", "eval", "exec", "exit",
                                           "export", "set", "ulimit", "umask", "[", NULL};
    struct stat st;
    if (strchr(prog, '/')) {
        if (stat(prog, &st) < 0)
            return error("cmd: cannot run %s: %s", text_shown(prog), strerror(errno));
        if (!S_ISREG(st.st_mode) || access(prog, X_OK) < 0)
            return error("cmd: cannot run %s: %s", text_shown(prog),
                         S_ISDIR(st.st_mode) ? "a directory" : "not executable");
        return 0;
    }
    for (size_t i = 0; builtins[i]; i++)
        if (!strcmp(prog, builtins[i]))
            return 0;
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        size_t n = strcspn(path, ":");
        char cand[4096];
        if (snprintf(cand, sizeof cand, "%.*s/%s", (int)(n ? n : 1), n ? path : ".", prog) <
                (int)sizeof cand &&
            stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0)
            return 0;
        path += n + (path[n] == ':');
    }
    return error("cmd: cannot run %s: no such program in PATH", text_shown(prog));
}

int run_cmd_configs(struct runner_opts *ro, const char *label, struct run_bisect_ask *bisect,
                    bool *bisecting, const char **cmds, size_t ncmds, unsigned max_runs,
                    unsigned long long seed)
{
    if (ncmds == 0)
        return error("cmd: no command given (--cmd STRING or -- COMMAND ARGS...); try "
                     "'fsbench cmd --help'"), EXIT_USAGE;
    if (run_session_check_label(label))
        return EXIT_USAGE;
    if (ro->runs_auto || ro->until_verdict)
        ro->runs = max_runs;
    if (run_bisect_asked(bisect) || bisect->exit_status || bisect->phase || bisect->metric) {
        int brc = run_bisect_check(bisect, ro, ncmds, max_runs, label);
        if (brc)
            return brc;
        *bisecting = run_bisect_asked(bisect);
    }
    if (ro->until_verdict && max_runs < SEQ_FIRST_LOOK)
        return error("--max-runs %u: --runs until-verdict needs at least %d (a verdict needs %d "
                     "pairs)",
                     max_runs, SEQ_FIRST_LOOK, SEQ_FIRST_LOOK),
               EXIT_USAGE;
    if (ro->until_verdict && ro->no_interleave)
        return error("--runs until-verdict pairs the commands' runs of each round: it needs "
                     "them interleaved (drop --no-interleave)"),
               EXIT_USAGE;
    if (ro->until_verdict && ncmds < 2)
        return error("--runs until-verdict compares commands with the first: give two or more "
                     "(--cmd, repeated)"),
               EXIT_USAGE;
    for (size_t i = 0; i < ncmds; i++) {
        struct runner_config *rc = &ro->configs[ro->nconfigs++];
        rc->command = cmds[i];
        /* the command names its configuration, escaped: a name holds no line break */
        text_escape(rc->name, sizeof rc->name, cmds[i]);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(ro->configs[j].name, rc->name))
                snprintf(rc->name, sizeof rc->name, "#%zu %.58s", i + 1, text_shown(cmds[i]));
    }
    ro->order_seed = seed;
    int n = scenario_resolve("cmd", ro->phases, SCENARIO_MAX_PHASES);
    if (n < 0)
        return EXIT_RUN_FAILED;
    ro->nphases = (size_t)n;
    return 0;
}
