/* metrics: the server's counters for monitoring, rendered in Prometheus's
 * text exposition format at GET /metrics.
 *
 * Counters are process-wide atomics (one server per process) so any thread
 * can bump them without a lock; gauges that belong to other modules (games
 * loaded, games in play, open WebSockets) are read from them when the page
 * is rendered and passed in. */
#ifndef PG_UTIL_METRICS_H
#define PG_UTIL_METRICS_H

#include <stddef.h>

#include "util/strbuf.h"

typedef enum {
    ROUTE_PAGE = 0,  /* /, /rules, /g/{id} */
    ROUTE_STATIC,    /* /web/..., /static/... */
    ROUTE_API_READ,  /* GET under /api/ */
    ROUTE_API_WRITE, /* POST/PUT under /api/ */
    ROUTE_OTHER,     /* anything else: 404s, /metrics */
    ROUTE_COUNT
} metrics_route;

typedef enum {
    MOVE_LEGAL = 0,
    MOVE_ILLEGAL,
    MOVE_PASS,
    MOVE_RESIGN,
    MOVE_OTHER,
    MOVE_KIND_COUNT
} metrics_move;

void metrics_request(metrics_route route, int status, double seconds);
void metrics_move_played(metrics_move kind);
void metrics_game_created(void);
void metrics_ws_refused(void);

typedef struct metrics_gauges {
    long games_loaded;  /* games held in memory */
    long games_in_play; /* of those, not over */
    long websockets;    /* open WebSocket connections */
} metrics_gauges;

/* Appends the whole exposition text. */
void metrics_render(strbuf *out, const metrics_gauges *g);

#endif
