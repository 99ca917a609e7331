/* http_reply: what every handler needs to answer a request, and nothing
 * of routing: the request as handlers see it, its headers and query
 * parameters, and the one place answers are written. See http_reply.h.
 *
 * Every response leaves through http_send (or http_send_head for a body
 * streamed after it), so no answer can miss the security headers. Answers
 * are composed in memory and written with one call: small answers are the
 * common case and one write keeps them in one TCP segment. */
#include "http/http_reply.h"

#include <assert.h>
#include <civetweb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/strbuf.h"
#include "util/utf8.h"

/* One policy for every response; HTML pages also name the WebSocket origin
 * of their host, for browsers whose 'self' does not cover ws:/wss:. */
#define CSP_BASE                                                      \
    "default-src 'self'; script-src 'self'; style-src 'self'; "       \
    "img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; " \
    "form-action 'self'; connect-src 'self'"
#define SECURITY_HEADERS                  \
    "X-Content-Type-Options: nosniff\r\n" \
    "Referrer-Policy: no-referrer\r\n"    \
    "X-Frame-Options: DENY\r\n"           \
    "Cross-Origin-Opener-Policy: same-origin\r\n"

const char *http_reason_phrase(int status) {
    switch (status) {
    case 101: return "Switching Protocols";
    case 200: return "OK";
    case 201: return "Created";
    case 204: return "No Content";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 414: return "URI Too Long";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Content";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    default: return status < 500 ? "Error" : "Internal Server Error";
    }
}

const char *http_header(const http_request *rq, const char *name) { return mg_get_header(rq->conn, name); }

/* A Host header is echoed into links and the CSP only if it is a plain
 * host[:port]: letters, digits, dots, dashes, colons and IPv6 brackets. */
static bool host_is_safe(const char *h) {
    size_t n = strlen(h);
    if (n == 0 || n > 255) return false;
    for (const char *p = h; *p; p++) {
        char c = *p;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                  c == '-' || c == ':' || c == '[' || c == ']';
        if (!ok) return false;
    }
    return true;
}

void http_base_url(const http_request *rq, char *out, size_t outlen) {
    if (rq->srv->cfg.base_url[0]) {
        snprintf(out, outlen, "%s", rq->srv->cfg.base_url);
        return;
    }
    const char *host = http_header(rq, "Host");
    if (host && host_is_safe(host)) snprintf(out, outlen, "http://%s", host);
    else if (outlen) out[0] = '\0';
}

static void append_csp(strbuf *sb, const http_request *rq, bool page) {
    strbuf_puts(sb, "Content-Security-Policy: " CSP_BASE);
    const char *host = NULL;
    char base[300];
    if (page) {
        http_base_url(rq, base, sizeof base);
        const char *sep = strstr(base, "://");
        host = sep ? sep + 3 : NULL;
    }
    if (host && *host) strbuf_printf(sb, " ws://%s wss://%s", host, host);
    strbuf_puts(sb, "\r\n");
}

static void append_date(strbuf *sb) {
    char date[64];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    strbuf_printf(sb, "Date: %s\r\n", date);
}

static void compose_head(strbuf *sb, http_request *rq, int status, const char *content_type,
                         const char *cache_control, const char *extra_headers, size_t len) {
    strbuf_printf(sb, "HTTP/1.1 %d %s\r\n", status, http_reason_phrase(status));
    append_date(sb);
    if (content_type) strbuf_printf(sb, "Content-Type: %s\r\n", content_type);
    if (status != 304) strbuf_printf(sb, "Content-Length: %zu\r\n", len);
    strbuf_printf(sb, "Cache-Control: %s\r\n", cache_control ? cache_control : "no-store");
    append_csp(sb, rq, content_type && !strncmp(content_type, "text/html", 9));
    strbuf_puts(sb, SECURITY_HEADERS);
    if (extra_headers) strbuf_puts(sb, extra_headers);
    if (status == 401 || status == 413) mg_disable_connection_keep_alive(rq->conn);
    if (status == 401 || status == 413) strbuf_puts(sb, "Connection: close\r\n");
    strbuf_puts(sb, "\r\n");
}

