#include "cli/cli.h"
int cmd_bisect(int argc, char **argv) { (void)argc; (void)argv; return 2; }
