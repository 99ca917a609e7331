/* retention: names and chat are kept no longer than needed. A thread
 * erases the names and messages of every game that ended (or was
 * cancelled) more than --chat-retention-days ago: the messages become
 * tombstones, the names go, so the page, the API and the SGF (no PB/PW)
 * show them no more; the moves stay. It sweeps at start, then hourly, and
 * when the test clock moves (retention_wake). With 0 days there is no
 * thread: everything is kept. */
#ifndef PG_GAMES_RETENTION_H
#define PG_GAMES_RETENTION_H

#include <stdbool.h>

#include "games/registry.h"

typedef struct retention retention;

/* Starts the sweep for `days` (> 0); NULL for days 0 (and when the thread
 * cannot start: err says so). */
retention *retention_start(registry *gm, store *st, int days, char *err, size_t errlen);
void retention_stop(retention *rt); /* NULL is allowed */
/* Sweeps again now (after registry_advance_clock; NULL is allowed). */
void retention_wake(retention *rt);

#endif
