/* fuzz_api_http: every API endpoint's request body (and the WebSocket
 * hello) through the real server, in-process.
 *
 * The server's parsing and validation live in its handlers (src/http/api_*.c,
 * hub.c), which answer through civetweb; rather than reshape them for the
 * fuzzer, this target starts the real server once (its parts assembled as
 * serve_cmd.c does, database in /dev/shm, rate limits off) and sends each
 * input as one request on a fresh loopback connection. So the fuzzer
 * drives exactly the code a client drives, sanitizers watching.
 *
 * Input: byte 0 picks the endpoint (mod 14: 10 is the WebSocket hello,
 * 11-13 chat, name and join), byte 1 the credentials (none, either
 * seat's token, another game's token, junk), byte 2 a query value; the
 * rest is the body (or the WebSocket message). Checks: an answer always
 * comes, complete; its status is one the API documents for a client's
 * mistake or a success (never 5xx: the disk is fine); an error is
 * {"error":{"code","message"}}; a JSON answer parses. Fixture games are
 * replaced every few hundred inputs so play and refusals both happen. */
#include <arpa/inet.h>
#include <civetweb.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "fuzz_util.h"
#include "server/config.h"
#include "games/registry.h"
#include "http/http.h"
#include "http/hub.h"
#include "http/ratelimit.h"
#include "http/server.h"
#include "store/store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static server_ctx srv;

typedef struct fixture {
    char id[32], invite[128], token[3][128]; /* token[BLACK], token[WHITE] */
} fixture;
static fixture fx[2]; /* [0] hotseat (both seats), [1] online (invite open) */
static long inputs;

/* Is the answer complete? For HTTP the server closes (Connection: close);
 * a WebSocket stays open, so its answer is complete after the first frame. */
static bool ws_answer_complete(const char *buf, size_t got) {
    const char *head_end = strstr(buf, "\r\n\r\n");
    if (!head_end) return false;
    if (strncmp(buf, "HTTP/1.1 101", 12) != 0) return false;
    const uint8_t *f = (const uint8_t *)head_end + 4;
    size_t left = got - (size_t)((const char *)f - buf);
    if (left < 2) return false;
    size_t plen = f[1] & 0x7f, off = 2;
    if (plen == 126) {
        if (left < 4) return false;
        plen = (size_t)f[2] << 8 | f[3];
        off = 4;
    }
    return plen == 127 || left >= off + plen;
}

/* libFuzzer's SIGALRM (its -timeout watchdog) interrupts socket calls, and
 * with SO_RCVTIMEO set SA_RESTART does not restart them (signal(7)): an
 * interrupted connect goes on in the background, so wait for it. */
static bool connect_through_signals(int fd, const struct sockaddr_in *to) {
    if (connect(fd, (const struct sockaddr *)to, sizeof *to) == 0) return true;
    if (errno != EINTR) return false;
    struct pollfd p = { .fd = fd, .events = POLLOUT };
    int ready;
    while ((ready = poll(&p, 1, 20000)) < 0 && errno == EINTR) continue;
    int err = 0;
    socklen_t len = sizeof err;
    return ready == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0;
}

/* One request on a new connection; returns the malloc'd raw answer. */
static char *exchange(const char *req, size_t len, bool websocket, size_t *out_len) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    FUZZ_CHECK(fd >= 0, "socket");
    struct timeval tv = { .tv_sec = 20 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    /* Thousands of connections a second leave as many TIME_WAIT 4-tuples
     * (the server closes first) and would run one source address out of
     * ephemeral ports within a minute: spread them over 127.1.0.0/16. */
    static unsigned source;
    source++;
    struct sockaddr_in from = { .sin_family = AF_INET };
    from.sin_addr.s_addr = htonl(0x7f010000u | (source & 0xffffu));
    FUZZ_CHECK(bind(fd, (struct sockaddr *)&from, sizeof from) == 0, "bind a loopback source");
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)srv.port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    FUZZ_CHECK(connect_through_signals(fd, &a), "connect to the server: %s", strerror(errno));
    for (size_t off = 0; off < len;) {
        ssize_t n = send(fd, req + off, len - off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break; /* the server may answer (413) and close before reading it all */
        off += (size_t)n;
    }
    if (!websocket) shutdown(fd, SHUT_WR);
    size_t cap = 1 << 16, got = 0;
    char *buf = malloc(cap + 1);
    /* EINTR (see connect_through_signals) is not the end of the answer. */
    for (ssize_t n; (n = recv(fd, buf + got, cap - got, 0)) > 0 || (n < 0 && errno == EINTR);) {
        if (n < 0) continue;
        got += (size_t)n;
        buf[got] = '\0';
        if (websocket && ws_answer_complete(buf, got)) break;
        if (got == cap) buf = realloc(buf, (cap *= 2) + 1);
    }
    close(fd);
    buf[got] = '\0';
    *out_len = got;
    return buf;
}

