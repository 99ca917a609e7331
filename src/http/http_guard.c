/* http_guard: content type, origin, and the request deadline (see
 * http_guard.h).
 *
 * The deadline. civetweb reads a body with poll() slices of the request
 * timeout and restarts the wait each time a byte arrives, so a client that
 * sends one byte every few seconds keeps mg_read() going for ever, and the
 * library offers no hook to bound it. Each worker thread therefore owns a
 * POSIX timer that sends its own thread a signal at the deadline and every
 * DEADLINE_REPEAT_MS after it until disarmed: a signal makes the poll()
 * inside mg_read() fail with EINTR, which civetweb reports as a read error,
 * and the repetition covers a poll() entered just after a signal. The
 * handler does nothing; the interruption is the point.
 *
 * When does a request begin? civetweb reads the head before calling us and
 * does not say when it started, so each worker thread notes the time its
 * connection was accepted (init_connection) and the end of each request on
 * it (end_request): the next head cannot begin before either. civetweb
 * itself gives a head at most its request_timeout_ms to arrive. */
#include "http/http_guard.h"

#include <civetweb.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "util/now.h"

enum { DEADLINE_REPEAT_MS = 50 };

#define DEADLINE_SIGNAL (SIGRTMIN + 1)

static _Thread_local int64_t request_began_ms; /* 0: not known, count from now */
static _Thread_local bool timer_made;
static _Thread_local timer_t deadline_timer;
static pthread_key_t timer_key;

static void on_deadline_signal(int sig) { (void)sig; }

static void delete_thread_timer(void *unused) {
    (void)unused;
    if (timer_made) timer_delete(deadline_timer);
    timer_made = false;
}

bool http_guard_init(void) {
    static bool done;
    if (done) return true;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_deadline_signal; /* no SA_RESTART: reads must fail */
    sigemptyset(&sa.sa_mask);
    if (sigaction(DEADLINE_SIGNAL, &sa, NULL) != 0) return false;
    if (pthread_key_create(&timer_key, delete_thread_timer) != 0) return false;
    done = true;
    return true;
}

int http_guard_connection_opened(const struct mg_connection *conn, void **conn_data) {
    (void)conn;
    (void)conn_data;
    request_began_ms = now_monotonic_ms();
    return 0;
}

void http_guard_request_ended(const struct mg_connection *conn, int status) {
    (void)conn;
    (void)status;
    request_began_ms = now_monotonic_ms();
}

/* This thread's timer, made on first use; false if it cannot be made. */
static bool thread_timer(void) {
    if (timer_made) return true;
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = DEADLINE_SIGNAL;
    ev._sigev_un._tid = gettid();
    if (timer_create(CLOCK_MONOTONIC, &ev, &deadline_timer) != 0) return false;
    timer_made = true;
    pthread_setspecific(timer_key, &deadline_timer); /* so that the thread's exit deletes it */
    return true;
}

static void arm_timer(int64_t in_ms) {
    struct itimerspec when = { .it_interval = { 0, DEADLINE_REPEAT_MS * 1000000L } };
    if (in_ms < 1) in_ms = 1; /* 0 would disarm it */
    when.it_value.tv_sec = (time_t)(in_ms / 1000);
    when.it_value.tv_nsec = (long)(in_ms % 1000) * 1000000L;
    timer_settime(deadline_timer, 0, &when, NULL);
}

static void disarm_timer(void) {
    struct itimerspec never;
    memset(&never, 0, sizeof never);
    timer_settime(deadline_timer, 0, &never, NULL);
}

/* ---- content type and origin ------------------------------------------- */

/* "application/json", any case, alone or before ';' and parameters. */
static bool is_json_type(const char *type) {
    while (*type == ' ') type++;
    static const char json[] = "application/json";
    if (strncasecmp(type, json, sizeof json - 1) != 0) return false;
    const char *rest = type + sizeof json - 1;
    while (*rest == ' ') rest++;
    return *rest == '\0' || *rest == ';';
}

static bool has_body(const http_request *rq) {
    return rq->ri->content_length > 0 || http_header(rq, "Transfer-Encoding") != NULL;
}

