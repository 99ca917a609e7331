/* arena_forecast: how well the strong player foresees what it cannot see,
 * scored by the arena against the referee's truth.
 *
 * Two forecasts, both read from what the player itself uses, so that a
 * change to its belief or to its model of the opponent can be judged in
 * a few hundred turns instead of a whole SPRT:
 *  - its belief: at the first attempt of each turn, BELIEF_SAMPLES boards
 *    drawn exactly as its simulations draw them (belief_sample) give each
 *    hidden point (not ours, not a known opponent stone) a probability of
 *    holding an opponent stone; the log-loss of those probabilities
 *    against the truth, in bits a point, beside the same for a uniform
 *    belief (the flat player's) drawn from the same memory;
 *  - its expected reply (bot_stats.expected_reply): how often the
 *    opponent then really played there.
 * The samples come from a generator of their own, seeded by the caller,
 * so scoring never changes a decision. Referee-side: the truth is read
 * here, never handed to a player. */
#ifndef PG_CLI_ARENA_FORECAST_H
#define PG_CLI_ARENA_FORECAST_H

#include <stdint.h>

#include "bot/bot.h"
#include "engine/board.h"

typedef struct forecast_totals {
    long belief_points;    /* hidden points scored, over all turns */
    double belief_bits;    /* the informed belief's log-loss over them */
    double uniform_bits;   /* a uniform belief's, on the same points */
    long replies_expected; /* turns whose decision named an expected reply */
    long replies_matched;  /* ...and the opponent played it */
} forecast_totals;

/* Scores the belief of the player of memory m (at the first attempt of
 * its turn), leaning toward its carry's expected map (bot_carry_expected_map;
 * NULL for none) as its search does, against truth, the referee's
 * board; adds to t. */
void forecast_score_belief(const bot_memory *m, const float *expected_map, const board *truth, uint64_t seed,
                           forecast_totals *t);

/* Adds t's counts to sum. */
void forecast_add(forecast_totals *sum, const forecast_totals *t);

#endif
