/* admin: the operator's routes (/api/v1/admin/..., docs/API.md "Admin"),
 * the reports anyone may make of a chat message, and the mutes and bans
 * every route that creates, joins or chats must respect.
 *
 * The operator is one person with one secret: the file named by
 * --admin-token-file holds it (at least 32 characters). Without that
 * option the admin routes and the /admin page do not exist (404). The token
 * is compared as SHA-256 hashes in constant time; five wrong tries from one
 * address within a minute shut that address out (429) for the rest of it,
 * the right token included, so guessing costs a minute per five tries. */
#ifndef PG_HTTP_ADMIN_H
#define PG_HTTP_ADMIN_H

#include <stdbool.h>
#include <stddef.h>

#include "games/game.h"
#include "http/http_reply.h"

typedef struct admin admin;

/* The operator's state for cfg: reads the token file (trailing newline
 * and spaces trimmed) when one is named. NULL with err set for a file that
 * cannot be read or holds fewer than 32 characters, or out of memory. */
admin *admin_open(const server_config *cfg, char *err, size_t errlen);
void admin_free(admin *a);

/* Whether the admin routes and page exist (a token was given). */
bool admin_enabled(const admin *a);

/* /api/v1/admin/<rest>: every admin route. */
void admin_handle(http_request *rq, const char *rest);

/* POST /api/v1/games/{id}/chat/<rest> where rest is "{room}/{n}/report",
 * for viewer v (already authenticated): 201, rate limited per seat (or
 * spectator address) and per address. Any other rest answers 404. */
void admin_report(http_request *rq, game *g, viewer v, const char *rest);

/* What a request is about to do, for the mutes and bans. */
typedef enum { ADMIN_DO_CREATE = 1, ADMIN_DO_JOIN = 2, ADMIN_DO_CHAT = 4 } admin_deed;

/* False after answering 403 "muted" or "banned" (or 503 when the store
 * cannot say): the request's address is banned from `deed`, or, for chat,
 * muted (the address, or seat v of game g). g may be NULL except for chat. */
bool admin_allows(http_request *rq, admin_deed deed, game *g, viewer v);

#endif
