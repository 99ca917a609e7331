/* sprt_guard: the error rates of the arena's SPRT, simulated.
 *
 *     make build/sprt-guard && build/sprt-guard [SEED] [TESTS]   (defaults 1, 300)
 *
 * The arena's sequential test (src/cli/arena_stats.c) estimates the
 * variance of a pair's score from the pairs themselves. Where the colour
 * decides most games, most pairs split one game each, and a short run of
 * split pairs has almost no variance: the LLR then crosses a bound on no
 * evidence. This program runs the arena's own test (sprt_run_add_pair, elo0
 * 0 against elo1 30, alpha = beta = 0.05) on invented pair outcomes (a share
 * of the pairs split, the others won or lost both in the proportion that
 * gives the true Elo difference) and prints, as a Markdown table, how often
 * each stopping rule accepts H1 and H0 and after how many pairs: the
 * arena's minimum of pairs alone, and with SPRT_MIN_UNSPLIT (or twice as
 * many) pairs not split. docs/BOT.md ("Testing a change: the SPRT") quotes
 * its numbers. `make test` builds it (so it compiles with -Werror) but
 * does not run it. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/arena_stats.h"
#include "engine/rng.h"

#define MAX_PAIRS 1000

/* Pairs by A's score in half-points (0..4): split with probability split,
 * the rest won both by A with the share that gives A the score of elo. */
static void pair_distribution(double elo, double split, double dist[5]) {
    double won = (score_of_elo(elo) - 0.5 * split) / (1 - split);
    dist[0] = (1 - split) * (1 - won);
    dist[1] = dist[3] = 0;
    dist[2] = split;
    dist[4] = (1 - split) * won;
}

static int draw_pair(const double dist[5], rng *r) {
    double x = (double)rng_next32(r) / 4294967296.0;
    for (int k = 0; k < 4; k++) {
        if (x < dist[k]) return k;
        x -= dist[k];
    }
    return 4;
}

/* One test to its verdict or MAX_PAIRS; *pairs_out the pairs it took. */
static sprt_verdict one_test(const double dist[5], long min_unsplit, rng *r, long *pairs_out) {
    sprt_run run = sprt_run_start((sprt_test){ 0, 30, 0.05, 0.05 });
    run.min_unsplit = min_unsplit;
    while (sprt_run_pairs(&run) < MAX_PAIRS)
        if (sprt_run_add_pair(&run, draw_pair(dist, r))) break;
    *pairs_out = sprt_run_pairs(&run);
    return run.decision;
}

int main(int argc, char **argv) {
    rng r;
    rng_seed(&r, argc > 1 ? strtoull(argv[1], NULL, 10) : 1);
    int tests = argc > 2 ? atoi(argv[2]) : 300;
    if (tests <= 0) {
        fputs("usage: sprt-guard [SEED] [TESTS > 0]\n", stderr);
        return 2;
    }
    static const double splits[] = { 0.5, 0.9 }, elos[] = { 0, 30 };
    static const long unsplit_rules[] = { 0, SPRT_MIN_UNSPLIT, 2 * SPRT_MIN_UNSPLIT };
    printf("| pairs split | true Elo | rule | H1 | H0 | none | mean pairs |\n");
    printf("|---|---|---|---|---|---|---|\n");
    for (int s = 0; s < 2; s++)
        for (int e = 0; e < 2; e++) {
            double dist[5];
            pair_distribution(elos[e], splits[s], dist);
            for (int u = 0; u < 3; u++) {
                long verdicts[3] = { 0, 0, 0 }, pairs_sum = 0;
                for (int t = 0; t < tests; t++) {
                    long pairs;
                    verdicts[one_test(dist, unsplit_rules[u], &r, &pairs)]++;
                    pairs_sum += pairs;
                }
                printf("| %.0f%% | %+.0f | %d pairs, %ld unsplit | %.3f | %.3f | %.3f | %.0f |\n", 100 * splits[s],
                       elos[e], SPRT_MIN_PAIRS, unsplit_rules[u], (double)verdicts[SPRT_H1] / tests,
                       (double)verdicts[SPRT_H0] / tests, (double)verdicts[SPRT_CONTINUE] / tests,
                       (double)pairs_sum / tests);
            }
        }
    return 0;
}
