/* api_handlers: the /api/v1/ handlers by subject, and what they share.
 *
 * api_games.c routes each request (its one route table) to a handler of
 * one subject; a handler authenticates, parses and validates, calls the
 * games API and turns its status into the documented HTTP status and
 * error code through the one table in api_common.c. Messages name fields
 * and rules, never anything about the board. The subjects:
 *   api_seats.c   create a game, claim or join a seat, rematch, cancel,
 *                 a link's QR code
 *   api_play.c    the view, its events, the deduction aid, actions,
 *                 notes, the record
 *   api_talk.c    names, chat, reports of messages, erasing one's talk
 * A handler of one game gets it referenced by the router, which releases
 * it. Private to src/http's api files (admin.c and api_push.c use its
 * answers and checks too). */
#ifndef PG_HTTP_API_HANDLERS_H
#define PG_HTTP_API_HANDLERS_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "games/registry.h"
#include "http/http_reply.h"
#include "util/strbuf.h"
#include "wire/talk_text.h"

/* ---- api_common.c: answers and who a request speaks for ---- */

/* The documented error of a games status (500 for one without an entry). */
void api_send_status(http_request *rq, game_status st);
/* o as JSON with `status` (500 when o is NULL: out of memory). */
void api_send_cjson(http_request *rq, int status, const cJSON *o);
/* The same, and frees o. */
void api_send_owned_cjson(http_request *rq, int status, cJSON *o);
/* `status` with the JSON text composed in sb, or 500 when composing
 * failed (!ok or sb failed); frees sb either way. */
void api_send_composed(http_request *rq, int status, bool ok, strbuf *sb);

typedef enum { TOKEN_NONE, TOKEN_BAD, TOKEN_GIVEN } token_kind;
/* The Authorization: Bearer token of rq, in *token (not copied). */
token_kind api_bearer_token(const http_request *rq, const char **token);
/* The viewer a request speaks for: a seat, or a spectator without a token.
 * False after answering 403 for a token that is not a seat here. */
bool api_viewer_of(http_request *rq, game *g, viewer *v);
/* The seat a request must act for: 401 without a token, 403 with a wrong
 * one (then 0). */
int api_seat_of(http_request *rq, game *g);
/* Is rq's method one of `methods` ("GET PUT"; GET also admits HEAD)? If
 * not, answers 405 naming them. */
bool api_allow(http_request *rq, const char *methods);

/* ---- api_seats.c ---- */

void api_create_game(http_request *rq);
void api_claim_seat(http_request *rq, game *g);
void api_join_seat(http_request *rq, game *g);
void api_rematch(http_request *rq, game *g);
void api_cancel(http_request *rq, game *g);
void api_qr_code(http_request *rq);

/* ---- api_play.c ---- */

void api_read_view(http_request *rq, game *g);
void api_read_events(http_request *rq, game *g);
void api_read_aid(http_request *rq, game *g);
void api_act(http_request *rq, game *g);
void api_notes(http_request *rq, game *g);
void api_record(http_request *rq, game *g);

/* ---- api_talk.c ---- */

void api_rename_seat_name(http_request *rq, game *g);
void api_chat(http_request *rq, game *g);
void api_erase_own_talk(http_request *rq, game *g);
/* POST .../chat/{room}/{n}/report: `rest` is "{room}/{n}/report". */
void api_report_chat(http_request *rq, game *g, const char *rest);
/* A "name" field of a request body (absent or null: none); false after
 * answering 400. */
bool api_read_name(http_request *rq, const cJSON *o, char name[TALK_NAME_MAX_BYTES]);
/* Renames seat `color` of the game `id` just created (a create's "name"). */
game_status api_rename_new_seat(http_request *rq, const char *id, int color, const char *name);

#endif
