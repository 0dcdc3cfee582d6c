/* stall.c — stalls from a progress time line (see stall.h). */
#include "measure/stall.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Median of the intervals' rates (ops/s) into *rate and of their lengths into *dt; -1
 * when out of memory. */
static int medians(const struct timeline_point *p, size_t len, double *rate, double *dt)
{
    double *r = malloc(2 * (len - 1) * sizeof *r);
    if (!r)
        return -1;
    double *d = r + (len - 1);
    size_t n = 0;
    for (size_t i = 0; i + 1 < len; i++) {
        double t = p[i + 1].t - p[i].t;
        if (t > 0) {
            r[n] = (double)(p[i + 1].ops - p[i].ops) / t;
            d[n++] = t;
        }
    }
    *rate = median_of(r, n);
    *dt = median_of(d, n);
    free(r);
    return 0;
}

struct stall_limits {
    double median, rate, dt;
};

/* Whether the interval a..b is part of a stall. A sample more than two intervals late
 * means the sampler itself did not run (the process was stopped, or the machine was):
 * then if its progress fits in about one interval at the median rate, the rest of the
 * span had none, whatever the average over the span says. */
static bool slow(const struct timeline_point *a, const struct timeline_point *b,
                 const struct stall_limits *l)
{
    double dt = b->t - a->t;
    uint64_t d = b->ops >= a->ops ? b->ops - a->ops : 0;
    if (d == 0 || (dt > 0 && (double)d / dt < l->rate))
        return true;
    return dt > 2 * l->dt && (double)d <= 2 * l->median * l->dt;
}

static uint64_t grown(uint64_t a, uint64_t b)
{
    return b >= a ? b - a : 0;
}

int stall_find(const struct timeline_point *p, size_t len, bool dev, double min_s, double rel,
               struct stall **out, size_t *nout)
{
    *out = NULL;
    *nout = 0;
    if (len < 2 || p[len - 1].ops < STALL_MIN_OPS)
        return 0;
    struct stall_limits lim;
    if (medians(p, len, &lim.median, &lim.dt) < 0)
        return error("out of memory");
    lim.rate = lim.median * rel;
    size_t cap = 0;
    size_t i = 0;
    while (i + 1 < len) {
        if (!slow(&p[i], &p[i + 1], &lim)) {
            i++;
            continue;
        }
        size_t k = i + 1; /* the stall spans points i..k */
        while (k + 1 < len && slow(&p[k], &p[k + 1], &lim))
            k++;
        double length = p[k].t - p[i].t;
        if (length >= min_s) {
            if (*nout == cap) {
                cap = cap ? cap * 2 : 4;
                struct stall *s = realloc(*out, cap * sizeof *s);
                if (!s) {
                    free(*out);
                    *out = NULL;
                    *nout = 0;
                    return error("out of memory");
                }
                *out = s;
            }
            struct stall *s = &(*out)[(*nout)++];
            memset(s, 0, sizeof *s);
            s->start_s = p[i].t;
            s->length_s = length;
            s->ops = grown(p[i].ops, p[k].ops);
            if (dev) {
                s->dev_rd_sectors = grown(p[i].dev_rd_sectors, p[k].dev_rd_sectors);
                s->dev_wr_sectors = grown(p[i].dev_wr_sectors, p[k].dev_wr_sectors);
                s->dev_busy_ms = grown(p[i].dev_busy_ms, p[k].dev_busy_ms);
                for (size_t j = i; j <= k; j++)
                    if (p[j].dev_inflight > s->dev_inflight_max)
                        s->dev_inflight_max = p[j].dev_inflight;
            }
        }
        i = k;
    }
    return 0;
}

bool stall_device_busy(const struct stall *s)
{
    return (double)s->dev_busy_ms >= s->length_s * 1000 / 5;
}
