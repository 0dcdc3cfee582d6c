/* cpsim.h — series of labels with known change points, for the change-point tests and
 * bench/history: each label's runs drawn with a coefficient of variation, a lag-1
 * autocorrelation between consecutive runs, a label-level effect (the whole set slower or
 * faster: a busy night) and occasional large whole-set shifts, and optionally one step. */
#ifndef FSBENCH_CPSIM_H
#define FSBENCH_CPSIM_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

struct cpsim {
    uint64_t state;
};

static inline uint64_t cpsim_u64(struct cpsim *g)
{
    uint64_t z = (g->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline double cpsim_unif(struct cpsim *g)
{
    return ((double)(cpsim_u64(g) >> 11) + 0.5) / 9007199254740992.0;
}

static inline double cpsim_normal(struct cpsim *g)
{
    double u = cpsim_unif(g), v = cpsim_unif(g);
    return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

struct cpsim_spec {
    size_t labels, runs;
    double cov;         /* of the runs inside a label */
    double r1;          /* lag-1 autocorrelation of consecutive runs */
    double tau;         /* sd of the label-level effect (log scale) */
    double shift_prob;  /* chance that a label is shifted as a whole */
    double shift;       /* by this much either way (0.15: 15 %) */
    size_t step_at;     /* first label after the step; 0: none */
    double step;        /* 0.10: 10 % slower from step_at on */
};

/* Fills x[label * runs + run] (values around 1 s). */
static inline void cpsim_series(struct cpsim *g, const struct cpsim_spec *s, double *x)
{
    double sigma = sqrt(log(1 + s->cov * s->cov));
    for (size_t i = 0; i < s->labels; i++) {
        double level = s->tau * cpsim_normal(g);
        if (cpsim_unif(g) < s->shift_prob)
            level += (cpsim_unif(g) < 0.5 ? -1 : 1) * log(1 + s->shift);
        if (s->step_at && i >= s->step_at)
            level += log(1 + s->step);
        double e = cpsim_normal(g);
        for (size_t j = 0; j < s->runs; j++) {
            if (j)
                e = s->r1 * e + sqrt(1 - s->r1 * s->r1) * cpsim_normal(g);
            x[i * s->runs + j] = exp(level + sigma * e);
        }
    }
}

#endif
