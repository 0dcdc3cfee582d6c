/* median_ci.c — distribution-free interval of a median (see median_ci.h). */
#include "stats/median_ci.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* P(Bin(n, 1/2) <= k), summed in log space so that large n cannot underflow a term. */
static double binom_half_cdf(size_t n, size_t k)
{
    double sum = 0, ln2n = (double)n * log(2.0);
    for (size_t i = 0; i <= k && i <= n; i++)
        sum += exp(lgamma((double)n + 1) - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) -
                   ln2n);
    return sum;
}

int stats_median_ci(const double *x, size_t n, double confidence, struct stats_median_ci *out)
{
    if (n == 0)
        return -1;
    double *v = malloc(n * sizeof *v);
    if (!v)
        return -1;
    memcpy(v, x, n * sizeof *v);
    qsort(v, n, sizeof *v, cmp_double);
    out->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    /* k = 1 is the whole range; widen inward while the coverage stays enough */
    size_t k = 1;
    double cov = 1 - 2 * binom_half_cdf(n, 0);
    while (k + 1 <= (n + 1) / 2) {
        double c = 1 - 2 * binom_half_cdf(n, k);
        if (c < confidence)
            break;
        k++;
        cov = c;
    }
    out->reached = cov >= confidence;
    out->coverage = n == 1 ? 0 : cov;
    out->lo = v[k - 1];
    out->hi = v[n - k];
    free(v);
    return 0;
}
