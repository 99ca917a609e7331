/* api_idempotency: the Idempotency-Key header of the API's creating
 * requests (create, claim, join, rematch; docs/API.md). A request sent
 * again with the same key and the same body within 24 hours gets the first
 * answer again, byte for byte, without running again; with another body,
 * 422 idempotency_key_reused. Only final answers are kept (2xx, and 4xx but
 * 429): after a 5xx or a 429 the same key runs afresh.
 *
 * The records live in the store (store_idempotency.h), so a retry after a
 * restart or on another server of the same database gets the same answer.
 * An answer holds seat tokens, which the store otherwise keeps only
 * hashed: it is stored sealed with AES-256-GCM under a key derived from the
 * Idempotency-Key and its scope, and found by another hash of them, so the
 * database alone reveals no token (clients must use unguessable keys). */
#ifndef PG_HTTP_API_IDEMPOTENCY_H
#define PG_HTTP_API_IDEMPOTENCY_H

#include "games/registry.h"
#include "http/http_reply.h"

/* What a request does when it runs: answers rq (ctx is the caller's). */
typedef void (*idempotent_fn)(http_request *rq, void *ctx);

/* Runs run(rq, ctx) under rq's Idempotency-Key: at once when the request
 * carries none or is not a POST; else replays the key's answer, or runs
 * and keeps the answer before sending it. Answers every refusal itself
 * (400 for a malformed key, 422, 409 while the same key runs elsewhere,
 * 503 when the store cannot say).
 *
 * seeded: the request makes a new game, and makes it from
 * idempotency_drawn_game's values. They are drawn once per key and kept
 * (sealed) with its record before the request runs, so a request run
 * again after a crash between its game's commit and its answer's makes
 * that same game again and answers it; such a pending request is also
 * taken over after a few seconds rather than a minute. */
void idempotency_run(http_request *rq, bool seeded, idempotent_fn run, void *ctx);

/* Within a seeded run: the id, both seat tokens and the invite secret of
 * the game to make (each set; registry_create_drawn keeps those the mode
 * uses) and a random bit for a random colour; the same on every run of
 * the same key. False outside one (draw afresh then). */
bool idempotency_drawn_game(const http_request *rq, game_created *drawn, int *color_bit);

#endif
