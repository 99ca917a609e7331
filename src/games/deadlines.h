/* deadlines: the timer that ends games whose side to move ran out of time,
 * so a silent player loses on time without anyone asking.
 *
 * A client of the games registry: it listens to every game's changes,
 * reads each changed game's deadline (game_deadline) and keeps the
 * earliest per game in its own small array keyed by game id (games leave
 * memory when idle; the timer loads them back when due), searched
 * linearly: thousands of timed games cost microseconds per change. One
 * thread sleeps until the earliest deadline and asks that game to check
 * its clock (game_check_clock appends the timeout). At start it loads
 * every stored game whose clock runs, which arms their deadlines. */
#ifndef PG_GAMES_DEADLINES_H
#define PG_GAMES_DEADLINES_H

#include <stdbool.h>

#include "games/registry.h"

typedef struct deadlines deadlines;

/* Listens to gm, loads the stored games whose clock runs and starts the
 * timer thread; NULL if the thread cannot start. Call before serving. */
deadlines *deadlines_start(registry *gm);
/* Stops the thread and frees the list. NULL is allowed. */
void deadlines_stop(deadlines *dl);
/* Re-reads the clock now (after registry_advance_clock, tests only). */
void deadlines_wake(deadlines *dl);

#endif
