/* cmd_run.c — `fsbench run [OPTIONS]`: parse options, run the phases through the runner,
 * print the report, write JSON, and save every finished run in the results store. A
 * scenario (`fsbench run basic`, or none) is a shipped job file and goes through
 * cmd_run_job.c, which calls cmd_run_with() with the job's keys as options.
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_age_steps.h"
#include "cli/cli_run.h"
#include "results/meta.h"
#include "cli/cmd_run.h"
#include "cli/cli_consent.h"
#include "cli/cli_resume.h"
#include "base/err.h"
#include "base/outfile.h"
#include "base/text.h"
#include "report/report.h"
#include "run/runner.h"
#include "run/scenario.h"
#include "tree/ageprof.h"
#include "tree/shape.h"
#include "run/sizing.h"
#include "target/fsopts.h"
#include "target/target.h"
#include "tree/tarsrc.h"
#include "cli/cli_mpi.h"
#include "phase/replay.h"
#include "trace/trace_read.h"
#include "phase/cb_listing.h"
#include "stats/negligible.h"
#include "phase/tarcalls.h"
#include "stats/seqtest.h"

static void run_usage(FILE *out)
{
    fprintf(out,
            "usage: fsbench run [OPTIONS] [SCENARIO]   (default scenario: basic)\n"
            "       fsbench run [OPTIONS] JOB.ini | --job JOB.ini | JOB   (a job file, or a\n"
            "                    shipped job: see fsbench list)\n"
            "  --dir DIR         run in DIR (must exist, be writable and empty);\n"
            "                    default: a new directory under $TMPDIR or /tmp, removed after\n"
            "  --tree PROFILE    tree profile (default tiny; see fsbench list), SHAPE.ini from\n"
            "                    fsbench tree capture, or tar:FILE for\n"
            "                    any archive libarchive reads (decompressed before timing)\n"
            "  --scale X         multiply the profile's file count by X (default 1)\n"
            "  --size SIZE|auto  scale the tree to about SIZE bytes (e.g. 10G), or size it from\n"
            "                    RAM and whether caches can be dropped (see the guide)\n"
            "  --seed N          tree seed (default 1)\n"
            "  --runs N|auto|until-verdict  runs of the scenario (default 1); auto: until\n"
            "                    every phase's median (or ratio between configurations) is\n"
            "                    --precision precise (precision only: no verdict); until-verdict:\n"
            "                    until every phase of every configuration has a verdict against\n"
            "                    the first (a difference, or no difference of --min-effect or\n"
            "                    more shown: futile), by a sequential test whose error rates\n"
            "                    allow for the looking\n"
            "  --precision P     relative 95%% CI half-width for --runs auto (default 5%%)\n"
            "  --min-effect P    until-verdict: the effect of interest; a phase stops as futile\n"
            "                    once an effect of P or more is ruled out (default 10%%; 0: off)\n"
            "  --negligible S    until-verdict: a phase whose median is under S seconds on both\n"
            "                    sides is negligible and holds nothing up (default 0.001; 0: off)\n"
            "  --max-runs N      most rounds for --runs auto and until-verdict (default 30)\n"
            "  --warmup N        first N rounds are warm-up: run, kept, left out of statistics\n"
            "  --phases LIST     comma-separated phases instead of the scenario's\n"
            "  --engine NAME     posix (default), uring (batched io_uring), auto (uring where it\n"
            "                    was measured faster: reads on a block device), null (the\n"
            "                    harness alone)\n"
            "  --queue-depth N   io_uring queue depth (default 64)\n"
            "  -j N, --threads N threads per phase, 1-64 (default 1): extract, walk, statwalk,\n"
            "                    read, copy and delete split their work; other phases use one\n"
            "  --format F        table (default); seeds (the figures the seed experiments\n"
            "                    report, a block a phase); compilebench (compilebench's own\n"
            "                    output, for the compilebench scenario's cb_* phases)\n"
            "  --json FILE       write every run as JSON to FILE (- for stdout)\n"
            "  --label NAME      name this run set in the results store\n"
            "  --meta KEY=VALUE  a note kept with the set (repeatable): commit=abc123,\n"
            "                    kernel=6.19-rc1; fsbench history --by KEY orders by it\n"
            "  --db FILE         results store (default $XDG_DATA_HOME/fsbench/results.db)\n"
            "  --no-save         do not save in the results store\n"
            "  --interval MS     time-line sampling interval (default 100)\n"
            "  --stall S         list every stall of at least S seconds (default 1): no\n"
            "                    progress, or under 5%% of the phase's median rate\n"
            "  -v, --wide        every column of the table (the ones that do not fit the\n"
            "                    terminal, 80 columns when it is none, are left out), and for\n"
            "                    a matrix seed 000's Mode blocks and the grid of medians\n"
            "  -q, --quiet       no progress (on a terminal a line rewritten in place, else a\n"
            "                    line on stderr each time a run ends)\n"
            "  --job FILE        run the job file FILE (INI: [global] and one section per job,\n"
            "                    every option above as a key); options given here override it\n"
            "  --dry-run         print the jobs, configurations, rounds, phases, tree size, the\n"
            "                    space needed, whether root is, and the estimated duration\n"
            "                    (from earlier runs of the job, else the work model); run nothing\n"
            "  --check           with --dry-run: the pre-flight too (each file system made,\n"
            "                    mounted with its options and unmounted once), then stop\n"
            "  --skip-bad        run the configurations that pass the pre-flight, leaving out\n"
            "                    those that fail it (else nothing runs when one fails)\n"
            "  --fail-fast       stop the set at the first failed run (else its configuration\n"
            "                    is left out of the later rounds and the others go on)\n"
            "  --resume LABEL    finish the interrupted run set LABEL: the same plan, seed and\n"
            "                    round order, the runs it lacks (see fsbench runs)\n"
            "list options (--fs, --mount-opts, --mkfs-opts, --phases) add up when repeated;\n"
            "any other option given twice must have one value\n"
            "managed targets (root): a fresh file system per run, every configuration in rounds\n"
            "  --image SIZE      a sparse image of SIZE (e.g. 1G) on a loop device\n"
            "  --image-dir DIR   where the image goes (default $TMPDIR or /tmp)\n"
            "  --device DEV      a real block device: add --destroy-data (its data is lost);\n"
            "                    --force also allows one carrying a file system signature\n"
            "  --destroy-data[=DEV]  consent to mkfs DEV (--device's, or a job file's device\n"
            "                    named here); from the command line only, never stored\n"
            "  --fs LIST         file systems to mkfs, comma-separated (default ext4)\n"
            "  --mkfs-opts OPTS  extra mkfs options\n"
            "  --mount-opts OPTS a mount option set; repeat for more (default: defaults)\n"
            "  --keep-fs         mkfs once per file system, not before every run\n"
            "  --keep-image      keep the last run's file system after the set: the image\n"
            "                    (moved to fsbench-LABEL.img beside where it was made,\n"
            "                    unmounted, detached), or the tree with --dir; says where\n"
            "  --no-interleave   all runs of one configuration, then the next\n"
            "workloads\n"
            "  --extract-calls C extract: tar (default) makes tar -x's calls on each entry:\n"
            "                    times, and as root owner and mode, directories' after their\n"
            "                    contents; create makes only the entries (mkdir, open, write,\n"
            "                    close, symlink)\n"
            "  -i N, --initial N compilebench: initial trees (default 3)\n"
            "  -r N, --random N  compilebench: random operations (default 20)\n"
            "  --cb-dataset DIR  compilebench: the trees from compilebench's four listings in\n"
            "                    DIR (dataset-unpatched, -patched, -unpatched-compiled,\n"
            "                    -patched-compiled); default: a model of them from --tree\n"
            "  --cb-no-sync      compilebench -n: no sync in each operation's time, no caches\n"
            "                    dropped\n"
            "  --cb-buffer-size SIZE  compilebench -b: bytes a write or read (default 256K)\n"
            "  --cb-program-cpu FILE[,ENTRY]  compilebench: also spend the interpreter's\n"
            "                    processor time, FILE microseconds for each file written or\n"
            "                    read, ENTRY for each entry stat'ed or removed (default 0,0)\n"
            "  --fsync-dir       fsyncstorm: also fsync the directory after each rename\n"
            "  --fsync-rounds N  fsyncstorm: every run of consecutive fsyncstorm phases\n"
            "                    becomes N of them (cvs has 2)\n"
            "  --age-written X   age: stop after writing X times the file system's size (4)\n"
            "  --age-fullness F  age: or when the file system is F full (0.8)\n"
            "  --age-profile P   age: follow profile P (a built-in: agrawal, smallfiles,\n"
            "                    tiny; or a profile FILE): sizes, ages, depths, operation mix\n"
            "  --age-converge PCT  age with a profile: stop when every bucket is within PCT\n"
            "                    percent of it (default 1; 0: do not stop on convergence)\n"
            "  --age-host-fs     age with --dir: age the whole file system holding DIR (only\n"
            "                    on the command line; --dry-run shows what it would take)\n"
            "  --age-steps N|LIST  age in N equal steps up to --age-written, or to each\n"
            "                    written multiple of LIST (0,0.5,1,2,4; 0: fresh), on one file\n"
            "                    system, measuring the phases after age --runs times after\n"
            "                    each step: performance vs age, a configuration per step\n"
            "  --age-replay FILE age by replaying FILE (made by fsbench record) again and\n"
            "                    again, each time in a directory of its own, all kept\n"
            "  --age-replay-times N  that many times (default 1); with --age-steps, until\n"
            "                    each step's written total\n"
            "replay (a trace made by fsbench record)\n"
            "  --replay FILE     replay FILE in the phase replay (alone: --phases replay); its\n"
            "                    initial state is laid down untimed before the phase\n"
            "  --replay-timing T afap (default): each thread's calls as fast as they go, threads\n"
            "                    ordered only where they touch the same resource; original:\n"
            "                    also each thread's recorded think time between calls\n"
            "  --replay-threads N at most N threads (default: as many as the program ran at\n"
            "                    once, up to 64); -j defaults to them in a run with replay\n"
            "  --replay-keep-setid  keep the trace's setuid/setgid bits (default: dropped from\n"
            "                    every mode it gives, and said in the phase's note)\n"
            "many clients (mpirun -np N fsbench run ..., with the MPI build: make MPI=1)\n"
            "  --ranks-dir unique|shared  unique (default): each rank its own tree in\n"
            "                    DIR/rank.N, seed + rank; shared: one tree of scale x N whose\n"
            "                    top-level directories are divided among the ranks\n"
            "  --rank-shift K    walk, statwalk, read and copy rank (r+K) mod N's tree\n"
            "  --stonewall S     stop every rank S seconds after the first finishes a phase\n");
}

enum {
    OPT_NO_SAVE = 256, OPT_INTERVAL, OPT_PHASES, OPT_IMAGE, OPT_IMAGE_DIR, OPT_DEVICE,
    OPT_DESTROY, OPT_FORCE, OPT_FS, OPT_MKFS_OPTS, OPT_MOUNT_OPTS, OPT_KEEP_FS, OPT_NO_INTERLEAVE,
    OPT_QUEUE_DEPTH, OPT_PRECISION, OPT_MAX_RUNS, OPT_WARMUP, OPT_FSYNC_DIR, OPT_AGE_WRITTEN,
    OPT_AGE_FULLNESS, OPT_JSON, OPT_FSYNC_ROUNDS, OPT_SIZE, OPT_JOB, OPT_DRY_RUN, OPT_RANKS_DIR,
    OPT_RANK_SHIFT, OPT_STONEWALL, OPT_STALL, OPT_AGE_HOST_FS, OPT_REPLAY, OPT_REPLAY_TIMING,
    OPT_REPLAY_THREADS, OPT_REPLAY_KEEP_SETID, OPT_CB_DATASET, OPT_CB_NO_SYNC,
    OPT_CB_BUFFER_SIZE, OPT_CB_PROGRAM_CPU, OPT_EXTRACT_CALLS, OPT_MIN_EFFECT, OPT_NEGLIGIBLE,
    OPT_META, OPT_AGE_PROFILE, OPT_AGE_CONVERGE,
    OPT_KEEP_IMAGE, OPT_AGE_STEPS, OPT_AGE_REPLAY, OPT_AGE_REPLAY_TIMES,
    /* a set that never wastes a night: pre-flight, failures, resume */
    OPT_FAIL_FAST, OPT_SKIP_BAD, OPT_CHECK, OPT_RESUME
};

