/* run_session.c — one run set from its start to its end: naming, the store, saving each
 * run as it finishes, the spool, resume (see run_session.h). */
#include "run/run_session.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/err.h"
#include "base/outcheck.h"
#include "base/text.h"
#include "phase/phase.h"
#include "phase/workload.h"
#include "results/spool.h"
#include "run/age_steps.h"
#include "run/run_resume.h"
#include "run/run_store.h"
#include "target/target.h"

/* Between runs, runs that wait in the spool get a moment to join the store, not the full
 * wait (the next run should not wait a minute for a lock that is still held). */
#define SPOOL_RETRY_MS 1000

static int on_set_ready(void *arg, struct run_set *rs)
{
    struct run_session *s = arg;
    /* Record the declared order of configurations: compare's baseline is the first. */
    size_t used = 0;
    for (size_t i = 0; i < s->ro->nconfigs; i++) {
        int n = snprintf(rs->target.configs + used, sizeof rs->target.configs - used, "%s%s",
                         i ? "\n" : "", s->ro->configs[i].name);
        if (n < 0 || (size_t)n >= sizeof rs->target.configs - used)
            break;
        used += (size_t)n;
    }
    if (s->o->resume) {
        /* the stored set's creation time: runs that wait in the spool find their set by it */
        rs->created = s->o->resume->created;
        if (run_resume_ready(s->store, s->o->resume_id, s->o->resume, rs) < 0)
            return -1;
    }
    if (!s->store || s->o->resume)
        return 0;
    s->set_id = store_begin_set(s->store, rs);
    return s->set_id < 0 ? -1 : 0;
}

/* Empties the spool into the store, waiting at most wait_ms for the lock. */
static void retry_spool(struct run_session *s, unsigned wait_ms)
{
    unsigned added = 0, left = 0;
    store_set_lock_wait(s->store, wait_ms);
    spool_flush(s->store, s->db, &added, &left);
    store_set_lock_wait(s->store, store_lock_wait_ms());
    s->saved += added;
    s->waiting = left;
}

static int on_run_done(void *arg, const struct run_set *rs, const struct run_result *run)
{
    struct run_session *s = arg;
    struct cb_summary cb;
    char cbtext[4096];
    if (s->cb_out && compilebench_last(&cb) == 0 &&
        compilebench_format_original(&cb, cbtext, sizeof cbtext) >= 0) {
        fputs(cbtext, s->cb_out);
        fflush(s->cb_out);
    }
    if (s->steps_out)
        age_steps_say(s->steps_out, run);
    if (!s->store || s->set_id <= 0)
        return 0;
    if (s->waiting)
        retry_spool(s, SPOOL_RETRY_MS);
    /* while runs wait, the store is still locked: this one waits with them */
    int rc = s->waiting ? STORE_BUSY : store_add_run(s->store, s->set_id, run);
    if (rc == 0 && run->interrupted)
        s->partial = true; /* kept to be seen; --resume runs it again */
    else if (rc == 0)
        s->saved++;
    if (rc != STORE_BUSY)
        return rc;
    if (spool_put(s->db, s->set_id, rs, run) < 0)
        return -1;
    if (!s->waiting) {
        char dir[4200];
        warning("the results store %s is locked by another process (waited %.0f s): run %u "
                "waits in %s until it is free; the set goes on",
                s->db, store_lock_wait_ms() / 1000.0, run->index + 1,
                spool_dir(s->db, dir, sizeof dir));
    }
    s->waiting++;
    return 0;
}

