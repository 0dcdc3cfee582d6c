/* run_request_table.c — THE table of `fsbench run`'s options: one row each, in the order of
 * `run --help`. The command line, a job file's keys, `run --help`, the consent scan, what a
 * stored set keeps, the man page's and the completion's drift test all read this table
 * (run_request.h); nothing else lists run's options.
 *
 * To add an option (say --age-steps N, a whole number from 1 to 100, default 10, a job key,
 * in the workloads section):
 *   1. add a row below, where it goes in the help:
 *        {.name = "age-steps", .key = "age-steps", .kind = RUN_KIND_NUMBER, .arg = "N",
 *         .range = &range_age_steps, .def = "10", .section = RUN_SEC_WORKLOAD,
 *         .help = "age: the steps of the aging (default 10)", .set = set_age_steps},
 *      with its range beside the others and a setter that stores the checked value in the
 *      request (struct run_request: rq->ro, rq->ro.params, ...);
 *   2. say it in the man page's RUN OPTIONS (docs/fsbench.1), and run
 *      `make completion-run` if it has values or is a number (completion/fsbench.bash);
 *      tests/e2e/t0013-run-options-table.sh fails until both agree with the table.
 * A value the table checks (a range, an enum's values) needs no code in the setter; a
 * consent (RUN_KIND_CONSENT) needs none at all: run_consent.c reads it, from argv alone.
 */
#include "run/run_request.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "engine/engine.h"
#include "phase/cb_listing.h"
#include "phase/replay.h"
#include "phase/tarcalls.h"
#include "stats/compare.h"
#include "target/target.h"
#include "tree/ageprof.h"

/* ---- the ranges the table checks ---------------------------------------------------- */

static const struct num_range range_positive = {0, INFINITY, NUM_LO_OPEN, NULL, NULL};
static const struct num_range range_min_effect = {0, 100, NUM_HI_OPEN | NUM_PERCENT, NULL, NULL};
static const struct num_range range_negligible = {0, 3600, 0, NULL, NULL};
static const struct num_range range_percent = {0, 100, NUM_LO_OPEN | NUM_HI_OPEN | NUM_PERCENT,
                                               NULL, NULL};
static const struct num_range range_max_runs = {1, 100000, NUM_WHOLE, NULL, NULL};
static const struct num_range range_warmup = {0, 1000, NUM_WHOLE, NULL, NULL};
static const struct num_range range_threads = {1, RUNNER_MAX_THREADS, NUM_WHOLE, NULL, NULL};
static const struct num_range range_initial = {1, 1000, NUM_WHOLE, NULL, NULL};
static const struct num_range range_random = {1, 1000000, NUM_WHOLE, NULL, NULL};
static const struct num_range range_program_cpu = {0, 10000, 0, "microseconds", NULL};
static const struct num_range range_age_written = {0, 50, 0, NULL, NULL};
static const struct num_range range_age_fullness = {0, 1, NUM_HI_OPEN, NULL, NULL};
static const struct num_range range_age_converge = {0, 50, NUM_PERCENT, NULL, NULL};
static const struct num_range range_age_replay_times = {1, 100000, NUM_WHOLE, NULL, NULL};
static const struct num_range range_fsync_rounds = {1, 100, NUM_WHOLE, NULL, NULL};
static const struct num_range range_queue_depth = {1, ENG_MAX_QUEUE_DEPTH, NUM_WHOLE, NULL, NULL};
static const struct num_range range_interval = {1, 60000, NUM_WHOLE, "ms", NULL};
static const struct num_range range_stall = {0.001, 86400, 0, "seconds", NULL};
static const struct num_range range_replay_threads = {1, REPLAY_THREADS_MAX, NUM_WHOLE, NULL, NULL};

/* ---- the values the table checks -------------------------------------------------- */

static const char *const engine_values[] = {"posix", "uring", "auto", "null", NULL};
static const char *const format_values[] = {"table", "seeds", "compilebench", NULL};
static const char *const runs_words[] = {"auto", "until-verdict", NULL};
static const char *const size_words[] = {"auto", NULL};
static const char *const extract_values[] = {"tar", "create", NULL};
static const char *const timing_values[] = {"afap", "original", NULL};
static const char *const ranks_values[] = {"unique", "shared", NULL};
static const char *const confidence_values[] = {"90", "95", "99", NULL};

/* ---- setters: a checked value into the request ------------------------------------ */

/* A list option given again: its values appended to acc (sep between them); *val then
 * points at acc. 0, or EXIT_USAGE after error() when they do not fit. */
static int list_append(const char *opt, const char **val, const char *more, char *acc, size_t len,
                       char sep)
{
    if (!*val) {
        *val = more;
        return 0;
    }
    if (*val != acc && (size_t)snprintf(acc, len, "%s", *val) >= len)
        return error("--%s: the list is too long", opt), EXIT_USAGE;
    size_t used = strlen(acc);
    if ((size_t)snprintf(acc + used, len - used, "%c%s", sep, more) >= len - used)
        return error("--%s: the list is too long (at most %zu bytes)", opt, len - 1), EXIT_USAGE;
    *val = acc;
    return 0;
}

#define SETTER(fn) \
    static int fn(struct run_request *rq, const struct run_option *o, const char *text, double num)

