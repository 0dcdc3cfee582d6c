/* run_usage.c — `fsbench run --help`, printed from the table of run's options
 * (run/run_request_table.c): its sections in order, each row's left column and help lines.
 */
#include "cli/run_usage.h"

#include <stdio.h>
#include <string.h>

#include "run/run_request.h"

/* The left column of row o: "-j N, --threads N", "--dir DIR", "--no-save". */
static const char *left_column(const struct run_option *o, char *buf, size_t len)
{
    if (o->usage)
        return o->usage;
    const char *arg = o->arg ? o->arg : "";
    const char *sp = o->arg ? " " : "";
    if (o->short_name)
        snprintf(buf, len, "-%c%s%s, --%s%s%s", o->short_name, sp, arg, o->name, sp, arg);
    else
        snprintf(buf, len, "--%s%s%s", o->name, sp, arg);
    return buf;
}

void run_options_usage(FILE *out)
{
    fputs("usage: fsbench run [OPTIONS] [SCENARIO]   (default scenario: basic)\n"
          "       fsbench run [OPTIONS] JOB.ini | --job JOB.ini | JOB   (a job file, or a\n"
          "                    shipped job: see fsbench list)\n",
          out);
    for (int s = 0; s < RUN_SEC_HIDDEN; s++) {
        if (run_sections[s].title)
            fprintf(out, "%s\n", run_sections[s].title);
        for (const struct run_option *o = run_options; o->name; o++) {
            if ((int)o->section != s)
                continue;
            char buf[128];
            const char *left = left_column(o, buf, sizeof buf);
            size_t w = strlen(left);
            const char *h = o->help;
            size_t n = strcspn(h, "\n");
            /* the help at column 20, or after the left column when it is wider */
            fprintf(out, w <= 17 ? "  %-17s %.*s\n" : w == 18 ? "  %s %.*s\n" : "  %s  %.*s\n",
                    left, (int)n, h);
            for (h += n; *h; h += n) {
                h++;
                n = strcspn(h, "\n");
                fprintf(out, "%20s%.*s\n", "", (int)n, h);
            }
        }
        if (run_sections[s].note)
            fprintf(out, "%s\n", run_sections[s].note);
    }
}