static char *http(const char *method, const char *path, const char *token, const uint8_t *body,
                  size_t body_len, size_t *out_len, int *status) {
    size_t cap = 1024 + body_len;
    char *req = malloc(cap);
    int h = snprintf(req, cap,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                     "Content-Type: application/json\r\nContent-Length: %zu\r\n%s%s%s\r\n",
                     method, path, body_len, token ? "Authorization: Bearer " : "", token ? token : "",
                     token ? "\r\n" : "");
    memcpy(req + h, body, body_len);
    char *answer = exchange(req, (size_t)h + body_len, false, out_len);
    free(req);
    *status = strncmp(answer, "HTTP/1.1 ", 9) == 0 ? atoi(answer + 9) : 0;
    return answer;
}

static const char *body_of(const char *answer) {
    const char *b = strstr(answer, "\r\n\r\n");
    return b ? b + 4 : NULL;
}

static cJSON *json_answer(const char *method, const char *path, const char *body, int want) {
    size_t len;
    int status;
    char *a = http(method, path, NULL, (const uint8_t *)body, strlen(body), &len, &status);
    FUZZ_CHECK(status == want, "fixture %s %s: %d %s", method, path, status, a);
    cJSON *j = cJSON_Parse(body_of(a));
    free(a);
    return j;
}

static void copy_str(char *dst, size_t n, const cJSON *s) {
    snprintf(dst, n, "%s", cJSON_GetStringValue(s) ? cJSON_GetStringValue(s) : "");
}

static void make_fixture(fixture *f, const char *body) {
    cJSON *j = json_answer("POST", "/api/v1/games", body, 201);
    copy_str(f->id, sizeof f->id, cJSON_GetObjectItem(cJSON_GetObjectItem(j, "game"), "id"));
    copy_str(f->invite, sizeof f->invite, cJSON_GetObjectItem(j, "invite"));
    f->token[BLACK][0] = f->token[WHITE][0] = '\0';
    const cJSON *seat;
    cJSON_ArrayForEach(seat, cJSON_GetObjectItem(j, "seats")) {
        int c = !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(seat, "color")), "black") ? BLACK : WHITE;
        copy_str(f->token[c], sizeof f->token[c], cJSON_GetObjectItem(seat, "token"));
    }
    cJSON_Delete(j);
}

static void start_server(void) {
    char dir[] = "/dev/shm/pg-fuzz-XXXXXX", db[64], err[512];
    FUZZ_CHECK(mkdtemp(dir), "mkdtemp");
    snprintf(db, sizeof db, "%s/pg.db", dir);
    char *argv[] = {
        "serve", "--port",           "0", "--db", db, "--rate-limit", "0", "--create-limit", "0", "--threads",
        "4",     "--max-websockets", "8", NULL
    };
    FUZZ_CHECK(config_load(&srv.cfg, 13, argv, err, sizeof err) == CONFIG_OK, "config: %s", err);
    signal(SIGPIPE, SIG_IGN);
    mg_init_library(0);
    FUZZ_CHECK(store_open(&srv.st, db, "schema.sql", err, sizeof err) == STORE_OK, "store: %s", err);
    FUZZ_CHECK(registry_open(&srv.gm, srv.st, err, sizeof err) == GAME_OK, "games: %s", err);
    srv.hb = hub_new(&srv);
    srv.api_limit = ratelimit_new(0, 0);
    srv.create_limit = ratelimit_new(0, 0);
    srv.chat_speaker = ratelimit_new(0, 0);
    srv.chat_address = ratelimit_new(0, 0);
    FUZZ_CHECK(srv.hb && srv.api_limit && srv.create_limit && srv.chat_speaker && srv.chat_address,
               "out of memory");
    FUZZ_CHECK(http_start(&srv, err, sizeof err), "http: %s", err);
}

/* A WebSocket upgrade, then the input as the first text message; the
 * first frame back must be an update or an error. */
