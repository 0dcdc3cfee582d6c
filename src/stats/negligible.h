/* negligible.h — the one floor below which a phase's time is too short to judge.
 *
 * A phase whose headline (median) time is below the floor neither gets nor blocks a verdict:
 * compare, the run's summary and --runs until-verdict report it as negligible. The floor is
 * --negligible SECONDS (default STATS_NEGLIGIBLE_DEFAULT_S); 0 turns the rule off.
 */
#ifndef FSBENCH_STATS_NEGLIGIBLE_H
#define FSBENCH_STATS_NEGLIGIBLE_H

#include <stdbool.h>

#define STATS_NEGLIGIBLE_DEFAULT_S 0.001

/* True when both sides' median times are below floor_s (floor_s <= 0: never). */
static inline bool stats_negligible(double median_a_s, double median_b_s, double floor_s)
{
    return floor_s > 0 && median_a_s < floor_s && median_b_s < floor_s;
}

#endif