/* The options of `fsbench run`, and so the keys of a job file (cmd_run_job.c). */
const struct option cmd_run_options[] = {
    {"dir", required_argument, NULL, 'd'},     {"tree", required_argument, NULL, 't'},
    {"scale", required_argument, NULL, 's'},   {"seed", required_argument, NULL, 'S'},
    {"runs", required_argument, NULL, 'n'},    {"engine", required_argument, NULL, 'e'},
    {"format", required_argument, NULL, 'f'},  {"json", required_argument, NULL, OPT_JSON},
    {"label", required_argument, NULL, 'l'},   {"db", required_argument, NULL, 'D'},
    {"meta", required_argument, NULL, OPT_META},
    {"no-save", no_argument, NULL, OPT_NO_SAVE},
    {"interval", required_argument, NULL, OPT_INTERVAL},
    {"stall", required_argument, NULL, OPT_STALL},
    {"quiet", no_argument, NULL, 'q'},
    {"wide", no_argument, NULL, 'v'},
    {"phases", required_argument, NULL, OPT_PHASES},
    {"image", required_argument, NULL, OPT_IMAGE},
    {"image-dir", required_argument, NULL, OPT_IMAGE_DIR},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"destroy-data", optional_argument, NULL, OPT_DESTROY},
    {"force", no_argument, NULL, OPT_FORCE},
    {"fs", required_argument, NULL, OPT_FS},
    {"cb-dataset", required_argument, NULL, OPT_CB_DATASET},
    {"cb-no-sync", no_argument, NULL, OPT_CB_NO_SYNC},
    {"cb-buffer-size", required_argument, NULL, OPT_CB_BUFFER_SIZE},
    {"cb-program-cpu", required_argument, NULL, OPT_CB_PROGRAM_CPU},
    {"extract-calls", required_argument, NULL, OPT_EXTRACT_CALLS},
    {"mkfs-opts", required_argument, NULL, OPT_MKFS_OPTS},
    {"mount-opts", required_argument, NULL, OPT_MOUNT_OPTS},
    {"keep-fs", no_argument, NULL, OPT_KEEP_FS},
    {"keep-image", no_argument, NULL, OPT_KEEP_IMAGE},
    {"no-interleave", no_argument, NULL, OPT_NO_INTERLEAVE},
    {"queue-depth", required_argument, NULL, OPT_QUEUE_DEPTH},
    {"precision", required_argument, NULL, OPT_PRECISION},
    {"max-runs", required_argument, NULL, OPT_MAX_RUNS},
    {"min-effect", required_argument, NULL, OPT_MIN_EFFECT},
    {"negligible", required_argument, NULL, OPT_NEGLIGIBLE},
    {"warmup", required_argument, NULL, OPT_WARMUP},
    {"initial", required_argument, NULL, 'i'},
    {"random", required_argument, NULL, 'r'},
    {"fsync-dir", no_argument, NULL, OPT_FSYNC_DIR},
    {"age-written", required_argument, NULL, OPT_AGE_WRITTEN},
    {"age-fullness", required_argument, NULL, OPT_AGE_FULLNESS},
    {"age-host-fs", no_argument, NULL, OPT_AGE_HOST_FS},
    {"age-profile", required_argument, NULL, OPT_AGE_PROFILE},
    {"age-converge", required_argument, NULL, OPT_AGE_CONVERGE},
    {"age-steps", required_argument, NULL, OPT_AGE_STEPS},
    {"age-replay", required_argument, NULL, OPT_AGE_REPLAY},
    {"age-replay-times", required_argument, NULL, OPT_AGE_REPLAY_TIMES},
    {"fsync-rounds", required_argument, NULL, OPT_FSYNC_ROUNDS},
    {"size", required_argument, NULL, OPT_SIZE},
    {"threads", required_argument, NULL, 'j'},
    {"ranks-dir", required_argument, NULL, OPT_RANKS_DIR},
    {"rank-shift", required_argument, NULL, OPT_RANK_SHIFT},
    {"stonewall", required_argument, NULL, OPT_STONEWALL},
    {"replay", required_argument, NULL, OPT_REPLAY},
    {"replay-timing", required_argument, NULL, OPT_REPLAY_TIMING},
    {"replay-threads", required_argument, NULL, OPT_REPLAY_THREADS},
    {"replay-keep-setid", no_argument, NULL, OPT_REPLAY_KEEP_SETID},
    {"job", required_argument, NULL, OPT_JOB},
    {"dry-run", no_argument, NULL, OPT_DRY_RUN},
    {"check", no_argument, NULL, OPT_CHECK},
    {"skip-bad", no_argument, NULL, OPT_SKIP_BAD},
    {"fail-fast", no_argument, NULL, OPT_FAIL_FAST},
    {"resume", required_argument, NULL, OPT_RESUME},
    {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0},
};

