/* server: what every part of the running server shares, gathered in one
 * context that `phantomgo serve` builds at start-up and tears down at exit:
 * the configuration, the store, the games, the WebSocket hub, the rate
 * limiters and the civetweb context. Handlers receive it through their
 * request; nothing here is a global. */
#ifndef PG_HTTP_SERVER_H
#define PG_HTTP_SERVER_H

#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>

#include "server/config.h"
#include "http/ratelimit.h"
#include "store/store.h"

struct mg_context;
typedef struct registry registry;
typedef struct deadlines deadlines;
typedef struct computer computer;
typedef struct lobby lobby;
typedef struct hub hub;
typedef struct admin admin;
typedef struct retention retention;
typedef struct push_sender push_sender;
typedef struct games_push games_push;

typedef struct server_ctx {
    server_config cfg;
    store *st;
    registry *gm;
    deadlines *dl;
    computer *cq;
    lobby *lb;
    hub *hb;
    admin *adm;                /* the operator's token and routes (admin.h) */
    retention *rt;             /* the chat retention sweep (retention.h) */
    push_sender *ps; /* NULL: push is off (--push=false) */
    games_push *gp;
    ratelimit *api_limit;      /* every /api/ request and WebSocket */
    ratelimit *create_limit;   /* game creation */
    ratelimit *chat_speaker;   /* chat messages of one seat (key "id/colour") or one spectator address */
    ratelimit *chat_address;   /* all chat messages of one client address */
    char web_dir[PATH_MAX];    /* realpath of ROOT/web */
    char static_dir[PATH_MAX]; /* realpath of ROOT/static */
    struct mg_context *mg;
    /* The drain before a stop (http_drain.c): set by the stopping thread,
     * read and bumped by request handlers. Times are now_monotonic_ms. */
    atomic_bool draining;            /* /api/live answers 503 {"status":"draining"} */
    atomic_llong last_request_ms;    /* the last request other than /api/live */
    atomic_llong last_probe_ms;      /* the last /api/live */
    atomic_int probes_refused;       /* /api/live answered 503 since draining began */
    int port;         /* the port actually bound */
    int metrics_port; /* the bound port of --metrics-listen; 0: /metrics is on the public port */
} server_ctx;

#endif
