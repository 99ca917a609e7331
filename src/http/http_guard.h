/* http_guard: the checks an anonymous request passes before any handler
 * runs, and the one way a request body is read.
 *
 *  - Writes must say they are JSON (415 otherwise), so a web page cannot
 *    make its visitors' browsers create games or post chat with a plain
 *    form or a no-cors fetch: a cross-site JSON request needs a CORS
 *    preflight, which this server never grants.
 *  - A WebSocket upgrade that names a foreign Origin is refused (403);
 *    programs that send no Origin are welcome.
 *  - A request, head and body, must arrive whole within
 *    HTTP_REQUEST_DEADLINE_MS of its first byte (408 and the connection
 *    closes), and a body over HTTP_BODY_MAX is refused unread (413): a
 *    client that drips bytes holds a worker for at most that long. */
#ifndef PG_HTTP_HTTP_GUARD_H
#define PG_HTTP_HTTP_GUARD_H

#include <stdbool.h>

#include "http/http_reply.h"

enum { HTTP_REQUEST_DEADLINE_MS = 10000 };

/* Once at start-up, before civetweb's threads: installs the handler of the
 * signal that interrupts a body read at its deadline. False on failure. */
bool http_guard_init(void);

/* civetweb's init_connection and end_request callbacks: where on this
 * worker thread the next request's head begins. */
int http_guard_connection_opened(const struct mg_connection *conn, void **conn_data);
void http_guard_request_ended(const struct mg_connection *conn, int status);

/* POST/PUT/PATCH/DELETE: true if the request may go on. A Content-Type must
 * be application/json (parameters allowed); it may be absent only from a
 * request with no body that carries an Authorization header (which a
 * browser cannot send cross-site without a preflight either). Otherwise
 * answers 415 unsupported_media_type. */
bool http_guard_json_write(http_request *rq);

/* A WebSocket upgrade: true if it has no Origin, or its Origin is this
 * server's own (--base-url's, or the request's Host). */
bool http_guard_origin_ok(const http_request *rq);

/* Reads the whole body into rq->body within the request's deadline. False
 * after answering 408 (too slow) or 413 (too large), with the connection
 * marked to close so that nobody reads the rest. */
bool http_guard_read_body(http_request *rq);

/* After the answer: a body that was declared but not read whole is never
 * read (civetweb would otherwise drain it at the client's pace), so the
 * connection closes instead. */
void http_guard_finish(http_request *rq);

#endif