const char *cmd_run_option_name(int c, int idx)
{
    if (c == '?' || c == ':')
        return NULL;
    if (idx >= 0)
        return cmd_run_options[idx].name;
    for (const struct option *o = cmd_run_options; o->name; o++)
        if (o->val == c)
            return o->name;
    return NULL;
}

/* Options that are no keys of a job file, and those given once per value. age-host-fs is
 * consent to age a file system fsbench does not manage: it comes from the command line only. */
const char *const cmd_run_not_keys[] = {"help",  "job",    "dry-run", "age-host-fs",
                                        "check", "resume", "meta",    NULL};
/* List options: each repeat adds to the list (--fs ext4 --fs xfs is --fs ext4,xfs), on the
 * command line and as repeated keys of a job file; every other option takes one value. */
const char *const cmd_run_repeatable[] = {"mount-opts", "fs", "phases", "mkfs-opts", "meta",
                                          NULL};
/* Options that say where the results go, not what runs, and consent (given again each
 * time): not folded into the stored job. */
const char *const cmd_run_not_stored[] = {"label",  "db",     "json",        "no-save",
                                          "format", "quiet",  "wide", "age-host-fs", "destroy-data",
                                          "force",  "resume", "check",       "meta",
                                          NULL};
/* Consent to destroying data: the command line's alone, never a job file's key. */
const char *const cmd_run_cmdline_only[] = {"destroy-data", "force", NULL};

