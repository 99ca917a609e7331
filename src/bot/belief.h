/* belief: sampling full boards consistent with what the player knows
 * (determinization), the input of every Monte-Carlo simulation.
 *
 * A sample is the player's own stones, plus the opponent stones it knows
 * (OPP_CERTAIN), plus an explanation of each attempt refused for an untold
 * reason (OPP_REFUSED): a stone there or, sometimes when the point is
 * nearly ringed already, opponent stones around it making it a suicide,
 * plus as many more opponent stones as make the public count exact, drawn
 * from a prior over the other points. Every stone is
 * placed as a legal, non-capturing move on the board being built, so no
 * group of either colour is ever left without a liberty; a point where no
 * stone fits is skipped and another is drawn.
 *
 * The prior is computed once per decision (belief_prepare) so that drawing
 * a sample costs a board copy and one binary search per hidden stone:
 *  - uniform: every point not known empty weighs the same (flat player);
 *  - informed (strong player): a table counted in self-play records
 *    (bench/bot-prior.py) by the game's phase, the point's line and its
 *    distance to our nearest stone; more weight near known opponent
 *    stones and, with belief_prepare_expecting, where the player's
 *    searches expected the opponent's replies, little on points just
 *    announced captured, none in the player's eyes. */
#ifndef PG_BOT_BELIEF_H
#define PG_BOT_BELIEF_H

#include <stdbool.h>

#include "bot/bot.h"
#include "engine/board.h"
#include "engine/rng.h"

typedef struct belief {
    board base; /* our stones only */
    int me, opp;
    int opp_total; /* opponent stones on the real board */
    /* Known stones and refused points, each list with this turn's tried
     * points first: they are explained before older facts, which may be
     * stale, use up the stone count. */
    int n_certain, n_refused, n_certain_now, n_refused_now;
    point certain[BOARD_MAX_POINTS]; /* OPP_CERTAIN points */
    point refused[BOARD_MAX_POINTS]; /* OPP_REFUSED points */
    int n_prior;
    point prior_point[BOARD_MAX_POINTS];
    double prior_cum[BOARD_MAX_POINTS]; /* cumulative weights */
} belief;

/* Prepares sampling for the player of memory m. informed selects the
 * informed prior (else uniform). Returns false if the player's own stones
 * cannot be set up (an inconsistent memory). */
bool belief_prepare(belief *bf, const bot_memory *m, bool informed);

/* The same with the informed prior leaning toward where the player's own
 * searches expected the opponent to play: expected_map holds
 * BOARD_MAX_POINTS shares by point, each counted up to 1
 * (bot_carry_expected_map; NULL for none). */
bool belief_prepare_expecting(belief *bf, const bot_memory *m, const float *expected_map);

/* Draws one board into out. */
void belief_sample(const belief *bf, board *out, rng *r);

/* Can colour c put a stone at p without capturing anything and without
 * suicide? (How sampled stones are placed.) */
bool belief_fits(const board *b, int c, point p);

#endif