static void websocket_hello(const char *id, const uint8_t *msg, size_t len) {
    if (len > 8000) len = 8000;
    char *req = malloc(512 + len + 14);
    int h = snprintf(req, 512,
                     "GET /api/v1/games/%s/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Version: 13\r\n\r\n",
                     id);
    size_t n = (size_t)h;
    req[n++] = (char)0x81;
    if (len < 126) req[n++] = (char)(0x80 | len);
    else {
        req[n++] = (char)(0x80 | 126);
        req[n++] = (char)(len >> 8);
        req[n++] = (char)len;
    }
    memset(req + n, 0, 4); /* a zero mask: the payload goes as is */
    n += 4;
    memcpy(req + n, msg, len);
    size_t got;
    char *a = exchange(req, n + len, true, &got);
    free(req);
    FUZZ_CHECK(strncmp(a, "HTTP/1.1 101", 12) == 0, "WebSocket upgrade refused: %.200s", a);
    const uint8_t *f = (const uint8_t *)body_of(a);
    size_t left = got - (size_t)((const char *)f - a);
    if (left >= 2 && (f[0] & 0x0f) == 1) {
        size_t plen = f[1] & 0x7f, off = 2;
        if (plen == 126) {
            plen = (size_t)f[2] << 8 | f[3];
            off = 4;
        }
        if (plen == 127) plen = SIZE_MAX;
        if (plen != SIZE_MAX && off + plen <= left) {
            cJSON *j = cJSON_ParseWithLength((const char *)f + off, plen);
            const char *type = cJSON_GetStringValue(cJSON_GetObjectItem(j, "type"));
            FUZZ_CHECK(type && (!strcmp(type, "update") || !strcmp(type, "error")), "first frame: %.300s",
                       f + off);
            cJSON_Delete(j);
        }
    }
    free(a);
}

static void check_answer(const char *what, const char *answer, int status) {
    /* 501: computer mode, when no computer player is plugged in (none is here). */
    static const int allowed[] = { 200, 201, 400, 401, 403, 404, 405, 409, 413, 501 };
    bool ok = false;
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++) ok = ok || status == allowed[i];
    FUZZ_CHECK(ok, "%s answered %d: %.400s", what, status, answer);
    const char *body = body_of(answer);
    FUZZ_CHECK(body, "%s: no end of head", what);
    const char *ct = strcasestr(answer, "\r\nContent-Type: application/json");
    if (status >= 400 || (ct && ct < body)) {
        cJSON *j = cJSON_Parse(body);
        FUZZ_CHECK(j, "%s: answer %d is not JSON: %.300s", what, status, body);
        if (status >= 400) {
            const cJSON *e = cJSON_GetObjectItem(j, "error");
            FUZZ_CHECK(cJSON_IsString(cJSON_GetObjectItem(e, "code")) &&
                           cJSON_IsString(cJSON_GetObjectItem(e, "message")),
                       "%s: error without code and message: %.300s", what, body);
        }
        cJSON_Delete(j);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!srv.mg) start_server();
    if (inputs++ % 300 == 0) {
        make_fixture(&fx[0], "{\"mode\":\"hotseat\",\"settings\":{\"size\":5}}");
        make_fixture(&fx[1], "{\"mode\":\"online\",\"color\":\"black\"}");
    }
    fuzz_bytes fb = fuzz_bytes_of(data, size);
    unsigned endpoint = fuzz_u8(&fb) % 14, cred = fuzz_u8(&fb) % 6, q = fuzz_u8(&fb);
    const fixture *f = &fx[q & 1];
    const uint8_t *body = data + fb.pos;
    size_t body_len = size - fb.pos;
    const char *token = cred == 1   ? f->token[BLACK]
                        : cred == 2 ? f->token[WHITE]
                        : cred == 3 ? fx[!(q & 1)].token[BLACK]
                        : cred == 4 ? "x"
                                    : NULL;
    if (token && !*token) token = NULL;
    char path[160];
    const char *method = "POST";
    switch (endpoint) {
    case 0: snprintf(path, sizeof path, "/api/v1/games"); break;
    case 1: snprintf(path, sizeof path, "/api/v1/games/%s/claim", f->id); break;
    case 2:
    case 3: snprintf(path, sizeof path, "/api/v1/games/%s/actions", f->id); break;
    case 4:
        method = "PUT";
        snprintf(path, sizeof path, "/api/v1/games/%s/notes", f->id);
        break;
    case 5: snprintf(path, sizeof path, "/api/v1/qr"); break;
    case 6:
        method = "GET";
        snprintf(path, sizeof path, "/api/v1/games/%s/events?since=%d", f->id, (int)q - 8);
        break;
    case 7: snprintf(path, sizeof path, "/api/v1/games/%s/rematch", f->id); break;
    case 8:
        method = "GET";
        snprintf(path, sizeof path, "/api/v1/games/%s", f->id);
        break;
    case 9:
        method = "GET";
        snprintf(path, sizeof path, "/api/v1/games/%s/sgf", f->id);
        break;
    case 11: snprintf(path, sizeof path, "/api/v1/games/%s/chat", f->id); break;
    case 12:
        method = "PUT";
        snprintf(path, sizeof path, "/api/v1/games/%s/name", f->id);
        break;
    case 13: snprintf(path, sizeof path, "/api/v1/games/%s/join", f->id); break;
    default: websocket_hello(f->id, body, body_len); return 0;
    }
    size_t len;
    int status;
    char *answer = http(method, path, token, body, body_len, &len, &status);
    check_answer(path, answer, status);
    free(answer);
    return 0;
}
