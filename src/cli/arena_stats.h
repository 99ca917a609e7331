/* arena_stats: the statistics the arena prints for a match of N games:
 * the Wilson score interval of a win rate and the Elo difference it
 * implies, with the interval carried through the same transform.
 *
 * Wilson rather than the normal approximation because ladder rungs sit
 * near 0% and 100%, where p +- 1.96 sqrt(p(1-p)/n) leaves [0, 1]. Pure
 * arithmetic, apart so the unit tests can check it against known values. */
#ifndef PG_CLI_ARENA_STATS_H
#define PG_CLI_ARENA_STATS_H

typedef struct interval {
    double low, high;
} interval;

/* The 95% Wilson interval of `wins` successes in n trials (draws count as
 * half a win, so wins may end in .5). n > 0. */
interval wilson95(double wins, int n);

/* The Elo difference of a player scoring p (0..1): 400 log10(p / (1-p)),
 * +-INFINITY at 1 and 0. */
double elo_of(double p);

#endif
