/* cmd_list.c — `fsbench list`: the scenarios (the shipped job files), phases, tree profiles (with
 * their file count, total size and the source of their shape, computed by streaming each tree),
 * engines and report formats; `fsbench list --names KIND` prints one kind's names alone, one a
 * line, for scripts and the bash completion.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_run.h"
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

int cmd_list(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--names"))
        return list_names(argv[2]);
    if (argc == 2 && !strncmp(argv[1], "--names=", 8))
        return list_names(argv[1] + 8);
    if (argc > 1) {
        if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
            printf("usage: fsbench list [--names scenarios|phases|profiles|engines]\n"
                   "  what fsbench can run: the shipped scenarios (with their phases or\n"
                   "  jobs), the phases, the tree profiles (files, directories, size, depth\n"
                   "  and where their shape comes from), the engines and the report formats\n"
                   "  --names KIND  only the names of one kind, one a line (for scripts and\n"
                   "                the bash completion): scenarios, phases, profiles or\n"
                   "                engines\n");
            return EXIT_OK;
        }
        if (!strcmp(argv[1], "--names"))
            return error("list: option '--names' needs a value; try 'fsbench list --help'"),
                   EXIT_USAGE;
        if (argv[1][0] == '-')
            return error("list: unknown option '%s'; try 'fsbench list --help'", argv[1]),
                   EXIT_USAGE;
        return error("list: takes no arguments but --names KIND; try 'fsbench list --help'"),
               EXIT_USAGE;
    }
    printf("scenarios: the shipped job files (fsbench run NAME; default basic), or run the file\n"
           "itself: jobs/NAME.ini in the source, %s/share/fsbench/jobs/NAME.ini installed:\n",
           FSBENCH_PREFIX);
    const struct job_keys keys = {.opts = cmd_run_options, .excluded = cmd_run_not_keys,
                                  .repeatable = cmd_run_repeatable};
    for (const struct job_builtin *b = job_builtin_table; b->name; b++) {
        struct job_file jf;
        if (job_parse(b->path, b->text, &keys, &jf) < 0)
            return EXIT_RUN_FAILED;
        const char *d = job_description(&jf, 0);
        printf("  %-22s %s\n", b->name, d ? d : "");
        const char *phases = NULL;
        for (size_t i = 0; i < jf.sec[0].n; i++)
            if (!strcmp(jf.sec[0].e[i].key, "phases"))
                phases = jf.sec[0].e[i].value;
        if (job_count(&jf) == 1 && phases)
            printf("  %-22s phases: %s\n", "", phases);
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
        printf("  %-11s %s\n", p->name, p->desc);

    printf("\ntree profiles (at scale 1, seed 1; --scale multiplies the file count):\n");
    for (const struct profile *p = profile_builtin; p->name; p++) {
        struct tree_spec spec = {.prof = p, .scale = 1, .seed = 1};
        struct tree_totals t;
        if (tree_measure(&spec, &t) < 0)
            return EXIT_RUN_FAILED;
        char size[32];
        printf("  %-11s %llu files, %llu dirs, %s, depth %u: %s\n", p->name,
               (unsigned long long)t.files, (unsigned long long)t.dirs,
               units_bytes(size, sizeof size, (double)t.bytes), t.max_depth, p->summary);
        printf("  %-11s source: %s\n", "", p->source);
    }

    printf("\nengines:\n");
    for (size_t i = 0; engine_table[i]; i++)
        printf("  %-11s %s\n", engine_table[i]->name, engine_table[i]->desc);

    printf("\nreport formats: table (default), seeds\n");
    return EXIT_OK;
}
