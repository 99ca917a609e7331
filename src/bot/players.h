/* players: the five players behind bot_choose (bot.c dispatches).
 *
 * Internal to src/bot. Every player reads only the memory and draws its
 * randomness only from r, so a decision is a function of (memory, seed);
 * the Monte-Carlo players also stop on the clock when the configuration
 * sets a time cap. They never return our own stone or a point tried this
 * turn. */
#ifndef PG_BOT_PLAYERS_H
#define PG_BOT_PLAYERS_H

#include "bot/bot.h"
#include "engine/rng.h"

/* Uniform over the points that are not ours, not tried this turn and not
 * our eyes; pass when there is none. */
point random_choose(const bot_memory *m, rng *r);

/* Captures a known group in atari, saves one of ours from atari, else a
 * weighted random attempt that avoids known stones and self-atari. */
point heuristic_choose(const bot_memory *m, rng *r);

/* The Monte-Carlo players; start is the decision's start (now_monotonic_s()),
 * *playouts_out receives the number of simulations run. */
point flat_choose(const bot_config *cfg, const bot_memory *m, rng *r, double start, long *playouts_out);
/* Flat simulates its pass once in this many simulations, for a budget of
 * budget_playouts (0: a time) and n_cand candidate moves. */
long flat_pass_period(long budget_playouts, int n_cand);
/* carry: the seat's (bot_carry), or NULL; stats gets the playouts and
 * what the opponent's tree expects (bot_stats), not the seconds. */
point ismcts_choose(const bot_config *cfg, const bot_memory *m, rng *r, double start, bot_carry *carry,
                    bot_stats *stats);
/* How the strong player of configuration cfg shares its budget among a
 * turn's attempts (by the budget's size). */
const struct attempt_shares *ismcts_attempt_shares(const bot_config *cfg);
/* The textbook ISMCTS with random playouts, the yardstick (reference.c). */
point reference_choose(const bot_config *cfg, const bot_memory *m, rng *r, double start, long *playouts_out);

#endif
