/* http: civetweb set-up and the dispatcher every request goes through. See
 * http.h.
 *
 * civetweb runs one worker thread per connection, and a WebSocket keeps its
 * worker for as long as it is open, so the pool is sized as the configured
 * request threads plus the WebSocket limit: sockets can never starve plain
 * requests. civetweb serves no files itself (no document_root): static
 * files, pages and errors all come from our handlers, so the security
 * headers and the no-listing rule cannot be bypassed.
 *
 * --metrics-listen adds a second listening port to the same context; a
 * request is told apart by the port it came in on (request_info's
 * server_port): that port serves /metrics and nothing else, and the
 * public one then answers /metrics as any unknown path. */
#include "http/http.h"

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

#include "http/api_games.h"
#include "games/registry.h"
#include "http/http_guard.h"
#include "http/http_reply.h"
#include "http/hub.h"
#include "http/static.h"
#include "util/now.h"
#include "util/strbuf.h"
#include "version.h"

static bool method_has_body(const char *m) {
    return !strcmp(m, "POST") || !strcmp(m, "PUT") || !strcmp(m, "PATCH") || !strcmp(m, "DELETE");
}

/* True for GET and HEAD; otherwise answers 405 and returns false. */
static bool get_only(http_request *rq) {
    if (!strcmp(rq->method, "GET") || rq->head) return true;
    http_send_method_not_allowed(rq, "GET, HEAD");
    return false;
}

/* {"status": status, "version", "commit"}: the probes' answer. */
static void send_probe_status_code(http_request *rq, int code, const char *status) {
    char body[256];
    int n = snprintf(body, sizeof body, "{\"status\":\"%s\",\"version\":\"%s\",\"commit\":\"%s\"}", status,
                     pg_version, pg_commit);
    http_send_json(rq, code, body, (size_t)n);
}

static void send_probe_status(http_request *rq, const char *status) {
    send_probe_status_code(rq, 200, status);
}

static void handle_health(http_request *rq) {
    if (!get_only(rq)) return;
    if (store_ping(rq->srv->st) != STORE_OK) {
        http_send_error(rq, 503, "unavailable", "The database does not answer.");
        return;
    }
    send_probe_status(rq, "ok");
}

/* GET /api/live: 200 as long as this process answers HTTP, without asking
 * the database. It is the load balancer's check in a cluster
 * (docker/haproxy.cfg): every server shares one database, so a database
 * outage fails /api/health on all of them at once, and a balancer that
 * took them all out would answer its own 503 (no JSON, no Retry-After) and
 * cut the requests in flight (502) instead of letting each server answer
 * its 503 and carry on the moment the database is back. */
static void handle_live(http_request *rq) {
    if (!get_only(rq)) return;
    atomic_store(&rq->srv->last_probe_ms, now_monotonic_ms());
    if (!atomic_load(&rq->srv->draining)) {
        send_probe_status(rq, "live");
        return;
    }
    /* Stopping (http_drain.c): the balancer takes this server out while
     * it still answers everything else. */
    send_probe_status_code(rq, 503, "draining");
    atomic_fetch_add(&rq->srv->probes_refused, 1);
}

static void handle_metrics(http_request *rq) {
    if (!get_only(rq)) return;
    metrics_gauges g = { 0 };
    registry_count(rq->srv->gm, &g.games_loaded, &g.games_in_play);
    g.websockets = hub_open_count(rq->srv->hb);
    strbuf sb;
    strbuf_init(&sb);
    metrics_render(&sb, &g);
    if (sb.failed) http_send_error(rq, 503, "unavailable", "The server is out of memory.");
    else http_send(rq, 200, "text/plain; version=0.0.4; charset=utf-8", NULL, "", sb.data, sb.len);
    strbuf_free(&sb);
}

