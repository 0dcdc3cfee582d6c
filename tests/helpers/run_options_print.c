/* run_options_print.c — prints the table of `fsbench run`'s options (src/run/run_request_table.c)
 * in the forms the help, the man page and the bash completion take, so that a test
 * (tests/e2e/t0013-run-options-table.sh) fails when one of them drifts from the table, and
 * `make completion-run` rewrites the completion's generated block.
 *
 *   run_options_print table       one line an option: name, short, key, kind, arg, default,
 *                                 section, values (tab-separated)
 *   run_options_print help        `fsbench run --help`
 *   run_options_print man         every option the man page's RUN OPTIONS must name, as
 *                                 roff writes it (\-\-name, \-j), one a line
 *   run_options_print values      NAME<TAB>VALUE... for every option with values
 *   run_options_print completion  the completion's block of run's option values
 */
#include <stdio.h>
#include <string.h>

#include "cli/run_usage.h"
#include "run/run_request.h"

static const char *const kind_names[] = {
    [RUN_KIND_FLAG] = "flag",       [RUN_KIND_NUMBER] = "number", [RUN_KIND_DURATION] = "duration",
    [RUN_KIND_SIZE] = "size",       [RUN_KIND_ENUM] = "enum",     [RUN_KIND_LIST] = "list",
    [RUN_KIND_PATH] = "path",       [RUN_KIND_TEXT] = "text",     [RUN_KIND_CONSENT] = "consent",
};
static const char *const section_names[] = {
    [RUN_SEC_GENERAL] = "general", [RUN_SEC_TARGET] = "targets", [RUN_SEC_WORKLOAD] = "workloads",
    [RUN_SEC_REPLAY] = "replay",   [RUN_SEC_MPI] = "mpi",        [RUN_SEC_HIDDEN] = "hidden",
};

static void put_values(const struct run_option *o, const char *sep)
{
    for (size_t i = 0; o->values && o->values[i]; i++)
        printf("%s%s", i ? sep : "", o->values[i]);
}

static void print_table(void)
{
    for (const struct run_option *o = run_options; o->name; o++) {
        printf("--%s\t%s%c\t%s\t%s\t%s\t%s%s\t%s\t", o->name, o->short_name ? "-" : "",
               o->short_name ? o->short_name : '-', o->key ? o->key : "-", kind_names[o->kind],
               o->arg ? o->arg : "-", o->def ? o->def : "-",
               o->flags & RUN_OPT_DEF_SAID ? " (said)" : "", section_names[o->section]);
        put_values(o, ",");
        printf("\n");
    }
}

/* roff's "--name": every '-' escaped. */
static void put_roff(const char *dashes, const char *name)
{
    for (const char *p = dashes; *p; p++)
        printf("\\-");
    for (const char *p = name; *p; p++)
        printf(*p == '-' ? "\\-" : "%c", *p);
    printf("\n");
}

static void print_man(void)
{
    for (const struct run_option *o = run_options; o->name; o++) {
        if (o->section == RUN_SEC_HIDDEN)
            continue;
        put_roff("--", o->name);
        if (o->short_name) {
            char s[2] = {o->short_name, 0};
            put_roff("-", s);
        }
    }
}

static void print_values(void)
{
    for (const struct run_option *o = run_options; o->name; o++) {
        if (!o->values)
            continue;
        printf("--%s\t", o->name);
        put_values(o, " ");
        printf("\n");
    }
}

/* A number's value: nothing to offer, but no file names either. */
static bool is_number(const struct run_option *o)
{
    return !o->values && (o->kind == RUN_KIND_NUMBER || o->kind == RUN_KIND_DURATION ||
                          o->kind == RUN_KIND_SIZE);
}

static void print_completion(void)
{
    printf("# BEGIN run's option values: made from the table of run's options\n"
           "# (src/run/run_request_table.c) by `make completion-run`; t0013 checks it.\n"
           "# _fsbench_run_value OPTION: offers OPTION's values (none for a number); 1 when\n"
           "# the option is not one of these (a path, a list, a flag).\n"
           "_fsbench_run_value()\n"
           "{\n"
           "    case $1 in\n");
    for (const struct run_option *o = run_options; o->name; o++) {
        if (!o->values)
            continue;
        if (o->short_name)
            printf("    -%c | --%s) _fsbench_add ", o->short_name, o->name);
        else
            printf("    --%s) _fsbench_add ", o->name);
        put_values(o, " ");
        printf(" ;;\n");
    }
    const char *sep = "    ";
    size_t col = 4;
    for (const struct run_option *o = run_options; o->name; o++) {
        if (!is_number(o))
            continue;
        char word[80];
        int n = o->short_name ? snprintf(word, sizeof word, "-%c | --%s", o->short_name, o->name)
                              : snprintf(word, sizeof word, "--%s", o->name);
        if (col + strlen(sep) + (size_t)n > 92) {
            printf(" \\\n       ");
            col = 7;
            sep = " | ";
        }
        printf("%s%s", sep, word);
        col += strlen(sep) + (size_t)n;
        sep = " | ";
    }
    printf(") ;;\n"
           "    *) return 1 ;;\n"
           "    esac\n"
           "    return 0\n"
           "}\n"
           "# END run's option values\n");
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "table";
    if (!strcmp(what, "table"))
        print_table();
    else if (!strcmp(what, "help"))
        run_options_usage(stdout);
    else if (!strcmp(what, "man"))
        print_man();
    else if (!strcmp(what, "values"))
        print_values();
    else if (!strcmp(what, "completion"))
        print_completion();
    else {
        fprintf(stderr, "usage: run_options_print [table|help|man|values|completion]\n");
        return 2;
    }
    return 0;
}