bool http_guard_json_write(http_request *rq) {
    const char *type = http_header(rq, "Content-Type");
    bool ok = type ? is_json_type(type) : !has_body(rq) && http_header(rq, "Authorization") != NULL;
    if (!ok)
        http_send_error(rq, 415, "unsupported_media_type",
                        "Requests that change something must be sent as Content-Type: application/json.");
    return ok;
}

/* host[:port] of an origin "scheme://host[:port]", or NULL. */
static const char *origin_authority(const char *origin) {
    const char *sep = strstr(origin, "://");
    return sep && sep[3] ? sep + 3 : NULL;
}

bool http_guard_origin_ok(const http_request *rq) {
    const char *origin = http_header(rq, "Origin");
    if (!origin) return true;
    const char *base = rq->srv->cfg.base_url;
    if (base[0] && !strcasecmp(origin, base)) return true;
    const char *host = http_header(rq, "Host");
    const char *authority = origin_authority(origin);
    return host && authority && !strcasecmp(authority, host);
}

/* ---- the body ---------------------------------------------------------- */

static void refuse_slow(http_request *rq) {
    http_close_after(rq);
    http_send_error(rq, 408, "request_timeout", "The request did not arrive whole within 10 seconds.");
}

static void refuse_large(http_request *rq) {
    http_close_after(rq);
    http_send_error(rq, 413, "body_too_large", "The request body is over 16 KiB.");
}

typedef enum { BODY_WHOLE, BODY_TOO_SLOW, BODY_TOO_LARGE } body_outcome;

/* Reads the rest of the body until its end, the request's deadline, or
 * cap + 1 bytes. keep: into buf, which holds cap + 1 bytes; else through
 * buf (bufsize bytes), dropping them. *len: how many were read. */
static body_outcome read_until_deadline(http_request *rq, char *buf, size_t bufsize, size_t cap, bool keep,
                                        size_t *len) {
    int64_t began = request_began_ms ? request_began_ms : now_monotonic_ms();
    int64_t deadline = began + HTTP_REQUEST_DEADLINE_MS;
    bool timed = thread_timer();
    if (timed) arm_timer(deadline - now_monotonic_ms());
    size_t got = 0;
    int n = 0;
    while (got <= cap && now_monotonic_ms() < deadline) {
        size_t at = keep ? got : 0, room = cap + 1 - got;
        if (!keep && room > bufsize) room = bufsize;
        if ((n = mg_read(rq->conn, buf + at, room)) <= 0) break;
        got += (size_t)n;
    }
    if (timed) disarm_timer();
    *len = got;
    if (got > cap) return BODY_TOO_LARGE;
    long long declared = rq->ri->content_length;
    bool ended = declared >= 0 ? (long long)got == declared : n == 0;
    return ended && now_monotonic_ms() < deadline ? BODY_WHOLE : BODY_TOO_SLOW;
}

bool http_guard_read_body(http_request *rq) {
    if (rq->ri->content_length > HTTP_BODY_MAX) {
        refuse_large(rq);
        return false;
    }
    rq->body = malloc(HTTP_BODY_MAX + 2);
    if (!rq->body) {
        http_send_error(rq, 503, "unavailable", "The server is out of memory; nothing changed.");
        return false;
    }
    size_t len = 0;
    body_outcome got = read_until_deadline(rq, rq->body, HTTP_BODY_MAX + 1, HTTP_BODY_MAX, true, &len);
    rq->body_done = true;
    if (got == BODY_TOO_LARGE) refuse_large(rq);
    if (got == BODY_TOO_SLOW) refuse_slow(rq);
    if (got != BODY_WHOLE) return false;
    rq->body[len] = '\0';
    rq->body_len = len;
    return true;
}

/* An answer given before the body was read (404, 415, 429...): a body of
 * allowed size is read and dropped within the request's deadline, so that
 * closing does not reset the connection under the client before it reads
 * the answer, and the connection may serve its next request; anything else
 * closes it unread. */
void http_guard_finish(http_request *rq) {
    if (!has_body(rq) || rq->body_done) return;
    char sink[4096];
    size_t len;
    if (rq->ri->content_length > HTTP_BODY_MAX ||
        read_until_deadline(rq, sink, sizeof sink, HTTP_BODY_MAX, false, &len) != BODY_WHOLE)
        http_close_after(rq);
}