SETTER(set_dir) { rq->ro.dir = text; return 0; }
SETTER(set_tree) { rq->profile = text; return 0; }
SETTER(set_scale) { rq->scale = num; rq->scale_arg = text; return 0; }
SETTER(set_size) { rq->size_arg = text; return 0; }
SETTER(set_seed)
{
    if (num_parse_u64(text, &rq->seed) < 0)
        return error("--seed: '%s' is not a whole number", text), EXIT_USAGE;
    return 0;
}
int run_request_runs(const char *s, struct runner_opts *ro)
{
    static const struct num_range runs = {1, 100000, NUM_WHOLE, NULL, "auto or until-verdict"};
    ro->runs_auto = !strcmp(s, "auto");
    ro->until_verdict = !strcmp(s, "until-verdict");
    if (ro->runs_auto || ro->until_verdict)
        return 0;
    double d;
    if (num_option("--runs", s, &runs, &d) < 0)
        return -1;
    ro->runs = (unsigned)d;
    return 0;
}
SETTER(set_runs) { return run_request_runs(text, &rq->ro) < 0 ? EXIT_USAGE : 0; }
SETTER(set_precision) { rq->ro.precision = num; return 0; }
SETTER(set_min_effect) { rq->ro.min_effect = num; return 0; }
SETTER(set_negligible) { rq->ro.negligible_s = num; return 0; }
SETTER(set_max_runs) { rq->max_runs = (unsigned long)num; return 0; }
SETTER(set_warmup) { rq->ro.warmup = (unsigned)num; return 0; }
SETTER(set_bisect_good) { rq->bisect.good = text; return 0; }
SETTER(set_bisect_bad) { rq->bisect.bad = text; return 0; }
SETTER(set_bisect_phase) { rq->bisect.phase = text; return 0; }
SETTER(set_bisect_metric)
{
    if (cmp_metric_find(text) < 0)
        return error("--bisect-metric: unknown metric '%s' (wall, user, sys, cpu, ops, mbps, "
                     "dev-writes, dev-reads, dev-write-mb)",
                     text),
               EXIT_USAGE;
    rq->bisect.metric = text;
    return 0;
}
SETTER(set_bisect_confidence)
{
    rq->bisect.confidence = num == 0 ? 0.90 : num == 1 ? 0.95 : 0.99;
    return 0;
}
SETTER(set_bisect_exit) { rq->bisect.exit_status = true; return 0; }
SETTER(set_phases)
{
    return list_append("phases", &rq->phases, text, rq->phases_acc, sizeof rq->phases_acc, ',')
               ? EXIT_USAGE
               : 0;
}
SETTER(set_engine)
{
    if (!strcmp(text, "auto")) {
        rq->ro.eng = &engine_posix;
        rq->ro.async_eng = engine_find("uring"); /* NULL where the build has none */
        return 0;
    }
    rq->ro.async_eng = NULL;
    if (!(rq->ro.eng = engine_find(text)))
        return error("--engine: unknown engine '%s' (posix, uring, null, auto)", text),
               EXIT_USAGE;
    return 0;
}
SETTER(set_queue_depth) { eng_set_queue_depth((unsigned)num); return 0; }
SETTER(set_threads) { rq->ro.threads = (unsigned)num; return 0; }
SETTER(set_format)
{
    rq->cb_format = !strcmp(text, "compilebench");
    rq->format = rq->cb_format ? RUN_FORMAT_TABLE : (int)num; /* format_values' order */
    return 0;
}
SETTER(set_json) { rq->json = text; return 0; }
SETTER(set_label) { rq->label = text; return 0; }
SETTER(set_meta) { return meta_add_arg(rq->meta, &rq->nmeta, text, "--meta") < 0 ? EXIT_USAGE : 0; }
SETTER(set_db) { rq->db = text; return 0; }
SETTER(set_no_save) { rq->save = false; return 0; }
SETTER(set_interval) { rq->ro.interval_ms = (unsigned)num; return 0; }
SETTER(set_stall) { rq->ro.stall_s = num; return 0; }
SETTER(set_wide) { rq->wide = true; return 0; }
SETTER(set_quiet) { rq->quiet = true; return 0; }
SETTER(set_skip_bad) { rq->skip_bad = true; return 0; }
SETTER(set_fail_fast) { rq->ro.fail_fast = true; return 0; }
SETTER(set_image) { rq->ta.image = text; return 0; }
SETTER(set_image_dir) { rq->ta.spec.image_dir = text; return 0; }
SETTER(set_device) { rq->ta.spec.device = text; return 0; }
SETTER(set_fs)
{
    return list_append("fs", &rq->ta.fs_list, text, rq->ta.fs_acc, sizeof rq->ta.fs_acc, ',')
               ? EXIT_USAGE
               : 0;
}
SETTER(set_mkfs_opts)
{
    return list_append("mkfs-opts", &rq->ta.spec.mkfs_opts, text, rq->ta.mkfs_acc,
                       sizeof rq->ta.mkfs_acc, ' ')
               ? EXIT_USAGE
               : 0;
}
SETTER(set_mount_opts)
{
    if (rq->ta.nmount == MAX_MOUNT_OPTS)
        return error("--mount-opts: at most %d option sets", MAX_MOUNT_OPTS), EXIT_USAGE;
    rq->ta.mount_opts[rq->ta.nmount++] = text;
    return 0;
}
SETTER(set_keep_fs)
{
    rq->ro.keep_fs = true;
    rq->ro.params.age_once = true;
    return 0;
}
SETTER(set_no_interleave) { rq->ro.no_interleave = true; return 0; }
SETTER(set_extract_calls)
{
    return tarcalls_parse(text, &rq->ro.params.extract_calls) < 0 ? EXIT_USAGE : 0;
}
SETTER(set_initial) { rq->ro.params.cb_initial = (unsigned)num; return 0; }
SETTER(set_random) { rq->ro.params.cb_runs = (unsigned)num; return 0; }
SETTER(set_cb_dataset)
{
    /* read now, so a bad listing is a usage error before anything runs; not when a job
     * file's value is only checked (its relative path is resolved against the job file
     * afterwards, and read then) */
    if (!rq->options_only) {
        struct cb_dataset ds;
        if (cb_dataset_load(text, &ds) < 0)
            return EXIT_USAGE;
        cb_dataset_free(&ds);
    }
    rq->ro.params.cb_dataset = text;
    return 0;
}
SETTER(set_cb_no_sync) { rq->ro.params.cb_no_sync = true; return 0; }
SETTER(set_cb_buffer_size)
{
    uint64_t b;
    if (target_parse_size(text, &b) < 0 || b < 1 || b > ((uint64_t)64 << 20))
        return error("--cb-buffer-size: '%s' is not a size from 1 byte to 64M "
                     "(e.g. 262144 or 256K)",
                     text),
               EXIT_USAGE;
    rq->ro.params.cb_buffer_size = (unsigned)b;
    return 0;
}
/* --cb-program-cpu FILE[,ENTRY]: microseconds of the program's own processor time per file
 * written or read and per entry stat'ed or removed (ENTRY 0 when left out). */
