/* set_csv.c — a run set as CSV (fsbench export --csv): one row per run and phase, each
 * figure to the precision it was measured with (see set_csv.h). */
#include "results/set_csv.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/csv.h"
#include "results/resjson.h"

/* A figure to the precision it was measured with and no further: times (seconds, taken
 * in nanoseconds) to 9 decimals, rates to 9 significant digits, trailing zeros dropped, so
 * the binary noise of the seconds' arithmetic (0.05227699999999999) is not printed as if it
 * were measured (0.052277). */
static void csv_figure(FILE *f, double v, bool na, bool seconds)
{
    fputc(',', f);
    if (na || !isfinite(v))
        return;
    char buf[64];
    snprintf(buf, sizeof buf, seconds ? "%.9f" : "%.9g", v);
    if (strchr(buf, '.') && !strpbrk(buf, "eE")) {
        size_t n = strlen(buf);
        while (n > 0 && buf[n - 1] == '0')
            buf[--n] = '\0';
        if (n > 0 && buf[n - 1] == '.')
            buf[--n] = '\0';
    }
    fputs(buf, f);
}

static void csv_seconds(FILE *f, double v, bool na)
{
    csv_figure(f, v, na, true);
}

static void csv_rate(FILE *f, double v, bool na)
{
    csv_figure(f, v, na, false);
}

static void csv_u64(FILE *f, uint64_t v, bool na)
{
    fputc(',', f);
    if (!na)
        fprintf(f, "%" PRIu64, v);
}

static const char *const csv_header =
    "label,config,run,round,warmup,phase,status,wall_s,user_s,sys_s,ops_total,ops_per_s,"
    "bytes_read,bytes_written,mb_per_s,files,dirs,dev_reads,dev_writes,dev_sectors_read,"
    "dev_sectors_written\n";

/* A run's configuration for the CSV: its own name, else (a set of one configuration) the
 * one the set declared, else the file system it ran on, so the column is never empty. */
static const char *csv_config(const struct run_set *rs, const struct run_result *r)
{
    static char one[RES_NAME_MAX];
    if (r->config[0])
        return r->config;
    size_t n = strcspn(rs->target.configs, "\n");
    if (n > 0 && n < sizeof one) {
        memcpy(one, rs->target.configs, n);
        one[n] = '\0';
        return one;
    }
    return rs->target.fstype;
}

/* One row per (run, phase). Runs and rounds count from 1, as everywhere else. A skipped phase measured nothing: its figures are empty, as
 * are derived rates without a positive wall time and device counters without a device. */
void set_csv_write(FILE *f, const struct run_set *rs)
{
    static const char *const status[] = {"ok", "skipped", "failed"};
    fputs(csv_header, f);
    for (size_t i = 0; i < rs->nruns; i++) {
        const struct run_result *r = &rs->runs[i];
        for (size_t j = 0; j < r->nphases; j++) {
            const struct phase_result *p = &r->phases[j];
            bool na = p->status == PHASE_SKIPPED, nodev = na || !p->dev.valid;
            csv_put_field(f, rs->label);
            fputc(',', f);
            csv_put_field(f, csv_config(rs, r));
            fprintf(f, ",%u,%u,%d,", r->index + 1, r->round + 1, r->warmup ? 1 : 0);
            csv_put_field(f, p->name);
            fputc(',', f);
            fputs(status[(unsigned)p->status < 3 ? p->status : PHASE_FAILED], f);
            csv_seconds(f, p->wall_s, na);
            csv_seconds(f, p->user_s, na);
            csv_seconds(f, p->sys_s, na);
            csv_u64(f, p->ops_total, na);
            csv_rate(f, resjson_ops_per_s(p), na);
            csv_u64(f, p->bytes_read, na);
            csv_u64(f, p->bytes_written, na);
            csv_rate(f, resjson_mb_per_s(p), na);
            csv_u64(f, p->files, na);
            csv_u64(f, p->dirs, na);
            csv_u64(f, p->dev.rd_ios, nodev);
            csv_u64(f, p->dev.wr_ios, nodev);
            csv_u64(f, p->dev.rd_sectors, nodev);
            csv_u64(f, p->dev.wr_sectors, nodev);
            fputc('\n', f);
        }
    }
}
