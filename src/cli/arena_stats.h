/* arena_stats: the statistics the arena prints for a match of N games:
 * the Wilson score interval of a win rate and the Elo difference it
 * implies, with the interval carried through the same transform; and the
 * sequential probability ratio test (SPRT) that decides, game pair after
 * game pair, whether a change is better (`arena --sprt`).
 *
 * Wilson rather than the normal approximation because ladder rungs sit
 * near 0% and 100%, where p +- 1.96 sqrt(p(1-p)/n) leaves [0, 1]. Pure
 * arithmetic, apart so the unit tests can check it against known values. */
#ifndef PG_CLI_ARENA_STATS_H
#define PG_CLI_ARENA_STATS_H

#include <stdbool.h>

typedef struct interval {
    double low, high;
} interval;

/* The 95% Wilson interval of `wins` successes in n trials (draws count as
 * half a win, so wins may end in .5). n > 0. */
interval wilson95(double wins, int n);

/* The Elo difference of a player scoring p (0..1): 400 log10(p / (1-p)),
 * +-INFINITY at 1 and 0. */
double elo_of(double p);

/* The SPRT as fishtest runs it (Michel Van den Bergh's generalized SPRT):
 * H0 "the Elo difference is elo0" against H1 "it is elo1" (logistic Elo),
 * with the per-sample score distribution estimated from the results and
 * approximated by a normal law, so
 *     LLR = N (s1 - s0) (2 mean - s0 - s1) / (2 var)
 * where s0, s1 are the expected scores under H0 and H1 and mean and var
 * those of the N samples. A sample is a pair of games played from the
 * same opening with colours swapped (pentanomial: its score 0, 1/4, 1/2,
 * 3/4 or 1) or, for the trinomial test, one game (0, 1/2 or 1). Pairing
 * removes the colour's advantage and most of the opening's luck from the
 * variance, which makes the test shorter. Bounds: accept H1 when
 * LLR >= log((1-beta)/alpha), H0 when LLR <= log(beta/(1-alpha)). */
typedef struct sprt_test {
    double elo0, elo1, alpha, beta;
} sprt_test;

typedef enum { SPRT_CONTINUE = 0, SPRT_H0, SPRT_H1 } sprt_verdict;

typedef struct sprt_state {
    double llr;                    /* log-likelihood ratio */
    double lower, upper;           /* the bounds */
    double score;                  /* mean score per game, 0..1 */
    double elo, elo_low, elo_high; /* the Elo difference, 95% normal interval */
    sprt_verdict verdict;
} sprt_state;

/* The expected score of the side elo points stronger (logistic Elo). */
double score_of_elo(double elo);

/* The test after `pairs` game pairs; counts[k] pairs scored k half-points
 * of 4 (k = 0..4: lost both .. won both). */
sprt_state sprt_pentanomial(const sprt_test *t, const long counts[5]);

/* The same with single games: counts[k] games scored k half-points of 2
 * (loss, jigo, win). */
sprt_state sprt_trinomial(const sprt_test *t, const long counts[3]);

/* A match's sequential test, pair after pair. The decision is taken the
 * first time the LLR crosses a bound with at least min_pairs counted, of
 * which at least min_unsplit were not split one game each, and it stands:
 * the pairs still being played when the match stops are counted in the
 * statistics (all the evidence, as fishtest counts them) but cannot undo
 * it, as a test whose stopping point depended on them would no longer
 * hold its error rates.
 *
 * Why unsplit pairs: where the colour decides most games (capture Go at
 * 40 ms splits nine pairs in ten), the first ten pairs are often all
 * split; their variance is then only the regularisation's, and the LLR
 * runs far past a bound on no evidence about which side is stronger
 * (an H0 at pair 10, LLR -180). Simulated with nine pairs in ten split
 * (bench/sprt_guard.c, which runs this very test), a player 30 Elo
 * stronger was then rejected about 40% of the time where beta promises
 * 5%; with five unsplit pairs required, about 4% (docs/BOT.md). */
#define SPRT_MIN_PAIRS 10
#define SPRT_MIN_UNSPLIT 5

typedef struct sprt_run {
    sprt_test test;
    long min_pairs;   /* SPRT_MIN_PAIRS in the arena */
    long min_unsplit; /* SPRT_MIN_UNSPLIT in the arena */
    long pairs[5];         /* pairs by A's score in half-points, 0..4 */
    sprt_state now;        /* over every pair counted */
    sprt_verdict decision; /* SPRT_CONTINUE until a bound was crossed */
    long decided_at;       /* the pairs counted at that crossing, else 0 */
    double decided_llr;    /* the LLR then */
} sprt_run;

/* A run of test t with the arena's rule: no decision before
 * SPRT_MIN_PAIRS pairs, SPRT_MIN_UNSPLIT of them not split. */
sprt_run sprt_run_start(sprt_test t);

/* The number of pairs run has counted. */
long sprt_run_pairs(const sprt_run *run);

/* Counts a pair in which A scored half_points of 4 (0..4); true once the
 * test has decided (at this pair or before). */
bool sprt_run_add_pair(sprt_run *run, int half_points);

#endif