SETTER(set_cb_program_cpu)
{
    char file[32], why[96];
    const char *comma = strchr(text, ',');
    size_t fl = comma ? (size_t)(comma - text) : strlen(text);
    double f, e = 0;
    bool ok = fl < sizeof file;
    if (ok) {
        memcpy(file, text, fl);
        file[fl] = '\0';
        ok = num_parse(file, &range_program_cpu, &f) == 0 &&
             (!comma || num_parse(comma + 1, &range_program_cpu, &e) == 0);
    }
    if (!ok)
        return error("--cb-program-cpu: '%s' is not FILE or FILE,ENTRY, each %s (e.g. 16,2)",
                     text, num_range_text(&range_program_cpu, why, sizeof why)),
               EXIT_USAGE;
    rq->ro.params.cb_cpu_file_ns = (uint32_t)(f * 1e3 + 0.5);
    rq->ro.params.cb_cpu_entry_ns = (uint32_t)(e * 1e3 + 0.5);
    return 0;
}
SETTER(set_fsync_dir) { rq->ro.params.fsync_dir = true; return 0; }
SETTER(set_fsync_rounds) { rq->ro.params.fsync_rounds = (unsigned)num; return 0; }
/* 0: no written limit (only fullness and the safety limit stop it) */
SETTER(set_age_written) { rq->ro.params.age_written = num; return 0; }
/* 0: no fullness limit */
SETTER(set_age_fullness) { rq->ro.params.age_fullness = num; return 0; }
SETTER(set_age_profile)
{
    /* read now, so a bad profile is a usage error before anything runs (a job file's
     * relative path is resolved against the job file first) */
    if (!rq->options_only) {
        struct ageprof ap;
        if (ageprof_load(text, &ap) < 0)
            return EXIT_USAGE;
    }
    rq->ro.params.age_profile = text;
    return 0;
}
SETTER(set_age_converge) { rq->ro.params.age_converge = num; return 0; }
/* PCT[:SIZE]: a percentage above 0 and below 100; SIZE a power of two from 8K to 1G (a
 * bound of the free-extent histogram's buckets), 1M when not given */
SETTER(set_age_free_target)
{
    char pct[32];
    const char *colon = strchr(text, ':');
    size_t n = colon ? (size_t)(colon - text) : strlen(text);
    double share;
    uint64_t below = 1u << 20;
    if (n >= sizeof pct)
        n = sizeof pct - 1;
    memcpy(pct, text, n);
    pct[n] = 0;
    if (num_parse_percent(pct, &share) < 0 ||
        (colon && (target_parse_size(colon + 1, &below) < 0 || below < 8192 ||
                   below > (1u << 30) || (below & (below - 1)))))
        return error("--age-free-target: '%s' is not PCT[:SIZE] (a percentage above 0 and "
                     "below 100; SIZE a power of two from 8K to 1G)",
                     text),
               EXIT_USAGE;
    rq->ro.params.age_free_share = share;
    rq->ro.params.age_free_below = below;
    return 0;
}
SETTER(set_age_steps) { rq->age_steps = text; return 0; }
SETTER(set_age_replay) { rq->age_replay = rq->ro.params.age_replay_path = text; return 0; }
SETTER(set_age_replay_times) { rq->ro.params.age_replay_times = (unsigned)num; return 0; }
SETTER(set_keep_image) { rq->ro.keep_image = true; return 0; }
SETTER(set_replay) { rq->replay = text; return 0; }
SETTER(set_replay_timing)
{
    rq->ro.params.replay_timing = num == 0 ? REPLAY_AFAP : REPLAY_ORIGINAL;
    return 0;
}
SETTER(set_replay_threads) { rq->ro.params.replay_threads = (unsigned)num; return 0; }
SETTER(set_replay_keep_setid) { rq->ro.params.replay_keep_setid = true; return 0; }
/* --ranks-dir, --rank-shift, --stonewall: many ranks (the MPI build; the plain build refuses
 * them in run/run_mpi.c) */
