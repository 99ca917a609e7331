/* search: what the Monte-Carlo players share: the root's candidate
 * attempts, the budget of one decision, and the simulation of one game
 * from a determinized board.
 *
 * Internal to src/bot. Kept apart from flat.c and ismcts.c so that the two
 * players differ only in how they spend simulations, which is what the
 * strength ladder measures. */
#ifndef PG_BOT_SEARCH_H
#define PG_BOT_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "bot/belief.h"
#include "bot/bot.h"
#include "engine/board.h"
#include "engine/rng.h"

/* Root candidates: every point that is not our stone, not tried this turn,
 * not a known opponent stone and not one of our eyes. Pass is not listed.
 * Returns how many were written to out. */
int search_candidates(const bot_memory *m, const board *base, point *out);

/* How a player shares its budget among the attempts of one turn: the
 * attempt after k illegal answers gets num[k] / den[k] of it (k = 0..3;
 * later attempts as the fourth). Each search player names its own. */
#define SEARCH_SHARED_ATTEMPTS 4
typedef struct attempt_shares {
    int num[SEARCH_SHARED_ATTEMPTS], den[SEARCH_SHARED_ATTEMPTS];
} attempt_shares;

/* 1, 1/2, 1/3, then 1/4: each refusal shrinks the next attempt's budget,
 * so a turn with many refusals stays within a few budgets. */
extern const attempt_shares search_shares_shrinking;

/* The budget of one decision: cfg's, times the share `shares` gives this
 * turn's attempt, scaled by cfg's share, read as the search goes. */
typedef struct search_budget {
    long playouts;           /* 0: no limit by count */
    double start;            /* monotonic seconds */
    double deadline;         /* monotonic seconds; 0: no limit by time */
    const atomic_int *share; /* NULL: 100 % */
} search_budget;

search_budget search_budget_for(const bot_config *cfg, const attempt_shares *shares, const bot_memory *m,
                                double start);
/* May simulation number done (0-based) still run? Reads the clock only
 * every 16 simulations. At least one simulation always runs. */
bool search_continue(const search_budget *b, long done);

/* A uniformly random legal move of colour c on b that does not fill c's
 * own eye, or PASS_POINT if none (the light playout's policy). */
point search_random_move(const board *b, int c, rng *r);

/* The game's value for `me` after the position on b, `to_move` to play,
 * `passes` passes in a row just made, in [0, 1]: mostly the win (1, 0.5 for
 * a jigo, 0), the share score_weight the score margin (a tie-breaker, so
 * that a lost or won position still prefers the moves that lose by less or
 * win by more over passing; each player sets its own). Two passes end it
 * at once, scored as it stands but with every region not ours alone
 * counted for the opponent (b is a guess at their stones); otherwise a
 * light playout finishes it; first_mover gets AMAF colours (see
 * playout_random) if not NULL. */
double search_finish(board *b, int me, int to_move, int passes, int komi_x2, double score_weight, rng *r,
                     uint8_t *first_mover);

#endif
