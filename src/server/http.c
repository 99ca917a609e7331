/* http: civetweb set-up, the dispatcher every request goes through, and the
 * single place answers are written. See http.h.
 *
 * civetweb runs one worker thread per connection, and a WebSocket keeps its
 * worker for as long as it is open, so the pool is sized as the configured
 * request threads plus the WebSocket limit: sockets can never starve plain
 * requests. civetweb serves no files itself (no document_root): static
 * files, pages and errors all come from our handlers, so the security
 * headers and the no-listing rule cannot be bypassed. */
#include "server/http.h"

#include <civetweb.h>
#include <netdb.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "server/api_games.h"
#include "server/games.h"
#include "server/hub.h"
#include "server/static.h"
#include "util/strbuf.h"

enum { HTTP_DRAIN_MAX = 1024 * 1024 };

/* One policy for every response; HTML pages also name the WebSocket origin
 * of their host, for browsers whose 'self' does not cover ws:/wss:. */
#define CSP_BASE "default-src 'self'; script-src 'self'; style-src 'self'; " \
                 "img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; " \
                 "form-action 'self'; connect-src 'self'"
#define SECURITY_HEADERS "X-Content-Type-Options: nosniff\r\n" \
                         "Referrer-Policy: no-referrer\r\n" \
                         "X-Frame-Options: DENY\r\n" \
                         "Cross-Origin-Opener-Policy: same-origin\r\n"

static const char *reason_phrase(int status) {
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
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 414: return "URI Too Long";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    default:  return status < 500 ? "Error" : "Internal Server Error";
    }
}

const char *http_header(const http_request *rq, const char *name) {
    return mg_get_header(rq->conn, name);
}

/* A Host header is echoed into links and the CSP only if it is a plain
 * host[:port]: letters, digits, dots, dashes, colons and IPv6 brackets. */