bool cmd_run_is_path(const char *key, const char *value, size_t *skip)
{
    static const char *const paths[] = {"dir", "json", "db", "image-dir", "device", "replay",
                                        "age-replay",
                                        "cb-dataset",
                                        NULL};
    if (!strcmp(key, "age-profile")) /* a built-in's name is no path */
        return strchr(value, '/') || strchr(value, '.');
    *skip = 0;
    if (!strcmp(key, "tree")) {
        if (!strncmp(value, "tar:", 4)) {
            *skip = 4;
            return true;
        }
        return shape_is_path(value) != 0;
    }
    for (size_t i = 0; paths[i]; i++)
        if (!strcmp(key, paths[i]))
            return strcmp(value, "-") != 0;
    return false;
}

/* What each number option takes: one parser (cli_number) and these ranges, so a value is
 * never read before it was parsed and every refusal says what would do. */
static const struct cli_range range_positive = {0, INFINITY, CLI_LO_OPEN, NULL, NULL};
static const struct cli_range range_min_effect = {0, 100, CLI_HI_OPEN | CLI_PERCENT, NULL, NULL};
static const struct cli_range range_negligible = {0, 3600, 0, NULL, NULL};
static const struct cli_range range_percent = {0, 100, CLI_LO_OPEN | CLI_HI_OPEN | CLI_PERCENT,
                                               NULL, NULL};
static const struct cli_range range_max_runs = {1, 100000, CLI_WHOLE, NULL, NULL};
static const struct cli_range range_warmup = {0, 1000, CLI_WHOLE, NULL, NULL};
static const struct cli_range range_threads = {1, RUNNER_MAX_THREADS, CLI_WHOLE, NULL, NULL};
static const struct cli_range range_initial = {1, 1000, CLI_WHOLE, NULL, NULL};
static const struct cli_range range_random = {1, 1000000, CLI_WHOLE, NULL, NULL};
static const struct cli_range range_program_cpu = {0, 10000, 0, "microseconds", NULL};
static const struct cli_range range_age_written = {0, 50, 0, NULL, NULL};
static const struct cli_range range_age_fullness = {0, 1, CLI_HI_OPEN, NULL, NULL};
static const struct cli_range range_age_converge = {0, 50, CLI_PERCENT, NULL, NULL};
static const struct cli_range range_age_replay_times = {1, 100000, CLI_WHOLE, NULL, NULL};
static const struct cli_range range_fsync_rounds = {1, 100, CLI_WHOLE, NULL, NULL};
static const struct cli_range range_queue_depth = {1, ENG_MAX_QUEUE_DEPTH, CLI_WHOLE, NULL, NULL};
static const struct cli_range range_interval = {1, 60000, CLI_WHOLE, "ms", NULL};
static const struct cli_range range_stall = {0.001, 86400, 0, "seconds", NULL};
static const struct cli_range range_replay_threads = {1, REPLAY_THREADS_MAX, CLI_WHOLE, NULL, NULL};

/* --runs until-verdict: looks need pairs of the same round, and something to compare.
 * by_caller: a job file's caller checks the configurations (interleaved jobs are each
 * other's). 0, or EXIT_USAGE after error(). */
static int check_until_verdict(const struct runner_opts *ro, unsigned long max_runs, bool by_caller)
{
    if (max_runs < SEQ_FIRST_LOOK)
        return error("--max-runs %lu: --runs until-verdict needs at least %d (a verdict needs "
                     "%d pairs)",
                     max_runs, SEQ_FIRST_LOOK, SEQ_FIRST_LOOK),
               EXIT_USAGE;
    if (ro->no_interleave)
        return error("--runs until-verdict pairs the configurations' runs of each round: it "
                     "needs them interleaved (drop --no-interleave)"),
               EXIT_USAGE;
    if (!by_caller && ro->nconfigs < 2)
        return error("--runs until-verdict compares configurations with the first: give two "
                     "or more (--fs, --mount-opts, or jobs with interleave = jobs)"),
               EXIT_USAGE;
    return 0;
}

/* age on a --dir without --age-host-fs: the whole file system holding dir would be aged.
 * Says what that would take, and returns EXIT_USAGE. */
static int age_refused(const char *phase, const char *dir, const struct phase_params *p)
{
    struct sizing_age a;
    char what[512] = "", size[256];
    if (sizing_age_at(p, dir, &a) == 0)
        snprintf(what, sizeof what, ": it %s", sizing_age_text(&a, size, sizeof size));
    return error("phase %s ages the whole file system holding %s, not one of its own%s; give "
                 "it its own with --image SIZE or --device DEV, or add --age-host-fs to the "
                 "command line to age this one",
                 phase, dir, what),
           EXIT_USAGE;
}

/* --cb-program-cpu FILE[,ENTRY]: microseconds of the program's own processor time per file
 * written or read and per entry stat'ed or removed (ENTRY 0 when left out), into p.
 * 0, or -1 after error(). */
