/* list_print.c — what `fsbench list` prints: the scenarios (the shipped job files, with
 * their phases or jobs), the phases, the tree profiles (their file count, total size and,
 * wide, the source of their shape, computed by streaming each tree), the engines and the
 * report formats, descriptions folded under their column to fit a width; and one kind's
 * names alone, one a line (list --names).
 */
#include "report/list_print.h"

#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "base/units.h"
#include "engine/engine.h"
#include "phase/phase_registry.h"
#include "run/job.h"
#include "run/job_builtin.h"
#include "tree/profile.h"
#include "tree/tree.h"

#ifndef FSBENCH_PREFIX
#define FSBENCH_PREFIX "/usr/local"
#endif

/* list --names KIND: the names alone, one a line (for scripts and the shell's completion). */
int list_print_names(const char *kind)
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
        return -1;
    }
    return 0;
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

int list_print_all(unsigned width, bool wide, const struct job_keys *keys)
{
    printf("scenarios: the shipped job files (fsbench run NAME; default basic), or run\n"
           "the file itself: jobs/NAME.ini in the source,\n"
           "%s/share/fsbench/jobs/NAME.ini installed:\n",
           FSBENCH_PREFIX);
    for (const struct job_builtin *b = job_builtin_table; b->name; b++) {
        struct job_file jf;
        if (job_parse(b->path, b->text, keys, &jf) < 0)
            return -1;
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
            return -1;
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
    return 0;
}
