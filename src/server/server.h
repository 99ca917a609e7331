/* server: what every part of the running server shares, gathered in one
 * context that `phantomgo serve` builds at start-up and tears down at exit:
 * the configuration, the store, the games, the WebSocket hub, the rate
 * limiters and the civetweb context. Handlers receive it through their
 * request; nothing here is a global. */
#ifndef PG_SERVER_SERVER_H
#define PG_SERVER_SERVER_H

#include <limits.h>
#include <stdint.h>

#include "server/config.h"
#include "server/ratelimit.h"
#include "store/store.h"

struct mg_context;
typedef struct games games;
typedef struct deadlines deadlines;
typedef struct computer computer;
typedef struct lobby lobby;
typedef struct hub hub;
typedef struct push_sender push_sender;
typedef struct games_push games_push;

typedef struct server_ctx {
    server_config cfg;
    store *st;
    games *gm;
    deadlines *dl;
    computer *cq;
    lobby *lb;
    hub *hb;
    push_sender *ps; /* NULL: push is off (--push=false) */
    games_push *gp;
    ratelimit *api_limit;      /* every /api/ request and WebSocket */
    ratelimit *create_limit;   /* game creation */
    ratelimit *chat_speaker;   /* chat messages of one seat (key "id/colour") or one spectator address */
    ratelimit *chat_address;   /* all chat messages of one client address */
    char web_dir[PATH_MAX];    /* realpath of ROOT/web */
    char static_dir[PATH_MAX]; /* realpath of ROOT/static */
    struct mg_context *mg;
    int port; /* the port actually bound */
} server_ctx;

#endif
