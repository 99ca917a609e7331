/* http: the civetweb front door. Starts and stops the embedded server,
 * turns every request into an http_request, applies the rules that hold for
 * all of them (body limit, rate limit, metrics), answers the health check
 * and the metrics page itself, and routes everything else to static files,
 * the API or the WebSocket hub. Replies are written by http_reply, which
 * the handlers share; this router is the only file that knows them all. */
#ifndef PG_HTTP_HTTP_H
#define PG_HTTP_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "http/server.h"

/* Starts civetweb on cfg's address and port and records the bound port in
 * srv->port. Needs srv->gm, srv->hb and the rate limiters ready. */
bool http_start(server_ctx *srv, char *err, size_t errlen);
/* The graceful part of a stop (http_drain.c), before http_stop: /api/live
 * answers 503 {"status":"draining"} while everything else is still served,
 * until the balancer has taken this server out (two refused checks, when a
 * balancer checks it) and no request came for a moment, at most
 * HTTP_DRAIN_MAX_MS; then every WebSocket is closed with 1012 and given a
 * moment to go. Without a balancer and traffic it takes no time. */
void http_drain(server_ctx *srv);
/* Stops accepting, waits for every worker thread; safe if never started. */
void http_stop(server_ctx *srv);

#endif
