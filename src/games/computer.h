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
 * resumes games where the computer was thinking.
 *
 * Many games at once: the queue is first come, first served, and a turn
 * stays with the worker that began it until the computer has moved (its
 * illegal attempts included), so no game waits for another's whole turn
 * twice. When more turns wait than there are workers, each turn gets a
 * share of its level's thinking budget (computer_think_percent), so the
 * last in line still answers about one budget after its human's move; a
 * turn already thinking has its share lowered as games queue behind it
 * (the bot reads it as it searches). The game is told
 * (game_set_computer_pace), and its view says so. */
#ifndef PG_GAMES_COMPUTER_H
#define PG_GAMES_COMPUTER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "games/registry.h"

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
    /* The share (percent) of its level's budget this turn may use, read
     * while it thinks: lowered (never raised) when games queue behind it,
     * 0 when the server stops. */
    const atomic_int *share;
} bot_request;

typedef struct games_bot {
    /* Chooses the next action for rq->color (an attempt at a point not tried
     * this turn, a pass or a resignation). May take seconds; runs on a
     * worker thread. Returns false if it cannot choose (the game then
     * passes for it). */
    bool (*choose)(void *ctx, const bot_request *rq, action *out);
    void *ctx;
    int threads; /* worker threads thinking at once (>= 1) */
    bool share;  /* share the budget when turns wait (false: always 100 %) */
} games_bot;

/* The least share of its budget a turn gets, however long the queue. */
#define COMPUTER_THINK_FLOOR_PERCENT 10

/* The share (in percent, COMPUTER_THINK_FLOOR_PERCENT..100) of its level's
 * budget a turn gets when `waiting` turns, itself included, wait for
 * `workers` threads: all of it while every waiting turn has a thread, else
 * workers / waiting (rounded up), so the queue drains in about one budget. */
int computer_think_percent(int workers, int waiting);

typedef struct computer computer;

/* Starts the workers on gm with player bot, listens to gm (computer games
 * may be created from then on) and queues every stored game where the
 * computer is to move; NULL if no worker can start. Call before serving. */
computer *computer_start(registry *gm, const games_bot *bot);
/* Stops the workers (a search in progress ends at once and its move is
 * not played: the game resumes at the next start) and releases the queued
 * games. NULL is allowed. */
void computer_stop(computer *cq);

#endif
