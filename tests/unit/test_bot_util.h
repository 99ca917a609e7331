/* test_bot_util: a referee with one bot memory per colour, kept in step
 * the way the arena and the server do it (each memory folds only its own
 * colour's observations), for the bot's unit tests. */
#ifndef PG_TEST_BOT_UTIL_H
#define PG_TEST_BOT_UTIL_H

#include <stdbool.h>

#include "bot/bot.h"
#include "engine/referee.h"
#include "engine/view.h"

typedef struct duel {
    referee *ref;
    int seen;          /* events folded into the memories */
    bot_memory mem[3]; /* [BLACK], [WHITE] */
} duel;

/* A new game with settings s; NULL if s is not valid. Free with duel_free. */
duel *duel_new(const game_settings *s);
void duel_free(duel *d);

/* Folds every new event into both memories. */
void duel_sync(duel *d);

/* Applies an action of the player to move given as a vertex ("D4"),
 * "pass"; returns the refusal (REFUSE_NONE if accepted) and syncs. */
refusal duel_play(duel *d, const char *vertex);

/* Asks the bot of the colour to move for its action (after syncing) and
 * applies it; returns the refusal and stores the point in *chosen. */
refusal duel_bot_step(duel *d, const bot_config *cfg, uint64_t seed, point *chosen);
/* The same with the seat's carry (bot_carry), as the arena and the
 * server keep one. */
refusal duel_bot_step_carrying(duel *d, const bot_config *cfg, uint64_t seed, bot_carry *carry,
                               point *chosen);

/* Does a carry change Black's decisions for some of the seeds 1..n? Each
 * decision gets its own copy of the carry; the same copy twice must give
 * the same answer (checked). When first is not NULL it gets the first
 * such seed (0 if none), with and without Black's decisions there. */
bool duel_carry_changes_a_decision(const bot_config *cfg, duel *d, const bot_carry *carry, uint64_t n,
                                   uint64_t *first, point *with, point *without);

/* The point of a vertex on this game's board. */
point duel_point(const duel *d, const char *vertex);

#endif
