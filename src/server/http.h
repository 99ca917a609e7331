/* http: the civetweb front door. Starts and stops the embedded server,
 * turns every request into an http_request, applies the rules that hold for
 * all of them (security headers, body limit, rate limit, metrics), routes
 * it to static files, the API or the WebSocket hub, and writes answers.
 *
 * Every response leaves through http_send (or the civetweb error callback,
 * which uses it too), so no answer can miss the security headers. Answers
 * are composed in memory and written with one call: small answers are the
 * common case and one write keeps them in one TCP segment. */
#ifndef PG_SERVER_HTTP_H
#define PG_SERVER_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "server/metrics.h"
#include "server/server.h"

struct mg_connection;
struct mg_request_info;

#define HTTP_BODY_MAX (16 * 1024)

typedef struct http_request {
    server_ctx *srv;
    struct mg_connection *conn;
    const struct mg_request_info *ri;
    const char *method;          /* "GET", "POST", ... */
    const char *path;            /* decoded, dot segments removed */
    const char *query;           /* after '?', or NULL */
    char client[48];             /* client address (proxy-aware) */
    char *body;                  /* POST/PUT body, NUL-terminated; owned here */
    size_t body_len;
    bool head;                   /* HEAD: headers only */
    metrics_route route;
    int status;                  /* of the answer sent, 0 before */
} http_request;

/* Starts civetweb on cfg's address and port and records the bound port in
 * srv->port. Needs srv->gm, srv->hb and the rate limiters ready. */
bool http_start(server_ctx *srv, char *err, size_t errlen);
/* Stops accepting, waits for every worker thread; safe if never started. */
void http_stop(server_ctx *srv);

/* Sends a complete answer. extra_headers: "" or lines each ending "\r\n".
 * cache_control NULL means "no-store" (the default for anything dynamic). */
void http_send(http_request *rq, int status, const char *content_type,
               const char *cache_control, const char *extra_headers,
               const void *body, size_t len);
/* Sends only the head of an answer whose len-byte body the caller then
 * writes with mg_write (large files); nothing more is sent for HEAD. */
void http_send_head(http_request *rq, int status, const char *content_type,
                    const char *cache_control, const char *extra_headers, size_t len);
void http_send_json(http_request *rq, int status, const char *json, size_t len);
/* {"error":{"code":..,"message":..}}; message must hold no hidden fact. */
void http_send_error(http_request *rq, int status, const char *code, const char *message);
/* 429 rate_limited with Retry-After. */
void http_send_rate_limited(http_request *rq, int retry_after_s);
/* 405 with the Allow header. */
void http_send_method_not_allowed(http_request *rq, const char *allow);

/* The value of a request header, or NULL. */
const char *http_header(const http_request *rq, const char *name);
/* The base of links given to clients: --base-url, else http://Host. Writes
 * "" if the Host header is missing or unsafe to echo. */
void http_base_url(const http_request *rq, char *out, size_t outlen);

/* Fills rq for a connection (used by the dispatcher, and by the WebSocket
 * hub to answer a refused upgrade through http_send). */
void http_request_init(http_request *rq, server_ctx *srv, struct mg_connection *conn);

#endif
