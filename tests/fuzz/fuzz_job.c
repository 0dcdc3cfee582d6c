/* fuzz_job.c — libFuzzer target: the job-file reader with includes. The input is split at
 * each line "%%%" into up to four files, a.ini (the job file) and inc1.ini .. inc3.ini, so
 * the fuzzer can write includes, nested includes and cycles between them; a.ini is then
 * parsed with the real key table of `fsbench run` (its consent keys and path keys too,
 * not its value checks, which would run the option parser), and when it loads, every job's
 * argument list is built and the command line's options are folded into its text. */
#include "fuzz_util.h"
#include "run/run_request.h"
#include "run/job.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"a.ini", "inc1.ini", "inc2.ini", "inc3.ini"};
    static char paths[4][128];
    size_t start = 0, nfiles = 0;
    for (size_t i = 0; nfiles < 4; i++) {
        bool sep =
            i + 4 <= size && !memcmp(data + i, "%%%\n", 4) && (i == 0 || data[i - 1] == '\n');
        if (i < size && !sep)
            continue;
        snprintf(paths[nfiles], sizeof paths[0], "%s",
                 fuzz_file(names[nfiles], data + start, i - start));
        nfiles++;
        if (i >= size)
            break;
        start = i + 4;
        i += 3;
    }
    const struct job_keys keys = *run_options_job_keys();
    struct job_file jf;
    if (job_parse(paths[0], NULL, &keys, &jf) == 0) {
        static const char *const skip[] = {"runs", "dir", NULL};
        for (size_t i = 0; i < job_count(&jf); i++) {
            struct job_arg *a;
            int n = job_args(&jf, i, &keys, skip, &a);
            if (n >= 0)
                job_args_free(a, n);
            (void)job_name(&jf, i);
            (void)job_description(&jf, i);
        }
        const char *fold[] = {"runs", "mount-opts", "fsync-dir"};
        const char *vals[] = {"2", "noatime", NULL};
        job_fold(&jf, fold, vals, 3);
        job_free(&jf);
    }
    for (size_t i = 0; i < nfiles; i++)
        unlink(paths[i]);
    return 0;
}
