/* cli_options_print.c — prints every command's option table (src/cli/cli_options.c; run's
 * is run_options_print's) one option a line, so that a test
 * (tests/e2e/t0014-command-options.sh) fails when a command's --help, its part of the man
 * page or the bash completion drifts from the options the command accepts.
 *
 *   cli_options_print            COMMAND<TAB>OPTION<TAB>value|flag, OPTION as --name or -x
 *   cli_options_print commands   the commands, one a line ("tree capture": words by spaces)
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_options.h"

int main(int argc, char **argv)
{
    bool commands = argc == 2 && !strcmp(argv[1], "commands");
    if (argc > 1 && !commands) {
        fprintf(stderr, "usage: cli_options_print [commands]\n");
        return 2;
    }
    for (const struct cli_opts *const *t = cli_opts_all; *t; t++) {
        const struct cli_opts *c = *t;
        if (commands) {
            printf("%s\n", c->command);
            continue;
        }
        for (const struct option *o = c->longopts; o->name; o++)
            printf("%s\t--%s\t%s\n", c->command, o->name,
                   o->has_arg == no_argument ? "flag" : "value");
        for (const char *s = c->shortopts; *s; s++)
            if (*s != ':' && *s != '+')
                printf("%s\t-%c\t%s\n", c->command, *s, s[1] == ':' ? "value" : "flag");
    }
    return 0;
}