static void join_argv(char *buf, size_t len, int argc, char **argv)
{
    size_t used = (size_t)snprintf(buf, len, "fsbench");
    for (int i = 0; i < argc && used + 1 < len; i++) {
        int n = snprintf(buf + used, len - used, " %s", argv[i]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

/* Names and describes rs from o. 0, or EXIT_USAGE after error(). */
static int describe(struct run_set *rs, const struct run_session_opts *o,
                    const struct runner_opts *ro)
{
    snprintf(rs->scenario, sizeof rs->scenario, "%s", o->scenario);
    join_argv(rs->command_line, sizeof rs->command_line, o->argc, o->argv);
    if (o->job_text) {
        if (strlen(o->job_text) >= sizeof rs->job_text)
            return error("the job file is over %zu bytes expanded: too long to store with "
                         "the results", sizeof rs->job_text - 1), EXIT_USAGE;
        snprintf(rs->job_text, sizeof rs->job_text, "%s", o->job_text);
        snprintf(rs->job_hash, sizeof rs->job_hash, "%s", o->job_hash);
    }
    if (o->label) {
        snprintf(rs->label, sizeof rs->label, "%s", o->label);
    } else {
        time_t now = time(NULL);
        char stamp[32];
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", localtime(&now));
        snprintf(rs->label, sizeof rs->label, "%s-%s", rs->scenario, stamp);
    }
    if (o->nmeta)
        memcpy(rs->meta, o->meta, o->nmeta * sizeof rs->meta[0]);
    rs->nmeta = o->nmeta;
    run_resume_describe(rs, o->args_json, ro);
    return 0;
}

/* Opens the store to write and claims rs's label (the next free one when the label is of
 * our own making). 0, or the exit status after error(). */
static int open_store(struct run_session *s, struct run_set *rs)
{
    const struct run_session_opts *o = s->o;
    char path[4096];
    const char *db = o->db;
    if (!db) {
        if (store_default_path(path, sizeof path) < 0)
            return error("cannot find a place for the results store (set HOME, or use "
                         "--db FILE or --no-save)"), EXIT_RUN_FAILED;
        db = path;
    }
    if (o->json && store_check_output(db, o->json, "--json") < 0)
        return EXIT_USAGE;
    s->store = run_store_open_write(db);
    if (!s->store)
        return EXIT_RUN_FAILED;
    /* a label names one set: an existing one is finished with --resume, never added to
     * (the store refuses it too, should another process take it meanwhile) */
    int has = o->resume ? 0 : store_label_exists(s->store, rs->label);
    for (unsigned k = 2; has > 0 && !o->label && k < 1000; k++) {
        /* a name of our own making: the next free one */
        char base[RES_NAME_MAX];
        snprintf(base, sizeof base, "%s", rs->label);
        char *dash = k > 2 ? strrchr(base, '-') : NULL;
        if (dash)
            *dash = '\0';
        snprintf(rs->label, sizeof rs->label, "%.*s-%u", RES_NAME_MAX - 8, base, k);
        has = store_label_exists(s->store, rs->label);
    }
    if (has != 0) {
        store_close(s->store);
        s->store = NULL;
        if (has > 0)
            error("--label: a run set labelled '%s' exists already: finish it with "
                  "'fsbench run --resume %s', or choose another label ('fsbench runs "
                  "--labels' lists those in use)",
                  rs->label, rs->label);
        return has > 0 ? EXIT_USAGE : EXIT_RUN_FAILED;
    }
    snprintf(s->db, sizeof s->db, "%s", db);
    return 0;
}

int run_session_begin(struct run_session *s, struct runner_opts *ro,
                      const struct run_session_opts *o, struct run_set *rs)
{
    *s = (struct run_session){.o = o, .ro = ro, .set_id = o->resume ? o->resume_id : 0};
    /* --resume of interleaved jobs (o->run): one set only here; the others were checked
     * before their pre-flight */
    if (o->resume && o->run && run_resume_check_plan(o->resume, ro, false) < 0)
        return EXIT_USAGE;
    int rc = describe(rs, o, ro);
    if (rc)
        return rc;
    if (o->save && (rc = open_store(s, rs)))
        return rc;
    /* what a destroyed device held cannot come back: say which one, before it goes */
    if (ro->tspec && ro->tspec->device)
        inform("mkfs will overwrite %s: everything on it is lost (--destroy-data given on the "
               "command line)", ro->tspec->device);
    ro->set_ready = on_set_ready;
    ro->run_done = on_run_done;
    ro->arg = s;
    if (o->resume) {
        run_resume_adopt(rs, o->resume, ro);
        s->saved = (unsigned)rs->nruns; /* the set's runs already stored */
    }
    return 0;
}

int run_session_run(struct run_session *s, struct runner_opts *ro, struct run_set *rs,
                    struct runner_auto *ra)
{
    return s->o->run ? s->o->run(s->o->run_arg, ro, rs, ra) : runner_run(ro, rs, ra);
}

void run_session_end(struct run_session *s, const struct run_set *rs, int rc)
{
    if (!s->store)
        return;
    /* runs that waited get the full wait now: the set is done */
    if (s->waiting)
        retry_spool(s, store_lock_wait_ms());
    /* the set's state; with runs still in the spool the store is locked: the set stays
     * "running" by a process that is gone, which reads as interrupted, and --resume
     * finishes it once they joined */
    if (s->set_id > 0 && !s->waiting)
        run_resume_end(s->store, s->set_id, s->ro, rs, rc);
}

int run_session_close(struct run_session *s, const struct run_set *rs)
{
    if (!s->store)
        return 0;
    int rc = 0;
    if (s->waiting) {
        char dir[4200];
        error("the results store %s stayed locked by another process: %u run%s of '%s' "
              "wait%s in %s and join%s the set when fsbench next opens the store to write "
              "(%u saved)",
              s->db, s->waiting, s->waiting == 1 ? "" : "s", rs->label,
              s->waiting == 1 ? "s" : "", spool_dir(s->db, dir, sizeof dir),
              s->waiting == 1 ? "s" : "", s->saved);
        rc = -1;
    }
    store_close(s->store);
    s->store = NULL;
    return rc;
}

int run_session_check_label(const char *label)
{
    char why[128];
    if (label && (!*label || strlen(label) >= RES_NAME_MAX))
        return error("--label: must be 1 to %d characters", RES_NAME_MAX - 1), EXIT_USAGE;
    if (label && text_check_name(label, why, sizeof why) < 0)
        return error("--label: '%s' %s: choose another", label, why), EXIT_USAGE;
    return 0;
}

int run_session_make(struct runner_opts *ro, const struct run_session_opts *o,
                     const struct run_bisect_ask *ask, const struct run_session_report *rep)
{
    struct run_set rs = {0};
    /* a bisection's candidate: its ends loaded and the round hook set before the set starts */
    struct run_bisect bisect, *bis = NULL;
    if (ask && run_bisect_asked(ask)) {
        int brc = run_bisect_begin(&bisect, ask, o->db, ro);
        if (brc) {
            run_bisect_free(&bisect);
            return brc;
        }
        bis = &bisect;
    }
    struct run_session ss;
    int rc = run_session_begin(&ss, ro, o, &rs);
    if (rc) {
        if (bis)
            run_bisect_free(bis);
        return rc;
    }
    ss.cb_out = rep->cb_out;
    ss.steps_out = rep->steps_out;
    struct runner_auto ra;
    rc = run_session_run(&ss, ro, &rs, &ra);
    int run_rc = rc;
    rc = rep->runs_done(rep->arg, ro, &rs, &ra, rc, bis);
    char kept[RES_NAME_MAX + 64] = "";
    if (ss.store) {
        run_session_end(&ss, &rs, run_rc);
        if (ss.saved > 0 || ss.partial)
            rep->saved(rep->arg, &rs, ss.saved, ss.partial);
        if (ss.saved > 0)
            snprintf(kept, sizeof kept, "the %u run%s %s saved as '%s'", ss.saved,
                     ss.saved == 1 ? "" : "s", ss.saved == 1 ? "is" : "are", rs.label);
        if (run_session_close(&ss, &rs) < 0)
            rc = -1;
    }
    /* a closed or full standard output is said now, with what is kept; the exit status
     * (main's check) says it too, but a job file's later jobs still run */
    outcheck_stdout(kept);
    if (bis)
        run_bisect_free(bis);
    run_set_free(&rs);
    return rc != 0 ? EXIT_RUN_FAILED : EXIT_OK;
}
