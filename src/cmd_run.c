/* cmd_run.c — `fsbench run [OPTIONS] [SCENARIO]`: parse options, run the scenario through the
 * runner, print the report, write JSON, and save every finished run in the results store.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "err.h"
#include "report.h"
#include "resjson.h"
#include "runner.h"
#include "scenario.h"
#include "store.h"

static void run_usage(FILE *out)
{
    fprintf(out,
            "usage: fsbench run [OPTIONS] [SCENARIO]   (default scenario: basic)\n"
            "  --dir DIR         run in DIR (must exist, be writable and empty);\n"
            "                    default: a new directory under $TMPDIR or /tmp, removed after\n"
            "  --tree PROFILE    tree profile (default tiny; see fsbench list)\n"
            "  --scale X         multiply the profile's file count by X (default 1)\n"
            "  --seed N          tree seed (default 1)\n"
            "  --runs N          runs of the scenario (default 1)\n"
            "  --phases LIST     comma-separated phases instead of the scenario's\n"
            "  --engine NAME     posix (default) or null (measures the harness itself)\n"
            "  --format F        table (default) or seeds\n"
            "  --json FILE       write every run as JSON to FILE (- for stdout)\n"
            "  --label NAME      name this run set in the results store\n"
            "  --db FILE         results store (default $XDG_DATA_HOME/fsbench/results.db)\n"
            "  --no-save         do not save in the results store\n"
            "  --interval MS     time-line sampling interval (default 100)\n");
}

struct save_state {
    struct store *store;
    int64_t set_id;
};

static int on_set_ready(void *arg, struct run_set *rs)
{
    struct save_state *s = arg;
    if (!s->store)
        return 0;
    s->set_id = store_begin_set(s->store, rs);
    return s->set_id < 0 ? -1 : 0;
}

static int on_run_done(void *arg, const struct run_set *rs, const struct run_result *run)
{
    struct save_state *s = arg;
    if (!s->store || s->set_id <= 0)
        return 0;
    return store_add_run(s->store, s->set_id, run);
}

static void on_signal(int sig)
{
    phase_interrupt = 1;
}

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

static void join_argv(char *buf, size_t len, int argc, char **argv)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = -1; i < argc && used + 1 < len; i++) {
        const char *a = i < 0 ? "fsbench" : argv[i];
        int n = snprintf(buf + used, len - used, "%s%s", used ? " " : "", a);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

enum { OPT_NO_SAVE = 256, OPT_INTERVAL, OPT_PHASES };

int cmd_run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"dir", required_argument, NULL, 'd'},     {"tree", required_argument, NULL, 't'},
        {"scale", required_argument, NULL, 's'},   {"seed", required_argument, NULL, 'S'},
        {"runs", required_argument, NULL, 'n'},    {"engine", required_argument, NULL, 'e'},
        {"format", required_argument, NULL, 'f'},  {"json", required_argument, NULL, 'j'},
        {"label", required_argument, NULL, 'l'},   {"db", required_argument, NULL, 'D'},
        {"no-save", no_argument, NULL, OPT_NO_SAVE},
        {"interval", required_argument, NULL, OPT_INTERVAL},
        {"phases", required_argument, NULL, OPT_PHASES},
        {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0},
    };
    struct runner_opts ro = {.eng = &engine_posix, .runs = 1, .interval_ms = 100};
    const char *profile = "tiny", *json = NULL, *label = NULL, *db = NULL, *phases = NULL;
    double scale = 1;
    unsigned long long seed = 1;
    unsigned long ul;
    int format = REPORT_TABLE, save = 1, c;

    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': ro.dir = optarg; break;
        case 't': profile = optarg; break;
        case 's':
            if (cli_parse_positive(optarg, &scale) < 0)
                return error("--scale: '%s' is not a positive number", optarg), EXIT_USAGE;
            break;
        case 'S':
            if (cli_parse_u64(optarg, &seed) < 0)
                return error("--seed: '%s' is not a whole number", optarg), EXIT_USAGE;
            break;
        case 'n':
            if (cli_parse_count(optarg, &ul) < 0 || ul > 100000)
                return error("--runs: '%s' is not a positive whole number", optarg), EXIT_USAGE;
            ro.runs = (unsigned)ul;
            break;
        case 'e':
            ro.eng = engine_find(optarg);
            if (!ro.eng)
                return error("--engine: unknown engine '%s' (posix, null)", optarg), EXIT_USAGE;
            break;
        case 'f':
            format = report_format_find(optarg);
            if (format < 0)
                return error("--format: unknown format '%s' (table, seeds)", optarg), EXIT_USAGE;
            break;
        case 'j': json = optarg; break;
        case 'l': label = optarg; break;
        case 'D': db = optarg; break;
        case OPT_NO_SAVE: save = 0; break;
        case OPT_INTERVAL:
            if (cli_parse_count(optarg, &ul) < 0 || ul > 60000)
                return error("--interval: '%s' is not a whole number of ms (1-60000)", optarg),
                       EXIT_USAGE;
            ro.interval_ms = (unsigned)ul;
            break;
        case OPT_PHASES: phases = optarg; break;
        case 'h': run_usage(stdout); return EXIT_OK;
        default: run_usage(stderr); return EXIT_USAGE;
        }
    }
    if (argc - optind > 1)
        return error("run: one scenario at most, got '%s' and '%s'", argv[optind],
                     argv[optind + 1]), EXIT_USAGE;
    const char *scen_name = optind < argc ? argv[optind] : "basic";
    const struct scenario *scen = scenario_find(scen_name);
    if (!scen && !phases)
        return error("unknown scenario '%s' (see 'fsbench list')", scen_name), EXIT_USAGE;
    ro.tree.prof = profile_find(profile);
    if (!ro.tree.prof)
        return error("--tree: unknown profile '%s' (see 'fsbench list')", profile), EXIT_USAGE;
    ro.tree.scale = scale;
    ro.tree.seed = seed;
    int n = scenario_resolve(phases ? phases : scen->phases, ro.phases, SCENARIO_MAX_PHASES);
    if (n < 0)
        return EXIT_USAGE;
    ro.nphases = (size_t)n;
    if (label && (!*label || strlen(label) >= RES_NAME_MAX))
        return error("--label: must be 1 to %d characters", RES_NAME_MAX - 1), EXIT_USAGE;

    struct run_set rs = {0};
    snprintf(rs.scenario, sizeof rs.scenario, "%s", phases ? "custom" : scen->name);
    join_argv(rs.command_line, sizeof rs.command_line, argc - 1, argv + 1);
    if (label) {
        snprintf(rs.label, sizeof rs.label, "%s", label);
    } else {
        time_t now = time(NULL);
        char stamp[32];
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", localtime(&now));
        snprintf(rs.label, sizeof rs.label, "%s-%s", rs.scenario, stamp);
    }

    struct save_state ss = {0};
    if (save) {
        char path[4096];
        if (!db) {
            if (store_default_path(path, sizeof path) < 0)
                return error("cannot find a place for the results store (set HOME, or use "
                             "--db FILE or --no-save)"), EXIT_RUN_FAILED;
            db = path;
        }
        ss.store = store_open(db);
        if (!ss.store)
            return EXIT_RUN_FAILED;
    }
    ro.set_ready = on_set_ready;
    ro.run_done = on_run_done;
    ro.arg = &ss;

    install_signals();
    int rc = runner_run(&ro, &rs);
    if (rs.nruns > 0)
        report_run_set(stdout, &rs, (enum report_format)format);
    if (json && rs.nruns > 0 && resjson_write_file(&rs, json) < 0)
        rc = -1;
    if (ss.store) {
        if (rc == 0 && format == REPORT_TABLE)
            printf("saved as '%s' (%zu run%s)\n", rs.label, rs.nruns, rs.nruns == 1 ? "" : "s");
        store_close(ss.store);
    }
    run_set_free(&rs);
    return rc < 0 ? EXIT_RUN_FAILED : EXIT_OK;
}
