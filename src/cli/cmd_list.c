/* cmd_list.c — `fsbench list`: the scenarios (the shipped job files), phases, tree profiles (with
 * their file count, total size and the source of their shape, computed by streaming each tree),
 * engines and report formats, fitting the terminal (80 columns when not one: descriptions
 * folded under their column, a profile's source with -v/--wide, which also prints every
 * line whole); `fsbench list --names KIND` prints one kind's names alone, one a line, for
 * scripts and the bash completion.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_options.h"
#include "cli/cli_run.h"
#include "cli/cmd_run.h"
#include "run/run_request.h"
#include "engine/engine.h"
#include "base/err.h"
#include "base/units.h"
#include "phase/phase_registry.h"
#include "tree/profile.h"
#include "run/job.h"
#include "run/job_builtin.h"
#include "tree/tree.h"

#ifndef FSBENCH_PREFIX
#define FSBENCH_PREFIX "/usr/local"
#endif

/* list --names KIND: the names alone, one a line (for scripts and the shell's completion). */
static int list_names(const char *kind)
{
    if (!strcmp(kind, "scenarios")) {
        for (const struct job_builtin *b = job_builtin_table; b->name; b++)
            printf("%s\n", b->name);
    } else if (!strcmp(kind, "phases")) {
        for (const struct phase_def *p = phase_table; p->name; p++)
            printf("%s\n", p->name);
    } else if (!strcmp(kind, "profiles")) {
        for (const struct profile *p = profile_builtin; p->name; p++)
            printf("%s\n", p->name);
    } else if (!strcmp(kind, "engines")) {
        for (size_t i = 0; engine_table[i]; i++)
            printf("%s\n", engine_table[i]->name);
        printf("auto\n");
    } else {
        error("list: --names takes scenarios, phases, profiles or engines, not '%s'", kind);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* "  NAME  text" with NAME in a column of nw, text folded at blanks (and after commas)
 * so that no line passes width columns (0: no limit), each further line under the text's
 * column; a word longer than the room is printed whole. */
static void put_item(unsigned width, int nw, const char *name, const char *text)
{
    int col = 2 + nw + 1, at = col;
    printf("  %-*s ", nw, name);
    const char *p = text + strspn(text, " ");
    bool blank = false; /* a blank before the next word */
    while (*p) {
        size_t n = strcspn(p, " ,"); /* a word and what ends it: "abc," or "abc" */
        if (p[n] == ',')
            n++;
        if (width && at > col && at + blank + (int)n > (int)width) {
            printf("\n%*s", col, "");
            at = col;
            blank = false;
        }
        printf("%s%.*s", blank ? " " : "", (int)n, p);
        at += blank + (int)n;
        p += n;
        size_t b = strspn(p, " ");
        blank = b > 0;
        p += b;
    }
    printf("\n");
}

/* list's options: the one table its getopt_long reads (t0014 holds its --help, the man
 * page and the completion to it) */
const struct cli_opts cli_opts_list = {
    "list", ":hv",
    (const struct option[]){
        {"wide", no_argument, NULL, 'v'},
        {"names", required_argument, NULL, 'n'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    },
};

static void list_usage(void)
{
    printf("usage: fsbench list [-v|--wide] [--names scenarios|phases|profiles|engines]\n"
           "  what fsbench can run: the shipped scenarios (with their phases or\n"
           "  jobs), the phases, the tree profiles (files, directories, size, depth\n"
           "  and, with -v, where their shape comes from), the engines and the report\n"
           "  formats, fitting the terminal (80 columns when not one)\n"
           "  -v, --wide    where each profile's shape comes from too, and every line\n"
           "                whole, however wide\n"
           "  --names KIND  only the names of one kind, one a line (for scripts and\n"
           "                the bash completion): scenarios, phases, profiles or\n"
           "                engines\n");
}

int cmd_list(int argc, char **argv)
{
    bool wide = false;
    const char *names = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_opts_list.shortopts, cli_opts_list.longopts,
                            NULL)) != -1) {
        switch (c) {
        case 'v': wide = true; break;
        case 'n': names = optarg; break;
        case 'h': list_usage(); return EXIT_OK;
        default: return cli_bad_option("list", c, argv);
        }
    }
    if (optind < argc)
        return error("list: takes no arguments but --names KIND; try 'fsbench list --help'"),
               EXIT_USAGE;
    if (names)
        return list_names(names);
    unsigned width = wide ? 0 : cli_report_width(stdout);
    printf("scenarios: the shipped job files (fsbench run NAME; default basic), or run\n"
           "the file itself: jobs/NAME.ini in the source,\n"
           "%s/share/fsbench/jobs/NAME.ini installed:\n",
           FSBENCH_PREFIX);
    const struct job_keys *keys = run_options_job_keys();
    for (const struct job_builtin *b = job_builtin_table; b->name; b++) {
        struct job_file jf;
        if (job_parse(b->path, b->text, keys, &jf) < 0)
            return EXIT_RUN_FAILED;
        const char *d = job_description(&jf, 0);
        put_item(width, 22, b->name, d ? d : "");
        const char *phases = NULL;
        for (size_t i = 0; i < jf.sec[0].n; i++)
            if (!strcmp(jf.sec[0].e[i].key, "phases"))
                phases = jf.sec[0].e[i].value;
        if (job_count(&jf) == 1 && phases) {
            char line[1024];
            snprintf(line, sizeof line, "phases: %s", phases);
            put_item(width, 22, "", line);
        }
        if (job_count(&jf) > 1 || strcmp(job_name(&jf, 0), b->name)) {
            printf("  %-22s jobs:", "");
            for (size_t i = 0; i < job_count(&jf); i++)
                printf(" %s", job_name(&jf, i));
            printf("%s\n", jf.interleave ? " (interleaved in rounds)" : "");
        }
        job_free(&jf);
    }

    printf("\nphases:\n");
    for (const struct phase_def *p = phase_table; p->name; p++)
        put_item(width, 11, p->name, p->desc);

    printf("\ntree profiles (at scale 1, seed 1; --scale multiplies the file count):\n");
    for (const struct profile *p = profile_builtin; p->name; p++) {
        struct tree_spec spec = {.prof = p, .scale = 1, .seed = 1};
        struct tree_totals t;
        if (tree_measure(&spec, &t) < 0)
            return EXIT_RUN_FAILED;
        char size[32], line[1024];
        snprintf(line, sizeof line, "%llu files, %llu dirs, %s, depth %u: %s",
                 (unsigned long long)t.files, (unsigned long long)t.dirs,
                 units_bytes(size, sizeof size, (double)t.bytes), t.max_depth, p->summary);
        put_item(width, 11, p->name, line);
        if (wide) {
            snprintf(line, sizeof line, "source: %s", p->source);
            put_item(width, 11, "", line);
        }
    }
    if (!wide)
        printf("  (-v: where each profile's shape comes from)\n");

    printf("\nengines:\n");
    for (size_t i = 0; engine_table[i]; i++)
        put_item(width, 11, engine_table[i]->name, engine_table[i]->desc);

    printf("\nreport formats: table (default), seeds\n");
    return EXIT_OK;
}