SETTER(set_mpi)
{
    const char *name = o->name, *arg = text;
    struct mpirun_opts *mo = &rq->mo;
    double d;
    mo->given = true;
    if (!strcmp(name, "ranks-dir")) {
        if (!strcmp(arg, "unique"))
            mo->placement = MPIRUN_UNIQUE;
        else if (!strcmp(arg, "shared"))
            mo->placement = MPIRUN_SHARED;
        else
            return error("--ranks-dir: '%s' is not unique or shared", arg), EXIT_USAGE;
        return 0;
    }
    if (!strcmp(name, "rank-shift")) {
        static const struct num_range shift = {1, 1000000, NUM_WHOLE, NULL, NULL};
        if (num_option("--rank-shift", arg, &shift, &d) < 0)
            return EXIT_USAGE;
        mo->shift = (unsigned long)d;
        return 0;
    }
    static const struct num_range stonewall = {0, 86400, NUM_LO_OPEN, "seconds", NULL};
    if (num_option("--stonewall", arg, &stonewall, &d) < 0)
        return EXIT_USAGE;
    mo->stonewall_s = d;
    return 0;
}

/* ---- the table ------------------------------------------------------------------- */

#define GEN RUN_SEC_GENERAL
#define TGT RUN_SEC_TARGET
#define WRK RUN_SEC_WORKLOAD
#define RPL RUN_SEC_REPLAY
#define MPI RUN_SEC_MPI
#define NOT_STORED RUN_OPT_NOT_STORED
#define DEF_SAID RUN_OPT_DEF_SAID
#define HANDLED RUN_OPT_HANDLED

