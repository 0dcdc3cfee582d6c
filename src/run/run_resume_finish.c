/* run_resume_finish.c — `fsbench run --resume LABEL` finished (run_resume.h): the stored
 * set loaded, its stored arguments made an argument list again (with what this command
 * line adds, less every consent option: strip_consent), run in the directory they ran in, with the set
 * to finish made known to the run (run_resuming()). */
#include "run/run_resume.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "run/run_request.h"

/* Takes the consent options out of argv (argc entries, argv[0] "run"; the stored arguments:
 * a set never stores them, so they were put there by hand), each said in a warning. The
 * new count. */
static int strip_consent(int argc, char **argv)
{
    bool drop[RES_ARGS_MAX / 2 + 2] = {false};
    if ((size_t)argc > sizeof drop / sizeof drop[0])
        return argc;
    struct run_args it;
    struct run_arg a;
    run_args_begin(&it, argc, argv);
    while (run_args_next(&it, &a)) {
        /* by the option's kind: every consent, whatever its name */
        if (!a.opt || a.opt->kind != RUN_KIND_CONSENT)
            continue;
        for (int k = a.from; k < a.to; k++) {
            drop[k] = true;
            warning("--resume: the stored arguments hold '%s': left out (consent comes from "
                    "the command line alone)",
                    argv[k]);
        }
    }
    run_args_end(&it);
    int n = 0;
    for (int i = 0; i < argc; i++) {
        if (drop[i])
            free(argv[i]);
        else
            argv[n++] = argv[i];
    }
    argv[n] = NULL;
    return n;
}

const char *run_resume_absolute(const char *path, char *buf, size_t len)
{
    char cwd[4096];
    if (!path || !strcmp(path, "-") || path[0] == '/' || !getcwd(cwd, sizeof cwd))
        return path;
    snprintf(buf, len, "%s/%s", cwd, path);
    return buf;
}

/* The stored arguments into a new argv: "run", them, then extra[] (NULL-ended), less the
 * consent options (strip_consent). */
static char **build_argv(const char *json, const char *const *extra, int *argc)
{
    json_error_t je;
    json_t *a = json_loads(json, 0, &je);
    if (!json_is_array(a)) {
        json_decref(a);
        error("--resume: the stored arguments are damaged");
        return NULL;
    }
    size_t n = json_array_size(a), nx = 0;
    while (extra[nx])
        nx++;
    char **v = calloc(n + nx + 2, sizeof *v);
    int k = 0;
    if (v) {
        v[k++] = strdup("run");
        for (size_t i = 0; i < n; i++) {
            const char *s = json_string_value(json_array_get(a, i));
            v[k++] = strdup(s ? s : "");
        }
        for (size_t i = 0; i < nx; i++)
            v[k++] = strdup(extra[i]);
    }
    json_decref(a);
    for (int i = 0; v && i < k; i++)
        if (!v[i]) {
            for (int j = 0; j < k; j++)
                free(v[j]);
            free(v);
            v = NULL;
        }
    if (!v)
        error("out of memory");
    else
        k = strip_consent(k, v);
    *argc = k;
    return v;
}

/* Whether the set holds every run it planned (its failed configurations' rounds aside). */
int run_resume_finish(const char *label, const char *db, const char *const *extra,
                      const struct run_resume_args *how)
{
    struct store_set_info info;
    struct run_set *set = NULL;
    size_t kept = 0;
    int rc = run_resume_load(label, db, &set, &info, &kept);
    if (rc != RUN_RESUME_GO)
        return rc;
    int argc;
    char **argv = build_argv(set->args, extra, &argc);
    rc = argv ? EXIT_OK : EXIT_RUN_FAILED;
    if (rc == EXIT_OK && set->cwd[0] && chdir(set->cwd) < 0) {
        error_errno("--resume: cannot go to %s, where '%s' was run", set->cwd, label);
        rc = EXIT_RUN_FAILED;
    }
    if (rc == EXIT_OK) {
        inform("resuming '%s' (%s): %zu of %u runs made; making the rest", label, info.state, kept,
               info.planned);
        run_resume_set(set, info.id);
        rc = how->run(argc, argv);
        run_resume_set(NULL, 0);
    }
    for (int i = 0; argv && i < argc; i++)
        free(argv[i]);
    free(argv);
    run_set_free(set);
    free(set);
    return rc;
}

