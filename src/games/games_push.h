/* games_push: which push notices a game's seats are owed, written to the
 * store's outbox for the sender (push/push_sender.h) to deliver.
 *
 * It listens to every game like the lobby and the deadlines do, but the
 * listener only notes the game's id and wakes this module's own thread:
 * the thread that changed the game (a move's request) never waits for a
 * notice, let alone a push service. The thread then reads each seat's own
 * view and decides that seat's current notice, one of
 *
 *   opponent_joined  both seats taken, nothing played yet (online games)
 *   your_turn        the seat is to move (the turn passed to it, or the
 *                    game began with it)
 *   time_low         ... and its days-per-move clock has less than 12
 *                    hours left
 *   game_over        the game ended, however
 *   rematch_offer    the opponent offered a rematch, still open
 *
 * each with a rank that rises through a game (turn * 8 + the kind's place
 * in that list), and queues it with store_push_enqueue, which adds a row
 * only for the subscriptions that have no notice of that rank yet. So the
 * same state heard twice (a reload, a restart, another server) notifies
 * once, and a seat is told of its turn once per turn, whatever the
 * opponent tried meanwhile; a notice whose moment passed before the look
 * (the seat already acted) is not queued. A seat with a WebSocket open on
 * this server sees the change on its page: its notice is recorded as
 * skipped.
 *
 * Everything in a payload comes from that seat's own view (the game id,
 * the kind, the turn number, the seat's colour, the opponent's display
 * name, the result once over); never a token, never where anyone played.
 *
 * time_low needs no change to happen: the thread keeps, per game whose
 * side to move has a days-per-move clock, the moment 12 hours before its
 * deadline and looks at the game again then. At start it loads every game
 * that has a subscription, so what a crash left unqueued is queued. */
#ifndef PG_GAMES_GAMES_PUSH_H
#define PG_GAMES_GAMES_PUSH_H

#include "push/push_sender.h"
#include "games/registry.h"
#include "store/store_push.h"

typedef struct games_push games_push;

/* Listens to gm, starts the thread and loads the subscribed games. NULL
 * when out of memory or the thread cannot start. */
games_push *games_push_start(registry *gm, store *st, push_sender *ps);
/* Stops listening and joins the thread. NULL is allowed. */
void games_push_stop(games_push *gp);
/* Looks at game id again soon. */
void games_push_look(games_push *gp, const char *id);
/* Stores a subscription of seat sub->color of g (store_push_subscribe's
 * answer) and records what the seat is owed now as seen (skipped), in
 * one step no look can come between: subscribing never notifies of the
 * state the subscriber is looking at, only later changes do. */
int games_push_subscribe(games_push *gp, game *g, const store_push_sub *sub);
/* The server's clock moved (tests): every time_low moment is looked at. */
void games_push_clock_moved(games_push *gp);

/* Less than this left on a days-per-move clock is a time_low notice. */
#define GAMES_PUSH_TIME_LOW_MS (12 * 3600 * 1000LL)

#endif
