/* http_reply: the request as every handler sees it and the replies it can
 * send: the leaf of the HTTP side. Handlers (api_games, static, hub)
 * include this and never the router (http.h), and none of them calls
 * civetweb for a header, a query parameter or a write: the one exception
 * is the hub's WebSocket traffic.
 *
 * Every response leaves through http_send or http_send_head, so no answer
 * can miss the security headers. */
#ifndef PG_HTTP_HTTP_REPLY_H
#define PG_HTTP_HTTP_REPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "util/metrics.h"
#include "http/server.h"
#include "util/strbuf.h"

struct mg_connection;
struct mg_request_info;

#define HTTP_BODY_MAX (16 * 1024)

/* An answer held back instead of written (api_idempotency.c): while a
 * request's capture is set, http_send keeps the answer here, and the
 * holder sends it later with http_send_captured. */
typedef struct http_capture {
    bool taken;  /* an answer was given */
    bool plain;  /* application/json, default caching, no extra headers */
    int status;
    char content_type[64];
    char cache_control[64];
    bool has_cache_control;
    strbuf extra_headers;
    strbuf body;
} http_capture;

typedef struct http_request {
    server_ctx *srv;
    struct mg_connection *conn;
    const struct mg_request_info *ri;
    const char *method; /* "GET", "POST", ... */
    const char *path;   /* decoded, dot segments removed */
    const char *query;  /* after '?', or NULL */
    char client[48];    /* client address (proxy-aware) */
    char client_key[48]; /* what limits count it under: ratelimit_key_of(client) */
    char *body;         /* POST/PUT body, NUL-terminated; owned here */
    size_t body_len;
    bool body_done; /* the body was read, or refused and the connection closes */
    bool head; /* HEAD: headers only */
    metrics_route route;
    int status; /* of the answer sent, 0 before */
    http_capture *capture; /* NULL: answers are written at once */
} http_request;

/* Fills rq for a connection (the router's requests, and the WebSocket
 * hub's refused upgrades). */
void http_request_init(http_request *rq, server_ctx *srv, struct mg_connection *conn);

/* The value of a request header, or NULL. */
const char *http_header(const http_request *rq, const char *name);
/* The decoded query parameter `name` into out: its length, -1 when absent,
 * -2 when it does not fit (as civetweb's mg_get_var). */
int http_query_param(const http_request *rq, const char *name, char *out, size_t outlen);
/* The base of links given to clients: --base-url, else http://Host. Writes
 * "" if the Host header is missing or unsafe to echo. */
void http_base_url(const http_request *rq, char *out, size_t outlen);

/* Sends a complete answer. extra_headers: "" or lines each ending "\r\n".
 * cache_control NULL means "no-store" (the default for anything dynamic). */
void http_send(http_request *rq, int status, const char *content_type, const char *cache_control,
               const char *extra_headers, const void *body, size_t len);
/* Sends only the head of an answer whose len-byte body the caller then
 * writes with http_write (large files); nothing more is sent for HEAD. */
void http_send_head(http_request *rq, int status, const char *content_type, const char *cache_control,
                    const char *extra_headers, size_t len);
/* Sends the answer held in cap (rq->capture cleared) and frees cap's
 * buffers; 500 when the capture failed or holds none. */
void http_send_captured(http_request *rq, http_capture *cap);
/* Frees cap's buffers. */
void http_capture_free(http_capture *cap);
/* Writes body bytes after http_send_head; false when the peer is gone. */
bool http_write(http_request *rq, const void *bytes, size_t len);
/* The connection closes after this answer (no keep-alive). */
void http_close_after(http_request *rq);

void http_send_json(http_request *rq, int status, const char *json, size_t len);
/* {"error":{"code":..,"message":..}}; message must hold no hidden fact. */
void http_send_error(http_request *rq, int status, const char *code, const char *message);
/* The same with extra header lines. */
void http_send_error_extra(http_request *rq, int status, const char *code, const char *message,
                           const char *extra_headers);
/* 429 rate_limited with Retry-After. */
void http_send_rate_limited(http_request *rq, int retry_after_s);
/* 405 with the Allow header. */
void http_send_method_not_allowed(http_request *rq, const char *allow);

/* "OK", "Not Found", ... for a status code. */
const char *http_reason_phrase(int status);

#endif