static bool host_is_safe(const char *h) {
    size_t n = strlen(h);
    if (n == 0 || n > 255) return false;
    for (const char *p = h; *p; p++) {
        char c = *p;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '.' || c == '-' || c == ':' || c == '[' || c == ']';
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
    strbuf_printf(sb, "HTTP/1.1 %d %s\r\n", status, reason_phrase(status));
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

void http_send(http_request *rq, int status, const char *content_type, const char *cache_control,
               const char *extra_headers, const void *body, size_t len) {
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

void http_send_head(http_request *rq, int status, const char *content_type,
                    const char *cache_control, const char *extra_headers, size_t len) {
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

/* Error messages are our own constant strings, but they go through a JSON
 * escape anyway so a future message with a quote cannot break the body. */
static void append_json_string(strbuf *sb, const char *s) {
    strbuf_puts(sb, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') strbuf_printf(sb, "\\%c", c);
        else if (c < 0x20) strbuf_printf(sb, "\\u%04x", c);
        else strbuf_append(sb, s, 1);
    }
    strbuf_puts(sb, "\"");
}

static void send_error_extra(http_request *rq, int status, const char *code,
                             const char *message, const char *extra) {
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

void http_send_error(http_request *rq, int status, const char *code, const char *message) {
    send_error_extra(rq, status, code, message, status == 401 ? "WWW-Authenticate: Bearer\r\n" : "");
}

void http_send_rate_limited(http_request *rq, int retry_after_s) {
    char extra[64];
    snprintf(extra, sizeof extra, "Retry-After: %d\r\n", retry_after_s);
    send_error_extra(rq, 429, "rate_limited", "Too many requests from this address; retry later.", extra);
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
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') ||
              c == '.' || c == ':')) return;
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
}

static bool method_has_body(const char *m) {
    return !strcmp(m, "POST") || !strcmp(m, "PUT") || !strcmp(m, "PATCH") || !strcmp(m, "DELETE");
}

/* After a 413 the connection closes; closing with unread request bytes
 * makes the kernel reset it, which can destroy the answer before the client
 * reads it. So an honest client's remaining body (up to a bound) is read
 * and dropped first. */
static void drain_body(http_request *rq) {
    char buf[16384];
    size_t total = 0;
    int n;
    while (total < HTTP_DRAIN_MAX && (n = mg_read(rq->conn, buf, sizeof buf)) > 0) total += (size_t)n;
}

/* Reads the whole body (Content-Length or chunked) up to HTTP_BODY_MAX.
 * False: it was larger, and a 413 has been sent. */
static bool read_body(http_request *rq) {
    rq->body = malloc(HTTP_BODY_MAX + 2);
    if (!rq->body) {
        http_send_error(rq, 503, "unavailable", "The server is out of memory; nothing changed.");
        return false;
    }
    size_t len = 0;
    for (;;) {
        int n = mg_read(rq->conn, rq->body + len, HTTP_BODY_MAX + 1 - len);
        if (n <= 0) break;
        len += (size_t)n;
        if (len > HTTP_BODY_MAX) {
            http_send_error(rq, 413, "body_too_large", "The request body is over 16 KiB.");
            drain_body(rq);
            return false;
        }
    }
    rq->body[len] = '\0';
    rq->body_len = len;
    return true;
}

static void handle_health(http_request *rq) {
    if (strcmp(rq->method, "GET") && !rq->head) {
        http_send_method_not_allowed(rq, "GET, HEAD");
        return;
    }
    store_game row;
    int rc = store_load_game(rq->srv->st, "healthprobe", &row, NULL, NULL);
    if (rc == STORE_OK) store_game_free_fields(&row);
    if (rc != STORE_OK && rc != STORE_NOT_FOUND) {
        http_send_error(rq, 503, "unavailable", "The database does not answer.");
        return;
    }
    char body[256];
    int n = snprintf(body, sizeof body, "{\"status\":\"ok\",\"version\":\"%s\",\"commit\":\"%s\"}",
                     PG_VERSION, PG_COMMIT);
    http_send_json(rq, 200, body, (size_t)n);
}

static void handle_metrics(http_request *rq) {
    if (strcmp(rq->method, "GET") && !rq->head) {
        http_send_method_not_allowed(rq, "GET, HEAD");
        return;
    }
    metrics_gauges g = { 0 };
    games_count(rq->srv->gm, &g.games_loaded, &g.games_in_play);
    g.websockets = hub_open_count(rq->srv->hb);
    strbuf sb;
    strbuf_init(&sb);
    metrics_render(&sb, &g);
    if (sb.failed) http_send_error(rq, 503, "unavailable", "The server is out of memory.");
    else http_send(rq, 200, "text/plain; version=0.0.4; charset=utf-8", NULL, "", sb.data, sb.len);
    strbuf_free(&sb);
}

static bool rate_limited(http_request *rq) {
    int retry = ratelimit_take(rq->srv->api_limit, rq->client, server_now_ms());
    if (retry > 0) http_send_rate_limited(rq, retry);
    return retry > 0;
}

static void handle_api(http_request *rq) {
    bool writes = method_has_body(rq->method);
    rq->route = writes ? ROUTE_API_WRITE : ROUTE_API_READ;
    if (!strcmp(rq->path, "/api/health")) {
        handle_health(rq);
        return;
    }
    if (rate_limited(rq)) return;
    if (writes && !read_body(rq)) return;
    api_handle(rq);
}

static void dispatch(http_request *rq) {
    long long declared = rq->ri->content_length;
    if (declared > HTTP_BODY_MAX) {
        http_send_error(rq, 413, "body_too_large", "The request body is over 16 KiB.");
        if (declared <= HTTP_DRAIN_MAX) drain_body(rq);
        return;
    }
    if (!strncmp(rq->path, "/api/", 5)) handle_api(rq);
    else if (!strcmp(rq->path, "/metrics")) handle_metrics(rq);
    else static_handle(rq);
}

static bool is_websocket_upgrade(const http_request *rq) {
    const char *up = http_header(rq, "Upgrade");
    return up && !strcasecmp(up, "websocket");
}

static int on_begin_request(struct mg_connection *conn) {
    server_ctx *srv = mg_get_user_data(mg_get_context(conn));
    http_request rq;
    http_request_init(&rq, srv, conn);
    if (is_websocket_upgrade(&rq) && hub_is_socket_path(rq.path) && !strcmp(rq.method, "GET")) {
        int retry = ratelimit_take(srv->api_limit, rq.client, server_now_ms());
        if (retry == 0 && hub_address_full(srv->hb, rq.client)) {
            send_error_extra(&rq, 429, "too_many_connections",
                             "This address holds too many live connections; close one or retry later.",
                             "Retry-After: 10\r\n");
            return 429;
        }
        if (retry == 0) return 0;           /* civetweb hands it to the hub */
        http_send_rate_limited(&rq, retry);
        return 429;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    dispatch(&rq);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rq.status == 0) http_send_error(&rq, 500, "internal", "The server could not answer.");
    metrics_request(rq.route, rq.status,
                    (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    free(rq.body);
    return rq.status;
}

/* civetweb's own errors (malformed requests, oversized headers) get the
 * same JSON shape and headers as ours. */
static int on_http_error(struct mg_connection *conn, int status, const char *msg) {
    (void)msg;
    server_ctx *srv = mg_get_user_data(mg_get_context(conn));
    http_request rq;
    memset(&rq, 0, sizeof rq);
    rq.srv = srv;
    rq.conn = conn;
    mg_disable_connection_keep_alive(conn);
    const char *code = status == 404 ? "not_found" : status == 413 ? "body_too_large"
                     : status < 500 ? "bad_request" : "internal";
    http_send_error(&rq, status, code, reason_phrase(status));
    return 0;
}

static int on_log_message(const struct mg_connection *conn, const char *message) {
    (void)conn;
    fprintf(stderr, "civetweb: %s\n", message);
    return 1;
}

bool http_start(server_ctx *srv, char *err, size_t errlen) {
    if (!mg_check_feature(MG_FEATURES_WEBSOCKET)) {
        snprintf(err, errlen, "this civetweb library was built without WebSocket support");
        return false;
    }
    const server_config *c = &srv->cfg;
    if (strchr(c->listen, ':') && !mg_check_feature(MG_FEATURES_IPV6)) {
        snprintf(err, errlen, "this civetweb library was built without IPv6: listen on an IPv4 "
                              "address (0.0.0.0 for every interface)");
        return false;
    }
    char ports[128], threads[16], queue[16];
    if (strchr(c->listen, ':')) snprintf(ports, sizeof ports, "[%s]:%d", c->listen, c->port);
    else snprintf(ports, sizeof ports, "%s:%d", c->listen, c->port);
    snprintf(threads, sizeof threads, "%d", c->threads + c->max_websockets);
    snprintf(queue, sizeof queue, "%d", c->threads * 8 < 64 ? 64 : c->threads * 8);
    const char *options[] = {
        "listening_ports", ports,
        "num_threads", threads,
        "connection_queue", queue,
        "listen_backlog", "1024",
        "enable_keep_alive", "yes",
        "keep_alive_timeout_ms", "500",
        "request_timeout_ms", "10000",
        "enable_websocket_ping_pong", "yes",
        "websocket_timeout_ms", "30000",
        "tcp_nodelay", "1",
        "max_request_size", "16384",
        NULL
    };
    struct mg_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.begin_request = on_begin_request;
    cb.http_error = on_http_error;
    cb.log_message = on_log_message;
    cb.connection_close = hub_connection_closed;
    srv->mg = mg_start(&cb, srv, options);
    if (!srv->mg) {
        snprintf(err, errlen, "cannot listen on %s (address in use or not available?)", ports);
        return false;
    }
    hub_attach(srv->hb, srv->mg);
    struct mg_server_port bound[4];
    int n = mg_get_server_ports(srv->mg, 4, bound);
    srv->port = n > 0 ? bound[0].port : c->port;
    return true;
}

/* civetweb's accept loop polls its listening socket in 2-second slices and
 * looks at the stop flag only between them; while mg_stop waits for it, a
 * helper connects to our own port every few milliseconds so the loop wakes
 * and sees the flag at once. */
typedef struct waker { atomic_bool done; char host[64]; char port[16]; } waker;

static void *waker_main(void *arg) {
    waker *w = arg;
    struct addrinfo hints, *ai = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
    if (getaddrinfo(w->host, w->port, &hints, &ai) != 0) return NULL;
    for (int i = 0; i < 250 && !atomic_load(&w->done); i++) {
        int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0) {
            connect(fd, ai->ai_addr, ai->ai_addrlen);
            close(fd);
        }
        usleep(20 * 1000);
    }
    freeaddrinfo(ai);
    return NULL;
}

void http_stop(server_ctx *srv) {
    if (!srv->mg) return;
    hub_shutdown(srv->hb);
    waker w;
    atomic_init(&w.done, false);
    const char *listen = srv->cfg.listen;
    snprintf(w.host, sizeof w.host, "%s", !strcmp(listen, "0.0.0.0") ? "127.0.0.1" : !strcmp(listen, "::") ? "::1" : listen);
    snprintf(w.port, sizeof w.port, "%d", srv->port);
    pthread_t t;
    bool waking = pthread_create(&t, NULL, waker_main, &w) == 0;
    mg_stop(srv->mg);
    atomic_store(&w.done, true);
    if (waking) pthread_join(t, NULL);
    srv->mg = NULL;
}