const struct run_option run_options[] = {
    /* ---- general ---- */
    {.name = "dir", .key = "dir", .kind = RUN_KIND_PATH, .arg = "DIR", .section = GEN,
     .def = "a new directory under $TMPDIR or /tmp", .flags = DEF_SAID,
     .help = "run in DIR (must exist, be writable and empty);\n"
             "default: a new directory in $TMPDIR or /tmp, removed after",
     .set = set_dir},
    {.name = "tree", .key = "tree", .kind = RUN_KIND_TEXT, .arg = "PROFILE", .section = GEN,
     .def = "tiny",
     .help = "tree profile (default tiny; see fsbench list), SHAPE.ini from\n"
             "fsbench tree capture, or tar:FILE for\n"
             "any archive libarchive reads (decompressed before timing)",
     .set = set_tree},
    {.name = "scale", .key = "scale", .kind = RUN_KIND_NUMBER, .arg = "X", .section = GEN,
     .range = &range_positive, .def = "1",
     .help = "multiply the profile's file count by X (default 1)", .set = set_scale},
    {.name = "size", .key = "size", .kind = RUN_KIND_SIZE, .arg = "SIZE", .section = GEN,
     .values = size_words, .usage = "--size SIZE|auto",
     .help = "scale the tree to about SIZE bytes (e.g. 10G), or size it from\n"
             "RAM and whether caches can be dropped (see the guide)",
     .set = set_size},
    {.name = "seed", .key = "seed", .kind = RUN_KIND_NUMBER, .arg = "N", .section = GEN,
     .def = "1", .help = "tree seed (default 1)", .set = set_seed},
    {.name = "runs", .key = "runs", .kind = RUN_KIND_NUMBER, .arg = "N", .section = GEN,
     .values = runs_words, .def = "1", .usage = "--runs N|auto|until-verdict",
     .help = "runs of the scenario (default 1); auto: until\n"
             "every phase's median (or ratio between configurations) is\n"
             "--precision precise (precision only: no verdict); until-verdict:\n"
             "until every phase of every configuration has a verdict against\n"
             "the first (a difference, or no difference of --min-effect or\n"
             "more shown: futile), by a sequential test whose error rates\n"
             "allow for the looking",
     .set = set_runs},
    {.name = "precision", .key = "precision", .kind = RUN_KIND_NUMBER, .arg = "P", .section = GEN,
     .range = &range_percent, .def = "5%",
     .help = "relative 95% CI half-width for --runs auto (default 5%)", .set = set_precision},
    {.name = "min-effect", .key = "min-effect", .kind = RUN_KIND_NUMBER, .arg = "P",
     .section = GEN, .range = &range_min_effect, .def = "10%",
     .help = "until-verdict: the effect of interest; a phase stops as futile\n"
             "once an effect of P or more is ruled out (default 10%; 0: off)",
     .set = set_min_effect},
    {.name = "negligible", .key = "negligible", .kind = RUN_KIND_DURATION, .arg = "S",
     .section = GEN, .range = &range_negligible, .def = "0.001",
     .help = "until-verdict: a phase whose median is under S seconds on both\n"
             "sides is negligible and holds nothing up (default 0.001; 0: off)",
     .set = set_negligible},
    {.name = "max-runs", .key = "max-runs", .kind = RUN_KIND_NUMBER, .arg = "N", .section = GEN,
     .range = &range_max_runs, .def = "30",
     .help = "most rounds for --runs auto and until-verdict (default 30)", .set = set_max_runs},
    {.name = "warmup", .key = "warmup", .kind = RUN_KIND_NUMBER, .arg = "N", .section = GEN,
     .range = &range_warmup, .def = "0",
     .help = "first N rounds are warm-up: run, kept, left out of statistics", .set = set_warmup},
    {.name = "bisect-good", .kind = RUN_KIND_TEXT, .arg = "LABEL", .section = GEN,
     .flags = NOT_STORED,
     .help = "with --runs until-verdict: this set is a bisection's\n"
             "candidate, run until bisect verdict's classification against\n"
             "the stored labels --bisect-good and --bisect-bad is settled\n"
             "(like good, like bad, or between), at most --max-runs rounds",
     .set = set_bisect_good},
    {.name = "bisect-bad", .kind = RUN_KIND_TEXT, .arg = "LABEL", .section = GEN,
     .flags = NOT_STORED, .help = "the stored label known bad (see --bisect-good)",
     .set = set_bisect_bad},
    {.name = "bisect-phase", .kind = RUN_KIND_TEXT, .arg = "NAME", .section = GEN,
     .flags = NOT_STORED,
     .help = "the phase judged (default: where good and bad differ most)",
     .set = set_bisect_phase},
    {.name = "bisect-metric", .kind = RUN_KIND_TEXT, .arg = "M", .section = GEN,
     .flags = NOT_STORED, .help = "the metric judged: wall (default), user, sys, cpu, ...",
     .set = set_bisect_metric},
    {.name = "bisect-confidence", .kind = RUN_KIND_ENUM, .arg = "C", .section = GEN,
     .values = confidence_values, .bad = "'%s' is not 90, 95 or 99", .def = "95",
     .flags = NOT_STORED, .help = "90, 95 (default) or 99: each look's confidence",
     .set = set_bisect_confidence},
    {.name = "bisect-exit", .kind = RUN_KIND_FLAG, .section = GEN, .flags = NOT_STORED,
     .help = "exit as bisect verdict does: 0 like good, 1 like bad, 125\n"
             "cannot tell, 128 an error (for git bisect run)",
     .set = set_bisect_exit},
    {.name = "phases", .key = "phases", .kind = RUN_KIND_LIST, .arg = "LIST", .section = GEN,
     .help = "comma-separated phases instead of the scenario's", .set = set_phases},
    {.name = "engine", .key = "engine", .kind = RUN_KIND_ENUM, .arg = "NAME", .section = GEN,
     .values = engine_values, .bad = "unknown engine '%s' (posix, uring, null, auto)",
     .def = "posix",
     .help = "posix (default), uring (batched io_uring), auto (uring where it\n"
             "was measured faster: reads on a block device), null (the\n"
             "harness alone)",
     .set = set_engine},
    {.name = "queue-depth", .key = "queue-depth", .kind = RUN_KIND_NUMBER, .arg = "N",
     .section = GEN, .range = &range_queue_depth, .def = "64", .flags = DEF_SAID,
     .help = "io_uring queue depth (default 64)", .set = set_queue_depth},
    {.name = "threads", .short_name = 'j', .key = "threads", .kind = RUN_KIND_NUMBER, .arg = "N",
     .section = GEN, .range = &range_threads, .def = "1", .flags = DEF_SAID,
     .help = "threads per phase, 1-64 (default 1): extract, walk, statwalk,\n"
             "read, copy and delete split their work; other phases use one",
     .set = set_threads},
    {.name = "format", .key = "format", .kind = RUN_KIND_ENUM, .arg = "F", .section = GEN,
     .values = format_values, .bad = "unknown format '%s' (table, seeds, compilebench)",
     .def = "table", .flags = NOT_STORED,
     .help = "table (default); seeds (the figures the seed experiments\n"
             "report, a block a phase); compilebench (compilebench's own\n"
             "output, for the compilebench scenario's cb_* phases)",
     .set = set_format},
    {.name = "json", .key = "json", .kind = RUN_KIND_PATH, .arg = "FILE", .section = GEN,
     .flags = NOT_STORED, .help = "write every run as JSON to FILE (- for stdout)",
     .set = set_json},
    {.name = "label", .key = "label", .kind = RUN_KIND_TEXT, .arg = "NAME", .section = GEN,
     .flags = NOT_STORED, .help = "name this run set in the results store", .set = set_label},
    {.name = "meta", .kind = RUN_KIND_LIST, .arg = "KEY=VALUE", .section = GEN,
     .flags = NOT_STORED,
     .help = "a note kept with the set (repeatable): commit=abc123,\n"
             "kernel=6.19-rc1; fsbench history --by KEY orders by it",
     .set = set_meta},
    {.name = "db", .key = "db", .kind = RUN_KIND_PATH, .arg = "FILE", .section = GEN,
     .def = "$XDG_DATA_HOME/fsbench/results.db", .flags = NOT_STORED | DEF_SAID,
     .help = "results store (default $XDG_DATA_HOME/fsbench/results.db)", .set = set_db},
    {.name = "no-save", .key = "no-save", .kind = RUN_KIND_FLAG, .section = GEN,
     .flags = NOT_STORED, .help = "do not save in the results store", .set = set_no_save},
    {.name = "interval", .key = "interval", .kind = RUN_KIND_DURATION, .arg = "MS", .section = GEN,
     .range = &range_interval, .def = "100",
     .help = "time-line sampling interval (default 100)", .set = set_interval},
    {.name = "stall", .key = "stall", .kind = RUN_KIND_DURATION, .arg = "S", .section = GEN,
     .range = &range_stall, .def = "1", .flags = DEF_SAID,
     .help = "list every stall of at least S seconds (default 1): no\n"
             "progress, or under 5% of the phase's median rate",
     .set = set_stall},
    {.name = "wide", .short_name = 'v', .key = "wide", .kind = RUN_KIND_FLAG, .section = GEN,
     .flags = NOT_STORED, .usage = "-v, --wide",
     .help = "every column of the table (the ones that do not fit the\n"
             "terminal, 80 columns when it is none, are left out), and for\n"
             "a matrix seed 000's Mode blocks and the grid of medians",
     .set = set_wide},
    {.name = "quiet", .short_name = 'q', .key = "quiet", .kind = RUN_KIND_FLAG, .section = GEN,
     .flags = NOT_STORED, .usage = "-q, --quiet",
     .help = "no progress (on a terminal a line rewritten in place, else a\n"
             "line on stderr each time a run ends)",
     .set = set_quiet},
    {.name = "job", .kind = RUN_KIND_PATH, .arg = "FILE", .section = GEN, .flags = HANDLED,
     .help = "run the job file FILE (INI: [global] and one section per job,\n"
             "every option above as a key); options given here override it"},
    {.name = "dry-run", .kind = RUN_KIND_FLAG, .section = GEN, .flags = HANDLED | NOT_STORED,
     .help = "print the jobs, configurations, rounds, phases, tree size, the\n"
             "space needed, whether root is, and the estimated duration\n"
             "(from earlier runs of the job, else the work model); run nothing"},
    {.name = "check", .kind = RUN_KIND_FLAG, .section = GEN, .flags = HANDLED | NOT_STORED,
     .help = "with --dry-run: the pre-flight too (each file system made,\n"
             "mounted with its options and unmounted once), then stop"},
    {.name = "skip-bad", .key = "skip-bad", .kind = RUN_KIND_FLAG, .section = GEN,
     .help = "run the configurations that pass the pre-flight, leaving out\n"
             "those that fail it (else nothing runs when one fails)",
     .set = set_skip_bad},
    {.name = "fail-fast", .key = "fail-fast", .kind = RUN_KIND_FLAG, .section = GEN,
     .help = "stop the set at the first failed run (else its configuration\n"
             "is left out of the later rounds and the others go on)",
     .set = set_fail_fast},
    {.name = "resume", .kind = RUN_KIND_TEXT, .arg = "LABEL", .section = GEN,
     .flags = HANDLED | NOT_STORED,
     .help = "finish the interrupted run set LABEL: the same plan, seed and\n"
             "round order, the runs it lacks (see fsbench runs)"},

    /* ---- managed targets ---- */
    {.name = "image", .key = "image", .kind = RUN_KIND_SIZE, .arg = "SIZE", .section = TGT,
     .help = "a sparse image of SIZE (e.g. 1G) on a loop device", .set = set_image},
    {.name = "image-dir", .key = "image-dir", .kind = RUN_KIND_PATH, .arg = "DIR", .section = TGT,
     .def = "$TMPDIR or /tmp", .flags = DEF_SAID,
     .help = "where the image goes (default $TMPDIR or /tmp)", .set = set_image_dir},
    {.name = "device", .key = "device", .kind = RUN_KIND_PATH, .arg = "DEV", .section = TGT,
     .help = "a real block device: add --destroy-data (its data is lost);\n"
             "--force also allows one carrying a file system signature",
     .set = set_device},
    /* a consent's key is there only to be refused, with the reason ("a job file cannot
     * consent to destroying data"); --age-host-fs has none ("not a job key") */
    {.name = "destroy-data", .key = "destroy-data", .kind = RUN_KIND_CONSENT, .arg = "DEV",
     .section = TGT, .flags = RUN_OPT_OPTIONAL | NOT_STORED, .usage = "--destroy-data[=DEV]",
     .help = "consent to mkfs DEV (--device's, or a job file's device\n"
             "named here); from the command line only, never stored"},
    {.name = "force", .key = "force", .kind = RUN_KIND_CONSENT, .section = TGT,
     .flags = NOT_STORED,
     .help = "with --destroy-data: also a device carrying a file system\n"
             "signature; outputs may replace files (command line only)"},
    {.name = "fs", .key = "fs", .kind = RUN_KIND_LIST, .arg = "LIST", .section = TGT,
     .def = "ext4", .flags = DEF_SAID,
     .help = "file systems to mkfs, comma-separated (default ext4)", .set = set_fs},
    {.name = "mkfs-opts", .key = "mkfs-opts", .kind = RUN_KIND_LIST, .arg = "OPTS",
     .section = TGT, .help = "extra mkfs options", .set = set_mkfs_opts},
    {.name = "mount-opts", .key = "mount-opts", .kind = RUN_KIND_LIST, .arg = "OPTS",
     .section = TGT, .def = "defaults", .flags = DEF_SAID,
     .help = "a mount option set; repeat for more (default: defaults)", .set = set_mount_opts},
    {.name = "keep-fs", .key = "keep-fs", .kind = RUN_KIND_FLAG, .section = TGT,
     .help = "mkfs once per file system, not before every run", .set = set_keep_fs},
    {.name = "keep-image", .key = "keep-image", .kind = RUN_KIND_FLAG, .section = TGT,
     .help = "keep the last run's file system after the set: the image\n"
             "(moved to fsbench-LABEL.img beside where it was made,\n"
             "unmounted, detached), or the tree with --dir; says where",
     .set = set_keep_image},
    {.name = "no-interleave", .key = "no-interleave", .kind = RUN_KIND_FLAG, .section = TGT,
     .help = "all runs of one configuration, then the next", .set = set_no_interleave},

    /* ---- workloads ---- */
    {.name = "extract-calls", .key = "extract-calls", .kind = RUN_KIND_ENUM, .arg = "C",
     .section = WRK, .values = extract_values, .bad = "'%s' is not tar or create", .def = "tar",
     .help = "extract: tar (default) makes tar -x's calls on each entry:\n"
             "times, and as root owner and mode, directories' after their\n"
             "contents; create makes only the entries (mkdir, open, write,\n"
             "close, symlink)",
     .set = set_extract_calls},
    {.name = "initial", .short_name = 'i', .key = "initial", .kind = RUN_KIND_NUMBER, .arg = "N",
     .section = WRK, .range = &range_initial, .def = "3",
     .help = "compilebench: initial trees (default 3)", .set = set_initial},
    {.name = "random", .short_name = 'r', .key = "random", .kind = RUN_KIND_NUMBER, .arg = "N",
     .section = WRK, .range = &range_random, .def = "20",
     .help = "compilebench: random operations (default 20)", .set = set_random},
    {.name = "cb-dataset", .key = "cb-dataset", .kind = RUN_KIND_PATH, .arg = "DIR",
     .section = WRK,
     .help = "compilebench: the trees from compilebench's four listings in\n"
             "DIR (dataset-unpatched, -patched, -unpatched-compiled,\n"
             "-patched-compiled); default: a model of them from --tree",
     .set = set_cb_dataset},
    {.name = "cb-no-sync", .key = "cb-no-sync", .kind = RUN_KIND_FLAG, .section = WRK,
     .help = "compilebench -n: no sync in each operation's time, no caches\n"
             "dropped",
     .set = set_cb_no_sync},
    {.name = "cb-buffer-size", .key = "cb-buffer-size", .kind = RUN_KIND_SIZE, .arg = "SIZE",
     .section = WRK, .def = "256K", .flags = DEF_SAID,
     .help = "compilebench -b: bytes a write or read (default 256K)", .set = set_cb_buffer_size},
    {.name = "cb-program-cpu", .key = "cb-program-cpu", .kind = RUN_KIND_TEXT, .arg = "FILE",
     .section = WRK, .def = "0,0", .usage = "--cb-program-cpu FILE[,ENTRY]",
     .help = "compilebench: also spend the interpreter's\n"
             "processor time, FILE microseconds for each file written or\n"
             "read, ENTRY for each entry stat'ed or removed (default 0,0)",
     .set = set_cb_program_cpu},
    {.name = "fsync-dir", .key = "fsync-dir", .kind = RUN_KIND_FLAG, .section = WRK,
     .help = "fsyncstorm: also fsync the directory after each rename", .set = set_fsync_dir},
    {.name = "fsync-rounds", .key = "fsync-rounds", .kind = RUN_KIND_NUMBER, .arg = "N",
     .section = WRK, .range = &range_fsync_rounds, .def = "2",
     .help = "fsyncstorm: every run of consecutive fsyncstorm phases\n"
             "becomes N of them (cvs has 2)",
     .set = set_fsync_rounds},
    {.name = "age-written", .key = "age-written", .kind = RUN_KIND_NUMBER, .arg = "X",
     .section = WRK, .range = &range_age_written, .def = "4",
     .help = "age: stop after writing X times the file system's size (4)",
     .set = set_age_written},
    {.name = "age-fullness", .key = "age-fullness", .kind = RUN_KIND_NUMBER, .arg = "F",
     .section = WRK, .range = &range_age_fullness, .def = "0.8",
     .help = "age: or when the file system is F full (0.8)", .set = set_age_fullness},
    {.name = "age-profile", .key = "age-profile", .kind = RUN_KIND_TEXT, .arg = "P",
     .section = WRK,
     .help = "age: follow profile P (a built-in: agrawal, smallfiles,\n"
             "tiny; or a profile FILE): sizes, ages, depths, operation mix",
     .set = set_age_profile},
    {.name = "age-converge", .key = "age-converge", .kind = RUN_KIND_NUMBER, .arg = "PCT",
     .section = WRK, .range = &range_age_converge, .def = "1",
     .help = "age with a profile: stop when every bucket is within PCT\n"
             "percent of it (default 1; 0: do not stop on convergence)",
     .set = set_age_converge},
    {.name = "age-free-target", .key = "age-free-target", .kind = RUN_KIND_TEXT,
     .arg = "PCT[:SIZE]", .section = WRK,
     .help = "age: also stop when PCT percent of the free space is in\n"
             "free extents under SIZE (default 1M), measured every 1/64\n"
             "of the file system written",
     .set = set_age_free_target},
    {.name = "age-host-fs", .kind = RUN_KIND_CONSENT, .section = WRK, .flags = NOT_STORED,
     .help = "age with --dir: age the whole file system holding DIR (only\n"
             "on the command line; --dry-run shows what it would take)"},
    {.name = "age-steps", .key = "age-steps", .kind = RUN_KIND_TEXT, .arg = "N|LIST",
     .section = WRK,
     .help = "age in N equal steps up to --age-written, or to each\n"
             "written multiple of LIST (0,0.5,1,2,4; 0: fresh), on one file\n"
             "system, measuring the phases after age --runs times after\n"
             "each step: performance vs age, a configuration per step",
     .set = set_age_steps},
    {.name = "age-replay", .key = "age-replay", .kind = RUN_KIND_PATH, .arg = "FILE",
     .section = WRK,
     .help = "age by replaying FILE (made by fsbench record) again and\n"
             "again, each time in a directory of its own, all kept; the\n"
             "free space before and after, the distributions left (the\n"
             "distance from --age-profile P after each repetition)",
     .set = set_age_replay},
    {.name = "age-replay-times", .key = "age-replay-times", .kind = RUN_KIND_NUMBER, .arg = "N",
     .section = WRK, .range = &range_age_replay_times,
     .help = "that many times (default 1; with --age-profile, until it\n"
             "converges); with --age-steps, until each step's written total",
     .set = set_age_replay_times},

    /* ---- replay ---- */
    {.name = "replay", .key = "replay", .kind = RUN_KIND_PATH, .arg = "FILE", .section = RPL,
     .help = "replay FILE in the phase replay (alone: --phases replay); its\n"
             "initial state is laid down untimed before the phase",
     .set = set_replay},
    {.name = "replay-timing", .key = "replay-timing", .kind = RUN_KIND_ENUM, .arg = "T",
     .section = RPL, .values = timing_values, .bad = "'%s' is neither afap nor original",
     .def = "afap",
     .help = "afap (default): each thread's calls as fast as they go, threads\n"
             "ordered only where they touch the same resource; original:\n"
             "also each thread's recorded think time between calls",
     .set = set_replay_timing},
    {.name = "replay-threads", .key = "replay-threads", .kind = RUN_KIND_NUMBER, .arg = "N",
     .section = RPL, .range = &range_replay_threads,
     .def = "as many as the program ran at once", .flags = DEF_SAID,
     .help = "at most N threads (default: as many as the program ran at\n"
             "once, up to 64); -j defaults to them in a run with replay",
     .set = set_replay_threads},
    {.name = "replay-keep-setid", .key = "replay-keep-setid", .kind = RUN_KIND_FLAG,
     .section = RPL,
     .help = "keep the trace's setuid/setgid bits (default: dropped from\n"
             "every mode it gives, and said in the phase's note)",
     .set = set_replay_keep_setid},

    /* ---- many clients ---- */
    {.name = "ranks-dir", .key = "ranks-dir", .kind = RUN_KIND_ENUM, .arg = "DIR",
     .section = MPI, .values = ranks_values, .bad = "'%s' is not unique or shared",
     .def = "unique", .flags = DEF_SAID, .usage = "--ranks-dir unique|shared",
     .help = "unique (default): each rank its own tree in\n"
             "DIR/rank.N, seed + rank; shared: one tree of scale x N whose\n"
             "top-level directories are divided among the ranks",
     .set = set_mpi},
    {.name = "rank-shift", .key = "rank-shift", .kind = RUN_KIND_NUMBER, .arg = "K",
     .section = MPI, .help = "walk, statwalk, read and copy rank (r+K) mod N's tree",
     .set = set_mpi},
    {.name = "stonewall", .key = "stonewall", .kind = RUN_KIND_DURATION, .arg = "S",
     .section = MPI, .help = "stop every rank S seconds after the first finishes a phase",
     .set = set_mpi},

    {.name = "help", .short_name = 'h', .kind = RUN_KIND_FLAG, .section = RUN_SEC_HIDDEN,
     .flags = HANDLED | NOT_STORED, .help = "this help"},
    {.name = NULL},
};

/* The sections of `run --help`: a title line before the rows (NULL: none) and a note after
 * them (NULL: none). */
const struct run_section_text run_sections[RUN_SEC_COUNT] = {
    [RUN_SEC_GENERAL] = {NULL, "list options (--fs, --mount-opts, --mkfs-opts, --phases) add up "
                               "when repeated;\nany other option given twice must have one value"},
    [RUN_SEC_TARGET] = {"managed targets (root): a fresh file system per run, every "
                        "configuration in rounds", NULL},
    [RUN_SEC_WORKLOAD] = {"workloads", NULL},
    [RUN_SEC_REPLAY] = {"replay (a trace made by fsbench record)", NULL},
    [RUN_SEC_MPI] = {"many clients (mpirun -np N fsbench run ..., with the MPI build: make "
                     "MPI=1)", NULL},
    [RUN_SEC_HIDDEN] = {NULL, NULL},
};