/* Keeps an answer in rq->capture instead of writing it (the first only). */
static void capture(http_request *rq, int status, const char *content_type, const char *cache_control,
                    const char *extra_headers, const void *body, size_t len) {
    http_capture *cap = rq->capture;
    if (cap->taken) return;
    cap->taken = true;
    cap->status = status;
    snprintf(cap->content_type, sizeof cap->content_type, "%s", content_type);
    cap->has_cache_control = cache_control != NULL;
    snprintf(cap->cache_control, sizeof cap->cache_control, "%s", cache_control ? cache_control : "");
    strbuf_puts(&cap->extra_headers, extra_headers ? extra_headers : "");
    strbuf_append(&cap->body, body, len);
    cap->plain = !strcmp(content_type, "application/json") && !cache_control &&
                 (!extra_headers || !*extra_headers);
}

void http_capture_free(http_capture *cap) {
    strbuf_free(&cap->extra_headers);
    strbuf_free(&cap->body);
}

void http_send_captured(http_request *rq, http_capture *cap) {
    rq->capture = NULL;
    if (!cap->taken || cap->body.failed || cap->extra_headers.failed)
        http_send_error(rq, 500, "internal", "The server failed to answer.");
    else
        http_send(rq, cap->status, cap->content_type, cap->has_cache_control ? cap->cache_control : NULL,
                  cap->extra_headers.data ? cap->extra_headers.data : "", cap->body.data, cap->body.len);
    http_capture_free(cap);
}

void http_send(http_request *rq, int status, const char *content_type, const char *cache_control,
               const char *extra_headers, const void *body, size_t len) {
    if (rq->capture) {
        capture(rq, status, content_type, cache_control, extra_headers, body, len);
        return;
    }
    strbuf sb;
    strbuf_init(&sb);
    compose_head(&sb, rq, status, content_type, cache_control, extra_headers, len);
    if (!rq->head && len) strbuf_append(&sb, body, len);
    rq->status = status;
    if (sb.failed) {
        static const char oom[] = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
                                  "Connection: close\r\n\r\n";
        mg_disable_connection_keep_alive(rq->conn);
        mg_write(rq->conn, oom, sizeof oom - 1);
        rq->status = 503;
    } else {
        mg_write(rq->conn, sb.data, sb.len);
    }
    strbuf_free(&sb);
}

void http_send_head(http_request *rq, int status, const char *content_type, const char *cache_control,
                    const char *extra_headers, size_t len) {
    assert(!rq->capture); /* a streamed answer is never held back */
    strbuf sb;
    strbuf_init(&sb);
    compose_head(&sb, rq, status, content_type, cache_control, extra_headers, len);
    rq->status = status;
    if (!sb.failed) mg_write(rq->conn, sb.data, sb.len);
    else mg_disable_connection_keep_alive(rq->conn);
    strbuf_free(&sb);
}

void http_send_json(http_request *rq, int status, const char *json, size_t len) {
    http_send(rq, status, "application/json", NULL, "", json, len);
}

/* Error messages may quote a client's text (a field's name), so they go
 * through a JSON escape, and a byte that does not start a valid UTF-8
 * character becomes U+FFFD: the body is valid JSON and valid UTF-8 even if
 * a message was cut badly or quoted raw bytes. */
static void append_json_string(strbuf *sb, const char *s) {
    strbuf_puts(sb, "\"");
    while (*s) {
        unsigned char c = (unsigned char)*s;
        int n = c < 0x80 ? 1 : utf8_char_len(s, strlen(s));
        if (c == '"' || c == '\\') strbuf_printf(sb, "\\%c", c);
        else if (c < 0x20) strbuf_printf(sb, "\\u%04x", c);
        else if (n == 0) strbuf_puts(sb, "\xef\xbf\xbd");
        else strbuf_append(sb, s, (size_t)n);
        s += n ? n : 1;
    }
    strbuf_puts(sb, "\"");
}