static int parse_program_cpu(const char *arg, struct phase_params *p)
{
    char file[32], text[96];
    const char *comma = strchr(arg, ',');
    size_t fl = comma ? (size_t)(comma - arg) : strlen(arg);
    double f, e = 0;
    bool ok = fl < sizeof file;
    if (ok) {
        memcpy(file, arg, fl);
        file[fl] = '\0';
        ok = cli_number(file, &range_program_cpu, &f) == 0 &&
             (!comma || cli_number(comma + 1, &range_program_cpu, &e) == 0);
    }
    if (!ok)
        return error("--cb-program-cpu: '%s' is not FILE or FILE,ENTRY, each %s (e.g. 16,2)",
                     arg, cli_range_text(&range_program_cpu, text, sizeof text));
    p->cb_cpu_file_ns = (uint32_t)(f * 1e3 + 0.5);
    p->cb_cpu_entry_ns = (uint32_t)(e * 1e3 + 0.5);
    return 0;
}

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

/* An option that takes one value, given again: fine with the same value, refused (naming
 * both) with another. seen[] holds each option's first value, by its index in the table.
 * 0, or EXIT_USAGE after error(). */
static int given_once(int c, int idx, const char **seen)
{
    if (idx < 0)
        for (int i = 0; cmd_run_options[i].name; i++)
            if (cmd_run_options[i].val == c)
                idx = i;
    if (idx < 0 || cmd_run_options[idx].has_arg != required_argument)
        return 0;
    const char *name = cmd_run_options[idx].name;
    for (size_t i = 0; cmd_run_repeatable[i]; i++)
        if (!strcmp(name, cmd_run_repeatable[i]))
            return 0;
    if (seen[idx] && strcmp(seen[idx], optarg))
        return error("--%s given twice, as '%s' and as '%s': it takes one value (list "
                     "options such as --fs and --mount-opts take several)",
                     name, seen[idx], optarg),
               EXIT_USAGE;
    seen[idx] = optarg;
    return 0;
}

