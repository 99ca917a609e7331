/* computer: the computer player's work queue, off the HTTP threads.
 *
 * A client of the games registry: it listens to every game's changes and
 * queues the games where the computer seat is to move, holding a
 * reference. Worker threads take them one at a time, copy the computer
 * seat's view and observations (game_computer_turn_of: the visibility
 * filter's output, never the referee's board), let the player think with
 * no lock held, and play its answer through game_act with seq = view.seq +
 * 1, exactly like a client: if the game moved on meanwhile the answer is
 * stale and the game is simply considered again. A refused choice is
 * retried; after a few the computer passes, so a buggy player cannot stall
 * a game. At start every stored computer game is considered, so a restart
 * resumes games where the computer was thinking. */
#ifndef PG_SERVER_COMPUTER_H
#define PG_SERVER_COMPUTER_H

#include <stdbool.h>
#include <stdint.h>

#include "server/games.h"

/* What the computer seat may know, all from the visibility filter: its view
 * now and the observations it was made from (obs[i].seq == i + 1). */
typedef struct bot_request {
    const char *game_id;
    const char *level; /* "easy" | "medium" | "strong" */
    int color;         /* the computer's seat */
    const view *vw;
    const observation *obs;
    int n_obs;
    uint64_t seed;    /* fresh per request */
    int64_t think_ms; /* the most its clock allows for this decision; 0: no limit */
} bot_request;

typedef struct games_bot {
    /* Chooses the next action for rq->color (an attempt at a point not tried
     * this turn, a pass or a resignation). May take seconds; runs on a
     * worker thread. Returns false if it cannot choose (the game then
     * passes for it). */
    bool (*choose)(void *ctx, const bot_request *rq, action *out);
    void *ctx;
    int threads; /* worker threads thinking at once (>= 1) */
} games_bot;

typedef struct computer computer;

/* Starts the workers on gm with player bot, listens to gm (computer games
 * may be created from then on) and queues every stored game where the
 * computer is to move; NULL if no worker can start. Call before serving. */
computer *computer_start(games *gm, const games_bot *bot);
/* Stops the workers (waiting for moves being thought) and releases the
 * queued games. NULL is allowed. */
void computer_stop(computer *cq);

#endif