void http_send_error_extra(http_request *rq, int status, const char *code, const char *message,
                           const char *extra) {
    strbuf sb;
    strbuf_init(&sb);
    strbuf_puts(&sb, "{\"error\":{\"code\":");
    append_json_string(&sb, code);
    strbuf_puts(&sb, ",\"message\":");
    append_json_string(&sb, message);
    strbuf_puts(&sb, "}}");
    if (sb.failed) http_send(rq, status, "application/json", NULL, extra, "{}", 2);
    else http_send(rq, status, "application/json", NULL, extra, sb.data, sb.len);
    strbuf_free(&sb);
}

/* A 503 is a database that cannot be reached or written for now (a restart,
 * a failover, a full disk): the client is told when to try again, as a
 * 429 tells it, so a retry loop needs no guess of its own. */
#define UNAVAILABLE_RETRY_AFTER "Retry-After: 2\r\n"

void http_send_error(http_request *rq, int status, const char *code, const char *message) {
    http_send_error_extra(rq, status, code, message,
                          status == 401   ? "WWW-Authenticate: Bearer\r\n"
                          : status == 503 ? UNAVAILABLE_RETRY_AFTER
                                          : "");
}

void http_send_rate_limited(http_request *rq, int retry_after_s) {
    char extra[64];
    snprintf(extra, sizeof extra, "Retry-After: %d\r\n", retry_after_s);
    http_send_error_extra(rq, 429, "rate_limited", "Too many requests from this address; retry later.",
                          extra);
}

void http_send_method_not_allowed(http_request *rq, const char *allow) {
    char extra[128];
    snprintf(extra, sizeof extra, "Allow: %s\r\n", allow);
    static const char body[] = "{\"error\":{\"code\":\"method_not_allowed\","
                               "\"message\":\"This endpoint does not accept that method.\"}}";
    http_send(rq, 405, "application/json", NULL, extra, body, sizeof body - 1);
}

static bool is_loopback(const char *addr) {
    return !strncmp(addr, "127.", 4) || !strcmp(addr, "::1") || !strncmp(addr, "::ffff:127.", 11);
}

/* The client's address: the peer, or behind a trusted local proxy the last
 * X-Forwarded-For entry (the one that proxy appended itself). */
static void client_address(http_request *rq) {
    snprintf(rq->client, sizeof rq->client, "%s", rq->ri->remote_addr);
    if (!rq->srv->cfg.trust_proxy || !is_loopback(rq->client)) return;
    const char *xff = http_header(rq, "X-Forwarded-For");
    if (!xff) return;
    const char *last = strrchr(xff, ',');
    last = last ? last + 1 : xff;
    while (*last == ' ') last++;
    char addr[48];
    size_t n = 0;
    for (; last[n] && last[n] != ' ' && n < sizeof addr - 1; n++) {
        char c = last[n];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == '.' ||
              c == ':'))
            return;
        addr[n] = c;
    }
    addr[n] = '\0';
    if (n > 0) snprintf(rq->client, sizeof rq->client, "%s", addr);
}

void http_request_init(http_request *rq, server_ctx *srv, struct mg_connection *conn) {
    memset(rq, 0, sizeof *rq);
    rq->srv = srv;
    rq->conn = conn;
    rq->ri = mg_get_request_info(conn);
    rq->method = rq->ri->request_method ? rq->ri->request_method : "";
    rq->path = rq->ri->local_uri ? rq->ri->local_uri : "";
    rq->query = rq->ri->query_string;
    rq->head = !strcmp(rq->method, "HEAD");
    rq->route = ROUTE_OTHER;
    client_address(rq);
    ratelimit_key_of(rq->client, rq->client_key, sizeof rq->client_key);
}

int http_query_param(const http_request *rq, const char *name, char *out, size_t outlen) {
    if (!rq->query) return -1;
    return mg_get_var(rq->query, strlen(rq->query), name, out, outlen);
}

bool http_write(http_request *rq, const void *bytes, size_t len) {
    return mg_write(rq->conn, bytes, len) > 0;
}

void http_close_after(http_request *rq) { mg_disable_connection_keep_alive(rq->conn); }
