/* api_push: GET /api/v1/push/key and PUT/DELETE /api/v1/games/{id}/push
 * (docs/API.md). api_games routes to these; the answers, checks and
 * errors are this file's. */
#ifndef PG_HTTP_API_PUSH_H
#define PG_HTTP_API_PUSH_H

#include "games/game.h"
#include "http/http_reply.h"

/* GET /api/v1/push/key: {"public_key": base64url of the P-256 point}. */
void api_push_key(http_request *rq);
/* PUT or DELETE /api/v1/games/{id}/push of game g (the method checked). */
void api_push_seat(http_request *rq, game *g);

#endif