int cmd_run_with(int argc, char **argv, const struct run_hook *hook)
{
    struct mpirun_opts mo = {0};
    int idx = 0;
    struct runner_opts ro = {0};
    struct target_args ta = {0};
    ro.eng = &engine_posix;
    ro.runs = 1;
    ro.interval_ms = 100;
    ro.precision = 0.05;
    ro.confidence = 0.95;
    ro.min_effect = SEQ_MIN_EFFECT_DEFAULT;
    ro.negligible_s = STATS_NEGLIGIBLE_DEFAULT_S;
    ro.params = (struct phase_params){.cb_initial = 3, .cb_runs = 20, .fsync_rounds = 2,
                                      .age_written = 4, .age_fullness = 0.8,
                                      .age_converge = 0.01};
    unsigned long max_runs = 30;
    const char *size_arg = NULL, *scale_arg = NULL, *replay = NULL, *age_steps = NULL,
               *age_replay = NULL;
    int scaled = 0, fsync_rounds_given = 0;
    bool skip_bad = false, threads_given = false;
    double d;
    const char *profile = NULL, *json = NULL, *label = NULL, *db = NULL, *phases = NULL;
    double scale = 1;
    unsigned long long seed = 1;
    int format = REPORT_TABLE, save = 1, c;
    bool cb_format = false;
    struct run_meta meta[RES_META_MAX];
    unsigned nmeta = 0;

    optind = 0; /* 0: getopt starts afresh (cmd_run_job.c scanned argv in order) */
    bool quiet = false, wide = false;
    const char *seen[sizeof cmd_run_options / sizeof cmd_run_options[0]] = {0};
    char phases_acc[4096];
    while ((idx = -1, c = getopt_long(argc, argv, CMD_RUN_SHORT_OPTIONS, cmd_run_options,
                                      &idx)) != -1) {
        if (c != '?' && c != ':' && given_once(c, idx, seen))
            return EXIT_USAGE;
        switch (c) {
        case 'd': ro.dir = optarg; break;
        case 't': profile = optarg; break;
        case 's':
            if (cli_option_number("--scale", optarg, &range_positive, &scale) < 0)
                return EXIT_USAGE;
            scale_arg = optarg;
            scaled = 1;
            break;
        case 'S':
            if (cli_parse_u64(optarg, &seed) < 0)
                return error("--seed: '%s' is not a whole number", optarg), EXIT_USAGE;
            break;
        case 'n':
            /* the last --runs wins (a job's key, then the command line's) */
            if (cli_option_runs(optarg, &ro) < 0)
                return EXIT_USAGE;
            break;
        case OPT_MIN_EFFECT:
            if (cli_option_number("--min-effect", optarg, &range_min_effect, &ro.min_effect) < 0)
                return EXIT_USAGE;
            break;
        case OPT_NEGLIGIBLE:
            if (cli_option_number("--negligible", optarg, &range_negligible, &ro.negligible_s) < 0)
                return EXIT_USAGE;
            break;
        case OPT_PRECISION:
            if (cli_option_number("--precision", optarg, &range_percent, &ro.precision) < 0)
                return EXIT_USAGE;
            break;
        case OPT_MAX_RUNS:
            if (cli_option_number("--max-runs", optarg, &range_max_runs, &d) < 0)
                return EXIT_USAGE;
            max_runs = (unsigned long)d;
            break;
        case OPT_WARMUP:
            if (cli_option_number("--warmup", optarg, &range_warmup, &d) < 0)
                return EXIT_USAGE;
            ro.warmup = (unsigned)d;
            break;
        case 'j':
            if (cli_option_number("--threads", optarg, &range_threads, &d) < 0)
                return EXIT_USAGE;
            ro.threads = (unsigned)d;
            threads_given = true;
            break;
        case 'i':
            if (cli_option_number("--initial", optarg, &range_initial, &d) < 0)
                return EXIT_USAGE;
            ro.params.cb_initial = (unsigned)d;
            break;
        case 'r':
            if (cli_option_number("--random", optarg, &range_random, &d) < 0)
                return EXIT_USAGE;
            ro.params.cb_runs = (unsigned)d;
            break;
        case OPT_CB_DATASET: {
            /* read now, so a bad listing is a usage error before anything runs; not when
             * a job file's value is only checked (its relative path is resolved against the
             * job file afterwards, and read then) */
            if (!(hook && hook->options_only)) {
                struct cb_dataset ds;
                if (cb_dataset_load(optarg, &ds) < 0)
                    return EXIT_USAGE;
                cb_dataset_free(&ds);
            }
            ro.params.cb_dataset = optarg;
            break;
        }
        case OPT_CB_NO_SYNC: ro.params.cb_no_sync = true; break;
        case OPT_CB_BUFFER_SIZE: {
            uint64_t b;
            if (target_parse_size(optarg, &b) < 0 || b < 1 || b > ((uint64_t)64 << 20))
                return error("--cb-buffer-size: '%s' is not a size from 1 byte to 64M "
                             "(e.g. 262144 or 256K)",
                             optarg),
                       EXIT_USAGE;
            ro.params.cb_buffer_size = (unsigned)b;
            break;
        }
        case OPT_CB_PROGRAM_CPU:
            if (parse_program_cpu(optarg, &ro.params) < 0)
                return EXIT_USAGE;
            break;
        case OPT_EXTRACT_CALLS:
            if (tarcalls_parse(optarg, &ro.params.extract_calls) < 0)
                return error("--extract-calls: '%s' is not tar or create", optarg), EXIT_USAGE;
            break;
        case OPT_FSYNC_DIR: ro.params.fsync_dir = true; break;
        case OPT_AGE_WRITTEN:
            /* 0: no written limit (only fullness and the safety limit stop it) */
            if (cli_option_number("--age-written", optarg, &range_age_written,
                                  &ro.params.age_written) < 0)
                return EXIT_USAGE;
            break;
        case OPT_AGE_FULLNESS:
            /* 0: no fullness limit */
            if (cli_option_number("--age-fullness", optarg, &range_age_fullness,
                                  &ro.params.age_fullness) < 0)
                return EXIT_USAGE;
            break;
        case OPT_AGE_PROFILE: {
            /* read now, so a bad profile is a usage error before anything runs (a job
             * file's relative path is resolved against the job file first) */
            if (!(hook && hook->options_only)) {
                struct ageprof ap;
                if (ageprof_load(optarg, &ap) < 0)
                    return EXIT_USAGE;
            }
            ro.params.age_profile = optarg;
            break;
        }
        case OPT_AGE_CONVERGE:
            if (cli_option_number("--age-converge", optarg, &range_age_converge,
                                  &ro.params.age_converge) < 0)
                return EXIT_USAGE;
            break;
        case OPT_AGE_HOST_FS: break; /* consent: cli_consent(), this process's argv alone */
        case OPT_AGE_STEPS: age_steps = optarg; break;
        case OPT_AGE_REPLAY: age_replay = optarg; break;
        case OPT_AGE_REPLAY_TIMES:
            if (cli_option_number("--age-replay-times", optarg, &range_age_replay_times, &d) < 0)
                return EXIT_USAGE;
            ro.params.age_replay_times = (unsigned)d;
            break;
        case OPT_REPLAY: replay = optarg; break;
        case OPT_REPLAY_TIMING:
            if (!strcmp(optarg, "afap"))
                ro.params.replay_timing = REPLAY_AFAP;
            else if (!strcmp(optarg, "original"))
                ro.params.replay_timing = REPLAY_ORIGINAL;
            else
                return error("--replay-timing: '%s' is neither afap nor original", optarg),
                       EXIT_USAGE;
            break;
        case OPT_REPLAY_THREADS:
            if (cli_option_number("--replay-threads", optarg, &range_replay_threads, &d) < 0)
                return EXIT_USAGE;
            ro.params.replay_threads = (unsigned)d;
            break;
        case OPT_REPLAY_KEEP_SETID: ro.params.replay_keep_setid = true; break;
        case OPT_SIZE: size_arg = optarg; break;
        case OPT_FSYNC_ROUNDS:
            if (cli_option_number("--fsync-rounds", optarg, &range_fsync_rounds, &d) < 0)
                return EXIT_USAGE;
            ro.params.fsync_rounds = (unsigned)d;
            fsync_rounds_given = 1;
            break;
        case 'e':
            if (!strcmp(optarg, "auto")) {
                ro.eng = &engine_posix;
                ro.async_eng = engine_find("uring"); /* NULL where the build has none */
                break;
            }
            ro.eng = engine_find(optarg);
            if (!ro.eng)
                return error("--engine: unknown engine '%s' (posix, uring, null, auto)", optarg),
                       EXIT_USAGE;
            break;
        case OPT_QUEUE_DEPTH:
            if (cli_option_number("--queue-depth", optarg, &range_queue_depth, &d) < 0)
                return EXIT_USAGE;
            eng_set_queue_depth((unsigned)d);
            break;
        case 'f':
            cb_format = !strcmp(optarg, "compilebench");
            format = cb_format ? REPORT_TABLE : report_format_find(optarg);
            if (format < 0)
                return error("--format: unknown format '%s' (table, seeds, compilebench)",
                             optarg),
                       EXIT_USAGE;
            break;
        case OPT_JSON: json = optarg; break;
        case 'l': label = optarg; break;
        case OPT_META:
            if (meta_add_arg(meta, &nmeta, optarg, "--meta") < 0)
                return EXIT_USAGE;
            break;
        case 'D': db = optarg; break;
        case OPT_NO_SAVE: save = 0; break;
        case OPT_INTERVAL:
            if (cli_option_number("--interval", optarg, &range_interval, &d) < 0)
                return EXIT_USAGE;
            ro.interval_ms = (unsigned)d;
            break;
        case OPT_STALL:
            if (cli_option_number("--stall", optarg, &range_stall, &ro.stall_s) < 0)
                return EXIT_USAGE;
            break;
        case 'q': quiet = true; break;
        case 'v': wide = true; break;
        case OPT_PHASES:
            if (list_append("phases", &phases, optarg, phases_acc, sizeof phases_acc, ','))
                return EXIT_USAGE;
            break;
        case OPT_IMAGE: ta.image = optarg; break;
        case OPT_IMAGE_DIR: ta.spec.image_dir = optarg; break;
        case OPT_DEVICE: ta.spec.device = optarg; break;
        case OPT_DESTROY:
        case OPT_FORCE: break; /* consent: cli_consent(), this process's argv alone */
        case OPT_FS:
            if (list_append("fs", &ta.fs_list, optarg, ta.fs_acc, sizeof ta.fs_acc, ','))
                return EXIT_USAGE;
            break;
        case OPT_MKFS_OPTS:
            if (list_append("mkfs-opts", &ta.spec.mkfs_opts, optarg, ta.mkfs_acc,
                            sizeof ta.mkfs_acc, ' '))
                return EXIT_USAGE;
            break;
        case OPT_MOUNT_OPTS:
            if (ta.nmount == MAX_MOUNT_OPTS)
                return error("--mount-opts: at most %d option sets", MAX_MOUNT_OPTS), EXIT_USAGE;
            ta.mount_opts[ta.nmount++] = optarg;
            break;
        case OPT_KEEP_FS:
            ro.keep_fs = true;
            ro.params.age_once = true;
            break;
        case OPT_KEEP_IMAGE: ro.keep_image = true; break;
        case OPT_NO_INTERLEAVE: ro.no_interleave = true; break;
        case OPT_JOB:
        case OPT_CHECK:
        case OPT_RESUME:
        case OPT_DRY_RUN: break; /* cmd_run_job.c's and cmd_run_resume.c's */
        case OPT_FAIL_FAST: ro.fail_fast = true; break;
        case OPT_SKIP_BAD: skip_bad = true; break;
        case OPT_RANKS_DIR:
        case OPT_RANK_SHIFT:
        case OPT_STONEWALL:
            if (cli_mpi_option(cmd_run_options[idx].name, optarg, &mo) < 0)
                return EXIT_USAGE;
            break;
        case 'h': run_usage(stdout); return EXIT_OK;
        default: run_usage(stderr); return EXIT_USAGE;
        }
    }
    ro.progress = !quiet; /* a line rewritten on a terminal, else a line a run */
    ro.params.age_progress = !quiet;
    if (argc - optind > 1)
        return error("run: one scenario at most, got '%s' and '%s'", argv[optind],
                     argv[optind + 1]), EXIT_USAGE;
    /* every scenario is a shipped job (cmd_run_job.c): a name left here is none */
    if (optind < argc)
        return error("unknown scenario '%s' (see 'fsbench list')", argv[optind]), EXIT_USAGE;
    if (!profile)
        profile = "tiny";
    if (!strncmp(profile, "tar:", 4)) {
        if (!profile[4])
            return error("--tree: tar: needs a file name (tar:FILE)"), EXIT_USAGE;
    } else if (shape_is_path(profile)) {
        /* a shape captured from a real tree; it must outlive the run */
        static struct shape_model shape_model;
        if (shape_model_load(profile, &shape_model) < 0)
            return EXIT_USAGE;
        ro.tree.prof = &shape_model.prof;
    } else if (!(ro.tree.prof = profile_find(profile))) {
        return error("--tree: unknown profile '%s' (see 'fsbench list')", profile), EXIT_USAGE;
    }
    if (scaled && ro.tree.prof && cli_check_scale(scale_arg, ro.tree.prof, scale) < 0)
        return EXIT_USAGE;
    ro.tree.scale = scale;
    ro.tree.seed = seed;
    /* no phases (a job file without them): the default scenario's, jobs/basic.ini; a
     * replay alone with --replay FILE */
    const char *list = phases ? phases : replay ? "replay" : cmd_run_default_phases();
    if (!list)
        return EXIT_USAGE;
    int n = scenario_resolve(list, ro.phases, SCENARIO_MAX_PHASES);
    /* --fsync-rounds N: each run of fsyncstorm phases is N long (cvs.ini's two) */
    if (n > 0 && fsync_rounds_given)
        n = scenario_repeat(ro.phases, (size_t)n, SCENARIO_MAX_PHASES, "fsyncstorm",
                            ro.params.fsync_rounds);
    if (n < 0)
        return EXIT_USAGE;
    ro.nphases = (size_t)n;
    bool replays = false;
    for (size_t i = 0; i < ro.nphases; i++)
        replays |= !strcmp(ro.phases[i]->name, "replay");
    if (replays && !replay)
        return error("phase replay needs a trace: --replay FILE (made by fsbench record)"),
               EXIT_USAGE;
    if (replay && !replays)
        return error("--replay %s: the phases (%s) hold no replay", text_shown(replay), list),
               EXIT_USAGE;
    bool cb_phases = false; /* compilebench's own output comes from its phases (cb_*) */
    for (size_t i = 0; i < ro.nphases; i++)
        cb_phases |= !strncmp(ro.phases[i]->name, "cb_", 3);
    if (cb_format && !cb_phases)
        return error("--format compilebench: the phases (%s) hold none of compilebench's "
                     "(cb_initial, cb_random, ...), so nothing would fill it; use --format "
                     "table or seeds", list), EXIT_USAGE;
    if (hook && hook->options_only)
        return EXIT_OK;
    bool ages = false;
    for (size_t i = 0; i < ro.nphases; i++)
        ages |= !strcmp(ro.phases[i]->name, "age");
    if ((age_replay || ro.params.age_replay_times) && !ages)
        return error("--age-replay: the phases (%s) hold no age", list), EXIT_USAGE;
    if (ro.params.age_replay_times && !age_replay)
        return error("--age-replay-times needs --age-replay FILE"), EXIT_USAGE;
    for (size_t i = 0; i < ro.nphases; i++) {
        if (!(ro.phases[i]->flags & PHASE_KEEPS_TREE) || ta.image || ta.spec.device)
            continue;
        if (!ro.dir)
            return error("phase %s writes several times the size of the file system it runs "
                         "on: give it one with --image SIZE, --device DEV or --dir DIR",
                         ro.phases[i]->name), EXIT_USAGE;
        if (!cli_consent()->age_host_fs)
            return age_refused(ro.phases[i]->name, ro.dir, &ro.params);
    }
    char why[256];
    if (ro.eng->available && ro.eng->available(why, sizeof why) < 0)
        return error("--engine %s: %s (--engine auto falls back to posix)", ro.eng->name, why),
               EXIT_RUN_FAILED;
    if (ro.async_eng && ro.async_eng->available && ro.async_eng->available(why, sizeof why) < 0) {
        warning("--engine auto: %s: posix for every phase", why);
        ro.async_eng = NULL;
    }
    if (ro.runs_auto || ro.until_verdict) {
        ro.runs = (unsigned)max_runs + ro.warmup;
    } else if (ro.warmup >= ro.runs) {
        return error("--warmup %u leaves none of the %u runs to count", ro.warmup, ro.runs),
               EXIT_USAGE;
    }
    ro.order_seed = seed;
    int trc = cli_mpi_check(&mo, &ro, ta.image || ta.spec.device, profile);
    if (trc)
        return trc;
    trc = cmd_run_setup_targets(&ta, &ro, hook && hook->dry_run);
    if (trc)
        return trc;
    if (age_steps) {
        char steps[512], kv[600];
        if ((trc = age_steps_apply(age_steps, &ro, steps, sizeof steps)))
            return trc;
        /* the set says it is a series of steps: compare and report show it as one */
        snprintf(kv, sizeof kv, "age-steps=%s", steps);
        if (meta_add_arg(meta, &nmeta, kv, "--age-steps") < 0)
            return EXIT_USAGE;
    }
    if (ro.until_verdict && (trc = check_until_verdict(&ro, max_runs, hook && hook->ready)))
        return trc;
    if (size_arg) {
        if (scaled)
            return error("--size and --scale exclude each other"), EXIT_USAGE;
        if (!ro.tree.prof)
            return error("--size needs a tree profile, not an archive"), EXIT_USAGE;
        trc = sizing_apply(size_arg, &ro.tree, ro.phases, ro.nphases, ro.dir,
                           ta.spec.image_bytes);
        if (trc)
            return trc;
    }
    if (cli_check_label(label))
        return EXIT_USAGE;
    /* where the results go, checked before anything runs (not after the last run) */
    if (json && outfile_check(json, "--json") < 0)
        return EXIT_USAGE;
    if (save && db && outfile_check_dir(db, "--db") < 0)
        return EXIT_USAGE;
    struct cli_output out = {
        .label = label, .scenario = "custom", .db = db, .save = save,
        .json = json, .format = (enum report_format)format, .compilebench = cb_format,
        .argc = argc, .argv = argv,
        .quiet = quiet, .wide = wide, .skip_bad = skip_bad,
    };
    memcpy(out.meta, meta, nmeta * sizeof meta[0]);
    out.nmeta = nmeta;
    bool mpi_first = hook && hook->mpi_first;
    if (mpi_first && cli_mpi_setup(&mo, &ro, &out) < 0)
        return EXIT_RUN_FAILED;
    if (hook && hook->ready) {
        int h = hook->ready(hook->arg, &ro, &out, profile);
        if (h != RUN_HOOK_GO)
            return h;
    }
    /* --resume: the stored plan, checked before the pre-flight touches anything (a job
     * file's jobs are checked by its ready()) */
    if (!hook && cmd_run_resuming(NULL) &&
        cli_resume_check_plan(cmd_run_resuming(NULL), &ro, true) < 0)
        return EXIT_USAGE;
    /* a job file's jobs had their pre-flight before the first of them ran */
    if (!hook && (trc = cmd_run_preflight(&ro, profile, skip_bad)) != EXIT_OK)
        return trc;
    out.args_json = cmd_run_args_json(out.argc, out.argv);
    out.resume = cmd_run_resuming(&out.resume_id);
    if (!mpi_first && cli_mpi_setup(&mo, &ro, &out) < 0)
        return EXIT_RUN_FAILED;
    if (replay) {
        /* read once here, whole, so a damaged trace stops the run before it starts */
        ro.params.replay = trace_open(replay);
        if (!ro.params.replay || trace_check(ro.params.replay) < 0) {
            trace_close(ro.params.replay);
            return EXIT_RUN_FAILED;
        }
        if (!threads_given)
            ro.threads = replay_threads_wanted(trace_file_info(ro.params.replay),
                                               ro.params.replay_threads);
    }
    if (age_replay) {
        /* read once here, whole, as --replay's trace */
        ro.params.age_replay = trace_open(age_replay);
        if (!ro.params.age_replay || trace_check(ro.params.age_replay) < 0) {
            trace_close(ro.params.age_replay);
            trace_close(ro.params.replay);
            return EXIT_RUN_FAILED;
        }
    }
    if (!ro.tree.prof) {
        /* Decompressed once here, outside every timed phase. */
        ro.tar = tarsrc_open(profile + 4, NULL);
        if (!ro.tar) {
            trace_close(ro.params.replay);
            trace_close(ro.params.age_replay);
            return EXIT_RUN_FAILED;
        }
    }
    int rc = cli_run_and_report(&ro, &out);
    tarsrc_close(ro.tar);
    trace_close(ro.params.replay);
    trace_close(ro.params.age_replay);
    return rc;
}

/* A job file, or the options alone. */
static int run_main(int argc, char **argv)
{
    if (cmd_run_resume_wanted(argc, argv))
        return cmd_run_resume(argc, argv);
    if (cmd_run_job_wanted(argc, argv))
        return cmd_run_job(argc, argv);
    return cmd_run_with(argc, argv, NULL);
}

int cmd_run(int argc, char **argv)
{
    /* consent comes from here alone: the argv this process was given */
    if (cli_consent_scan(argc, argv, CMD_RUN_SHORT_OPTIONS, cmd_run_options) < 0)
        return EXIT_USAGE;
    outfile_set_force(cli_consent()->force); /* --force also lets --json replace a store */
    if (cli_signals_install() < 0)
        return EXIT_RUN_FAILED;
    return cli_mpi_main(argc, argv, run_main); /* under mpirun: on every rank */
}