static bool rate_limited(http_request *rq) {
    int retry = ratelimit_take(rq->srv->api_limit, rq->client_key, now_monotonic_ms());
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
    if (!strcmp(rq->path, "/api/live")) {
        handle_live(rq);
        return;
    }
    if (rate_limited(rq)) return;
    if (writes && !(http_guard_json_write(rq) && http_guard_read_body(rq))) return;
    api_handle(rq);
}

/* A body declared too large is refused before anything else, unread (the
 * connection then closes: see http_guard_finish). */
static void dispatch(http_request *rq) {
    if (rq->ri->content_length > HTTP_BODY_MAX) {
        http_send_error(rq, 413, "body_too_large", "The request body is over 16 KiB.");
        return;
    }
    if (!strncmp(rq->path, "/api/", 5)) handle_api(rq);
    else if (!strcmp(rq->path, "/metrics") && !rq->srv->metrics_port) handle_metrics(rq);
    else static_handle(rq);
}

/* The private listener of --metrics-listen: /metrics and nothing else. */
static void dispatch_private(http_request *rq) {
    rq->route = ROUTE_OTHER;
    if (!strcmp(rq->path, "/metrics")) handle_metrics(rq);
    else http_send_error(rq, 404, "not_found", "Only /metrics is served on this address.");
}

static bool is_websocket_upgrade(const http_request *rq) {
    const char *up = http_header(rq, "Upgrade");
    return up && !strcasecmp(up, "websocket");
}

static int on_begin_request(struct mg_connection *conn) {
    server_ctx *srv = mg_get_user_data(mg_get_context(conn));
    http_request rq;
    http_request_init(&rq, srv, conn);
    bool private = srv->metrics_port && rq.ri->server_port == srv->metrics_port;
    if (!private && strcmp(rq.path, "/api/live") != 0) atomic_store(&srv->last_request_ms, now_monotonic_ms());
    if (!private && is_websocket_upgrade(&rq) && hub_is_socket_path(rq.path) && !strcmp(rq.method, "GET")) {
        if (!http_guard_origin_ok(&rq)) {
            http_send_error(&rq, 403, "bad_origin", "WebSockets are open only to this site's own pages.");
            return 403;
        }
        int retry = ratelimit_take(srv->api_limit, rq.client_key, now_monotonic_ms());
        if (retry == 0 && hub_address_full(srv->hb, rq.client_key)) {
            http_send_error_extra(&rq, 429, "too_many_connections",
                                  "This address holds too many live connections; close one or retry later.",
                                  "Retry-After: 10\r\n");
            return 429;
        }
        if (retry == 0) return 0; /* civetweb hands it to the hub */
        http_send_rate_limited(&rq, retry);
        return 429;
    }
    double t0 = now_monotonic_s();
    if (private) dispatch_private(&rq);
    else dispatch(&rq);
    double seconds = now_monotonic_s() - t0;
    if (rq.status == 0) http_send_error(&rq, 500, "internal", "The server could not answer.");
    http_guard_finish(&rq);
    metrics_request(rq.route, rq.status, seconds);
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
    const char *code = status == 404   ? "not_found"
                       : status == 413 ? "body_too_large"
                       : status < 500  ? "bad_request"
                                       : "internal";
    http_send_error(&rq, status, code, http_reason_phrase(status));
    return 0;
}

static int on_log_message(const struct mg_connection *conn, const char *message) {
    (void)conn;
    fprintf(stderr, "civetweb: %s\n", message);
    return 1;
}

/* Can this civetweb serve cfg (WebSockets always, IPv6 when asked)? */
static bool features_ok(const server_config *c, char *err, size_t errlen) {
    if (!mg_check_feature(MG_FEATURES_WEBSOCKET)) {
        snprintf(err, errlen, "this civetweb library was built without WebSocket support");
        return false;
    }
    if ((strchr(c->listen, ':') || c->metrics_listen[0] == '[') && !mg_check_feature(MG_FEATURES_IPV6)) {
        snprintf(err, errlen,
                 "this civetweb library was built without IPv6: listen on an IPv4 "
                 "address (0.0.0.0 for every interface)");
        return false;
    }
    return true;
}

