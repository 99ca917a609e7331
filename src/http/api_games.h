/* api_games: the handlers of the HTTP API under /api/v1/ (docs/API.md):
 * create a game, claim a seat, read a view, act, poll events, notes,
 * rematch. Each handler authenticates, parses and validates, calls the
 * games module, and turns its status into the documented status and error
 * code. Messages name fields and rules, never anything about the board. */
#ifndef PG_HTTP_API_GAMES_H
#define PG_HTTP_API_GAMES_H

#include "http/http_reply.h"

/* Answers any request under /api/ other than /api/health. */
void api_handle(http_request *rq);

#endif