/* civetweb's options text for cfg, into the caller's buffers. */
typedef struct civetweb_numbers {
    char ports[256], threads[16], queue[16];
} civetweb_numbers;

/* The public port first, then --metrics-listen's (already checked by
 * config, in civetweb's own ADDR:PORT form): mg_get_server_ports lists
 * them in this order. */
static void civetweb_numbers_of(const server_config *c, civetweb_numbers *n) {
    bool v6 = strchr(c->listen, ':') != NULL;
    int len = snprintf(n->ports, sizeof n->ports, v6 ? "[%s]:%d" : "%s:%d", c->listen, c->port);
    if (c->metrics_listen[0]) snprintf(n->ports + len, sizeof n->ports - (size_t)len, ",%s", c->metrics_listen);
    snprintf(n->threads, sizeof n->threads, "%d", c->threads + c->max_websockets);
    snprintf(n->queue, sizeof n->queue, "%d", c->threads * 8 < 64 ? 64 : c->threads * 8);
}

bool http_start(server_ctx *srv, char *err, size_t errlen) {
    const server_config *c = &srv->cfg;
    if (!features_ok(c, err, errlen)) return false;
    civetweb_numbers n;
    civetweb_numbers_of(c, &n);
    const char *options[] = { "listening_ports",
                              n.ports,
                              "num_threads",
                              n.threads,
                              "connection_queue",
                              n.queue,
                              "listen_backlog",
                              "1024",
                              "enable_keep_alive",
                              "yes",
                              "keep_alive_timeout_ms",
                              "500",
                              "request_timeout_ms",
                              "10000",
                              "enable_websocket_ping_pong",
                              "yes",
                              "websocket_timeout_ms",
                              "30000",
                              "tcp_nodelay",
                              "1",
                              "max_request_size",
                              "16384",
                              NULL };
    if (!http_guard_init()) {
        snprintf(err, errlen, "cannot set up the request deadline's signal");
        return false;
    }
    struct mg_callbacks cb = { .init_connection = http_guard_connection_opened,
                               .end_request = http_guard_request_ended,
                               .begin_request = on_begin_request,
                               .http_error = on_http_error,
                               .log_message = on_log_message,
                               .connection_close = hub_connection_closed };
    srv->mg = mg_start(&cb, srv, options);
    if (!srv->mg) {
        snprintf(err, errlen, "cannot listen on %s (address in use or not available?)", n.ports);
        return false;
    }
    hub_attach(srv->hb, srv->mg);
    struct mg_server_port bound[4];
    int found = mg_get_server_ports(srv->mg, 4, bound);
    srv->port = found > 0 ? bound[0].port : c->port;
    if (!c->metrics_listen[0]) return true;
    if (found != 2 || bound[1].port == srv->port) {
        snprintf(err, errlen, "cannot tell the metrics listener %s from the public port", c->metrics_listen);
        return false;
    }
    srv->metrics_port = bound[1].port;
    return true;
}

/* civetweb's accept loop polls its listening socket in 2-second slices and
 * looks at the stop flag only between them; while mg_stop waits for it, a
 * helper connects to our own port every few milliseconds so the loop wakes
 * and sees the flag at once. */
typedef struct waker {
    atomic_bool done;
    char host[64];
    char port[16];
} waker;

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
    snprintf(w.host, sizeof w.host, "%s",
             !strcmp(listen, "0.0.0.0") ? "127.0.0.1"
             : !strcmp(listen, "::")    ? "::1"
                                        : listen);
    snprintf(w.port, sizeof w.port, "%d", srv->port);
    pthread_t t;
    bool waking = pthread_create(&t, NULL, waker_main, &w) == 0;
    mg_stop(srv->mg);
    atomic_store(&w.done, true);
    if (waking) pthread_join(t, NULL);
    srv->mg = NULL;
}
