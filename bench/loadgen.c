/* loadgen: the load generator of bench/load.sh. Plays many Phantom Go games
 * at once against a running server over its real HTTP API while many
 * spectators watch over WebSockets, and reports errors and latencies.
 *
 * Why C and one epoll loop: on a 2-core machine the generator shares the CPU
 * with the server it measures; one thread multiplexing every socket costs a
 * fraction of what a thread or a Node process per client would.
 *
 * Phases: (1) create --games online games and claim each invite, so every
 * game has two seats with their own tokens; (2) open --spectators WebSockets
 * (one per game, on the first games) and wait for each first update; (3) for
 * --seconds, --conns keep-alive HTTP connections carry the games' actions:
 * whenever a connection is free it takes the next game not waiting for an
 * answer and sends an attempt (or, rarely, a pass) for the seat to move, so
 * every game is in play the whole time and both seats act; (4) drain: wait
 * for the answers in flight and for every spectator to have seen its game's
 * last event. Points are chosen like a blind player: never an own stone,
 * never a point already tried this turn (both known from the seat's last
 * view), so every action is accepted and a 409 counts as an error.
 *
 * A lost keep-alive connection (closed before any byte of the answer) is
 * retried on a new one with the same seq, which the API makes idempotent.
 * Connections bind to source addresses 127.0.0.1..127.0.0.N (--sources N)
 * so per-address limits see N clients, as they would in real life.
 *
 * Output: "key value" lines on stdout (bench/load.sh makes the table). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_POINTS 625
static const char COLUMNS[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

enum { SEAT_BLACK = 0, SEAT_WHITE = 1 };
enum { G_NEW, G_CREATED, G_PLAYING };

typedef struct game {
    char id[32], invite[128], token[2][128];
    int phase, gen;          /* gen: how many games this slot has finished */
    int seq, to_move;        /* to_move: SEAT_*, -1 when over */
    bool busy;               /* an HTTP request for it is in flight */
    bool last_was_pass;
    int watched_seq;         /* for slots with a spectator: the first game's last seq */
    uint8_t own[2][MAX_POINTS];
    uint8_t tried[MAX_POINTS];
} game;

enum { C_HTTP, C_WS };
enum { S_CONNECTING, S_IDLE, S_BUSY, S_WS_HANDSHAKE, S_WS_OPEN, S_DEAD };
enum { R_CREATE, R_CLAIM, R_ACT };

typedef struct conn {
    int fd, kind, state, source;
    char *out; size_t out_len, out_off;
    char *in; size_t in_len, in_cap;
    int game;                /* HTTP: game of the request in flight; WS: watched game */
    int req, retries;
    bool act_is_attempt;
    double sent_at;
    int ws_seq;              /* WS: highest view seq seen */
    bool ws_ready;           /* WS: got the first update */
} conn;

static struct {
    const char *host; int port; int games, spectators, conns, seconds, size, sources;
} cfg = { "127.0.0.1", 8080, 2000, 1000, 64, 60, 9, 1 };

static struct {
    long created, claimed, attempts, passes, moves, illegal, games_finished, retries;
    long errors, ws_frames, ws_errors, http_status[6];
    char first_error[512];
} st;

static game *games;
static conn *conns;
static int nconns, epfd;
static int *ready, ready_head, ready_tail, ready_cap;   /* ring of game indices */
static double *lat; static size_t nlat, cap_lat;
static int phase;   /* 1 setup, 2 spectators, 3 play, 4 drain */
static uint64_t rnd_state;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint32_t rnd(void) {
    rnd_state ^= rnd_state << 13; rnd_state ^= rnd_state >> 7; rnd_state ^= rnd_state << 17;
    return (uint32_t)(rnd_state >> 16);
}

static void error_at(const char *what, const char *detail) {
    st.errors++;
    if (!st.first_error[0])
        snprintf(st.first_error, sizeof st.first_error, "%s: %.400s", what, detail ? detail : "");
}

static void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n);
    if (!q) { perror("realloc"); exit(2); }
    return q;
}

static void ready_push(int g) {
    ready[ready_tail] = g;
    ready_tail = (ready_tail + 1) % ready_cap;
}

static int ready_pop(void) {
    if (ready_head == ready_tail) return -1;
    int g = ready[ready_head];
    ready_head = (ready_head + 1) % ready_cap;
    return g;
}

/* ---- sockets ---- */

static void watch_fd(conn *c, uint32_t events, int op) {
    struct epoll_event ev = { .events = events, .data.ptr = c };
    if (epoll_ctl(epfd, op, c->fd, &ev) < 0) { perror("epoll_ctl"); exit(2); }
}

static bool conn_open(conn *c) {
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0) { error_at("socket", strerror(errno)); return false; }
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (cfg.sources > 1) {
        struct sockaddr_in src = { .sin_family = AF_INET };
        src.sin_addr.s_addr = htonl(0x7f000001u + (uint32_t)(c->source % cfg.sources));
        if (bind(c->fd, (struct sockaddr *)&src, sizeof src) < 0) error_at("bind", strerror(errno));
    }
    struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons((uint16_t)cfg.port) };
    inet_pton(AF_INET, cfg.host, &to.sin_addr);
    if (connect(c->fd, (struct sockaddr *)&to, sizeof to) < 0 && errno != EINPROGRESS) {
        error_at("connect", strerror(errno));
        close(c->fd); c->fd = -1;
        return false;
    }
    c->state = S_CONNECTING;
    c->in_len = 0;
    watch_fd(c, EPOLLOUT | EPOLLIN, EPOLL_CTL_ADD);
    return true;
}

static void conn_close(conn *c) {
    if (c->fd >= 0) { epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL); close(c->fd); }
    c->fd = -1;
    c->state = S_DEAD;
}

/* Queues bytes after whatever is still unsent. */
static void conn_send(conn *c, const char *data, size_t len) {
    if (c->out_off == c->out_len) c->out_off = c->out_len = 0;
    c->out = xrealloc(c->out, c->out_len + len);
    memcpy(c->out + c->out_len, data, len);
    c->out_len += len;
    watch_fd(c, EPOLLIN | EPOLLOUT, EPOLL_CTL_MOD);
}

/* Writes what is pending; returns false if the connection broke. */
static bool conn_flush(conn *c) {
    while (c->out_off < c->out_len) {
        ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
        if (n < 0) return errno == EAGAIN;
        c->out_off += (size_t)n;
    }
    watch_fd(c, EPOLLIN, EPOLL_CTL_MOD);
    return true;
}

/* Reads what is available; returns -1 on error, 0 on EOF, 1 otherwise. */
static int conn_read(conn *c) {
    for (;;) {
        if (c->in_cap - c->in_len < 65536) {
            c->in_cap = c->in_cap ? c->in_cap * 2 : 131072;
            c->in = xrealloc(c->in, c->in_cap);
        }
        ssize_t n = recv(c->fd, c->in + c->in_len, c->in_cap - c->in_len - 1, 0);
        if (n > 0) { c->in_len += (size_t)n; continue; }
        if (n == 0) return 0;
        return errno == EAGAIN ? 1 : -1;
    }
}

/* ---- HTTP ---- */

typedef struct { int status; bool close; const char *body; size_t body_len; size_t total; } http_answer;

static const char *header_value(const char *head, size_t head_len, const char *name) {
    size_t nl = strlen(name);
    for (const char *p = head; p && p < head + head_len; p = memchr(p, '\n', (size_t)(head + head_len - p))) {
        if (*p == '\n') p++;
        if (strncasecmp(p, name, nl) == 0 && p[nl] == ':') {
            p += nl + 1;
            while (*p == ' ') p++;
            return p;
        }
    }
    return NULL;
}

/* Decodes a chunked body in place; returns its length, or -1 if incomplete. */
static long dechunk(char *body, size_t avail, size_t *consumed) {
    size_t in = 0, out = 0;
    for (;;) {
        char *eol = memmem(body + in, avail - in, "\r\n", 2);
        if (!eol) return -1;
        size_t n = strtoul(body + in, NULL, 16);
        in = (size_t)(eol - body) + 2;
        if (n == 0) {
            if (avail - in < 2) return -1;
            *consumed = in + 2;
            return (long)out;
        }
        if (avail - in < n + 2) return -1;
        memmove(body + out, body + in, n);
        out += n;
        in += n + 2;
    }
}

/* Parses a complete answer in c->in; false while incomplete. */
static bool http_parse(conn *c, bool eof, http_answer *a) {
    c->in[c->in_len] = 0;
    char *end = memmem(c->in, c->in_len, "\r\n\r\n", 4);
    if (!end) return false;
    size_t head_len = (size_t)(end - c->in);
    char *body = end + 4;
    size_t avail = c->in_len - head_len - 4;
    memset(a, 0, sizeof *a);
    a->status = atoi(c->in + 9);
    const char *conn_h = header_value(c->in, head_len, "Connection");
    a->close = conn_h && strncasecmp(conn_h, "close", 5) == 0;
    if (strncmp(c->in, "HTTP/1.0", 8) == 0 && !(conn_h && strncasecmp(conn_h, "keep-alive", 10) == 0))
        a->close = true;
    const char *cl = header_value(c->in, head_len, "Content-Length");
    const char *te = header_value(c->in, head_len, "Transfer-Encoding");
    a->body = body;
    if (cl) {
        size_t n = strtoul(cl, NULL, 10);
        if (avail < n) return false;
        a->body_len = n;
        a->total = head_len + 4 + n;
    } else if (te && strncasecmp(te, "chunked", 7) == 0) {
        size_t consumed;
        long n = dechunk(body, avail, &consumed);
        if (n < 0) return false;
        a->body_len = (size_t)n;
        a->total = head_len + 4 + consumed;
    } else {
        if (!eof) return false;
        a->body_len = avail;
        a->total = c->in_len;
        a->close = true;
    }
    body[a->body_len] = 0;
    return true;
}

static void http_request(conn *c, const char *method, const char *path, const char *token, const char *json) {
    char buf[4096];
    int n = snprintf(buf, sizeof buf,
                     "%s %s HTTP/1.1\r\nHost: %s:%d\r\n%s%s%sContent-Type: application/json\r\n"
                     "Content-Length: %zu\r\n\r\n%s",
                     method, path, cfg.host, cfg.port, token ? "Authorization: Bearer " : "",
                     token ? token : "", token ? "\r\n" : "", json ? strlen(json) : 0, json ? json : "");
    c->state = S_BUSY;
    c->sent_at = now_s();
    conn_send(c, buf, (size_t)n);
}

static int point_parse(const char *v, int size) {
    if (!v || !v[0]) return -1;
    const char *col = strchr(COLUMNS, v[0]);
    if (!col) return -1;
    int x = (int)(col - COLUMNS), y = atoi(v + 1) - 1;
    if (x >= size || y < 0 || y >= size) return -1;
    return y * size + x;
}

static int seat_of(const char *color) {
    if (!color) return -1;
    return strcmp(color, "black") == 0 ? SEAT_BLACK : strcmp(color, "white") == 0 ? SEAT_WHITE : -1;
}

/* Picks a point the seat to move may try (not its own stone, not tried this
 * turn); -1 if none is left (then it passes). */
static int choose_point(const game *g) {
    int n = cfg.size * cfg.size;
    for (int i = 0; i < 24; i++) {
        int p = (int)(rnd() % (uint32_t)n);
        if (!g->own[g->to_move][p] && !g->tried[p]) return p;
    }
    int start = (int)(rnd() % (uint32_t)n);
    for (int i = 0; i < n; i++) {
        int p = (start + i) % n;
        if (!g->own[g->to_move][p] && !g->tried[p]) return p;
    }
    return -1;
}

static void send_next_request(conn *c, int gi) {
    game *g = &games[gi];
    char path[128], body[512];
    c->game = gi;
    c->retries = 0;
    g->busy = true;
    if (g->phase == G_NEW) {
        c->req = R_CREATE;
        snprintf(body, sizeof body, "{\"mode\":\"online\",\"color\":\"black\",\"settings\":{\"size\":%d}}", cfg.size);
        http_request(c, "POST", "/api/v1/games", NULL, body);
    } else if (g->phase == G_CREATED) {
        c->req = R_CLAIM;
        snprintf(path, sizeof path, "/api/v1/games/%s/claim", g->id);
        snprintf(body, sizeof body, "{\"invite\":\"%s\"}", g->invite);
        http_request(c, "POST", path, NULL, body);
    } else {
        c->req = R_ACT;
        snprintf(path, sizeof path, "/api/v1/games/%s/actions", g->id);
        int p = rnd() % 100 == 0 ? -1 : choose_point(g);
        c->act_is_attempt = p >= 0;
        if (p >= 0)
            snprintf(body, sizeof body, "{\"seq\":%d,\"action\":\"attempt\",\"vertex\":\"%c%d\"}",
                     g->seq + 1, COLUMNS[p % cfg.size], p / cfg.size + 1);
        else
            snprintf(body, sizeof body, "{\"seq\":%d,\"action\":\"pass\"}", g->seq + 1);
        http_request(c, "POST", path, g->token[g->to_move], body);
    }
}

static void mark_points(uint8_t *set, const cJSON *list, bool value) {
    const cJSON *it;
    cJSON_ArrayForEach(it, list) {
        int p = point_parse(cJSON_GetStringValue(it), cfg.size);
        if (p >= 0) set[p] = value;
    }
}

/* Folds the actor's view and event of an action's answer into the game. */
static void game_update(game *g, int actor, const cJSON *root) {
    const cJSON *view = cJSON_GetObjectItem(root, "view"), *event = cJSON_GetObjectItem(root, "event");
    const char *type = cJSON_GetStringValue(cJSON_GetObjectItem(event, "type"));
    g->seq = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(view, "seq"));
    const cJSON *stones = cJSON_GetObjectItem(view, "stones");
    memset(g->own[actor], 0, sizeof g->own[actor]);
    mark_points(g->own[actor], cJSON_GetObjectItem(stones, actor == SEAT_BLACK ? "black" : "white"), true);
    mark_points(g->own[1 - actor], cJSON_GetObjectItem(event, "captured"), false);
    memset(g->tried, 0, sizeof g->tried);
    mark_points(g->tried, cJSON_GetObjectItem(view, "tried"), true);
    if (type && !strcmp(type, "move")) st.moves++;
    if (type && !strcmp(type, "illegal")) st.illegal++;
    bool over = cJSON_IsTrue(cJSON_GetObjectItem(view, "over"));
    g->to_move = over ? -1 : seat_of(cJSON_GetStringValue(cJSON_GetObjectItem(view, "to_move")));
    if (g->to_move != actor) memset(g->tried, 0, sizeof g->tried);
    if (over) {
        st.games_finished++;
        if (g->gen == 0 && (int)(g - games) < cfg.spectators) g->watched_seq = g->seq;
        g->gen++;
        g->phase = G_NEW;   /* the slot starts a new game */
    }
}

static void handle_create(game *g, const cJSON *root) {
    snprintf(g->id, sizeof g->id, "%s", cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "game"), "id")) ?: "");
    snprintf(g->invite, sizeof g->invite, "%s", cJSON_GetStringValue(cJSON_GetObjectItem(root, "invite")) ?: "");
    const cJSON *seat = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "seats"), 0);
    int s = seat_of(cJSON_GetStringValue(cJSON_GetObjectItem(seat, "color")));
    if (!g->id[0] || !g->invite[0] || s < 0) { error_at("create: unexpected answer", NULL); return; }
    snprintf(g->token[s], sizeof g->token[s], "%s", cJSON_GetStringValue(cJSON_GetObjectItem(seat, "token")) ?: "");
    memset(g->own, 0, sizeof g->own);
    memset(g->tried, 0, sizeof g->tried);
    g->seq = 0;
    g->to_move = SEAT_BLACK;
    g->phase = G_CREATED;
    st.created++;
}

static void handle_claim(game *g, const cJSON *root) {
    int s = seat_of(cJSON_GetStringValue(cJSON_GetObjectItem(root, "color")));
    const char *token = cJSON_GetStringValue(cJSON_GetObjectItem(root, "token"));
    if (s < 0 || !token) { error_at("claim: unexpected answer", NULL); return; }
    snprintf(g->token[s], sizeof g->token[s], "%s", token);
    g->phase = G_PLAYING;
    st.claimed++;
}

static void record_latency(double ms) {
    if (nlat == cap_lat) { cap_lat = cap_lat ? cap_lat * 2 : 65536; lat = xrealloc(lat, cap_lat * sizeof *lat); }
    lat[nlat++] = ms;
}

static void http_done(conn *c, const http_answer *a) {
    game *g = &games[c->game];
    int want = c->req == R_CREATE ? 201 : 200;
    st.http_status[a->status / 100 < 6 ? a->status / 100 : 0]++;
    if (c->req == R_ACT && phase == 3 && c->act_is_attempt) record_latency((now_s() - c->sent_at) * 1000);
    if (c->req == R_ACT) { if (c->act_is_attempt) st.attempts++; else st.passes++; }
    cJSON *root = a->status == want ? cJSON_ParseWithLength(a->body, a->body_len) : NULL;
    if (!root) {
        char what[64];
        snprintf(what, sizeof what, "HTTP %d to request kind %d", a->status, c->req);
        error_at(what, a->body);
    } else if (c->req == R_CREATE) handle_create(g, root);
    else if (c->req == R_CLAIM) handle_claim(g, root);
    else game_update(g, g->to_move, root);
    cJSON_Delete(root);
    g->busy = false;
    if (phase >= 3 || g->phase != G_PLAYING) ready_push(c->game);   /* play starts in phase 3 */
}

/* The connection closed before an answer: reopen it and resend (actions
 * carry their seq, so a resend is idempotent); anything else is an error. */
static void http_retry(conn *c) {
    char *pending = c->out; size_t len = c->out_len;
    c->out = NULL; c->out_len = c->out_off = 0;
    conn_close(c);
    if (c->retries++ >= 2 || !conn_open(c)) {
        error_at("connection lost", NULL);
        free(pending);
        games[c->game].busy = false;
        ready_push(c->game);
        return;
    }
    st.retries++;
    c->out = pending; c->out_len = len; c->out_off = 0;   /* sent once connected */
}

static void http_event(conn *c, uint32_t events) {
    if (c->state == S_CONNECTING && (events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
        int err = 0; socklen_t len = sizeof err;
        getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
        if (err) { error_at("connect", strerror(err)); conn_close(c); return; }
        bool pending = c->out_len > 0 && c->out_off == 0 && c->out;
        c->state = pending ? S_BUSY : S_IDLE;
        if (pending) watch_fd(c, EPOLLIN | EPOLLOUT, EPOLL_CTL_MOD);
        else watch_fd(c, EPOLLIN, EPOLL_CTL_MOD);
    }
    if (c->state == S_BUSY && (events & EPOLLOUT) && !conn_flush(c)) { http_retry(c); return; }
    if (!(events & (EPOLLIN | EPOLLHUP | EPOLLERR))) return;
    int r = conn_read(c);
    if (c->state != S_BUSY) {   /* idle keep-alive connection closed by the server */
        if (r <= 0) { conn_close(c); conn_open(c); }
        return;
    }
    http_answer a;
    if (!http_parse(c, r <= 0, &a)) {
        if (r <= 0) {
            if (c->in_len == 0) http_retry(c);
            else { error_at("truncated answer", c->in); games[c->game].busy = false; ready_push(c->game); conn_close(c); conn_open(c); }
        }
        return;
    }
    http_done(c, &a);
    memmove(c->in, c->in + a.total, c->in_len - a.total);
    c->in_len -= a.total;
    free(c->out); c->out = NULL; c->out_len = c->out_off = 0;
    if (a.close || r <= 0) { conn_close(c); conn_open(c); }
    else c->state = S_IDLE;
}

/* ---- WebSocket spectators ---- */

/* Sends one masked frame; our frames (hello, pong) are under 126 bytes. */
static void ws_send_frame(conn *c, int opcode, const char *payload, size_t n) {
    uint8_t frame[160], mask[4];
    if (n > 125) n = 125;
    if (getrandom(mask, 4, 0) != 4) memset(mask, 0x5a, 4);
    size_t h = 0;
    frame[h++] = (uint8_t)(0x80 | opcode);
    frame[h++] = (uint8_t)(0x80 | n);
    memcpy(frame + h, mask, 4); h += 4;
    for (size_t i = 0; i < n; i++) frame[h + i] = (uint8_t)payload[i] ^ mask[i & 3];
    conn_send(c, (const char *)frame, h + n);
}

static void ws_handshake(conn *c) {
    char buf[512];
    int n = snprintf(buf, sizeof buf,
                     "GET /api/v1/games/%s/ws HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Version: 13\r\n\r\n", games[c->game].id, cfg.host, cfg.port);
    c->state = S_WS_HANDSHAKE;
    conn_send(c, buf, (size_t)n);
}

static void ws_message(conn *c, const char *text, size_t len) {
    st.ws_frames++;
    cJSON *root = cJSON_ParseWithLength(text, len);
    const char *type = cJSON_GetStringValue(cJSON_GetObjectItem(root, "type"));
    if (!type || strcmp(type, "update") != 0) {
        st.ws_errors++;
        error_at("websocket: not an update", text);
    } else {
        int seq = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "view"), "seq"));
        if (seq < c->ws_seq) { st.ws_errors++; error_at("websocket: seq went back", text); }
        c->ws_seq = seq;
        c->ws_ready = true;
    }
    cJSON_Delete(root);
}

/* Consumes complete frames from c->in. */
static void ws_frames(conn *c) {
    size_t off = 0;
    for (;;) {
        uint8_t *p = (uint8_t *)c->in + off;
        size_t avail = c->in_len - off;
        if (avail < 2) break;
        int opcode = p[0] & 0x0f;
        size_t len = p[1] & 0x7f, h = 2;
        if (len == 126) { if (avail < 4) break; len = (size_t)p[2] << 8 | p[3]; h = 4; }
        else if (len == 127) { if (avail < 10) break; len = 0; for (int i = 0; i < 8; i++) len = len << 8 | p[2 + i]; h = 10; }
        if (avail < h + len) break;
        char saved = c->in[off + h + len];
        c->in[off + h + len] = 0;
        if (opcode == 1) ws_message(c, (char *)p + h, len);
        else if (opcode == 9) ws_send_frame(c, 10, (char *)p + h, len);
        else if (opcode == 8) {
            st.ws_errors++;
            error_at("websocket closed by the server", len > 2 ? (char *)p + h + 2 : "");
            c->in[off + h + len] = saved;
            conn_close(c);
            return;
        }
        c->in[off + h + len] = saved;
        off += h + len;
    }
    memmove(c->in, c->in + off, c->in_len - off);
    c->in_len -= off;
}

static void ws_event(conn *c, uint32_t events) {
    if (c->state == S_CONNECTING && (events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
        int err = 0; socklen_t len = sizeof err;
        getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
        if (err) { st.ws_errors++; error_at("websocket connect", strerror(err)); conn_close(c); return; }
        ws_handshake(c);
    }
    if ((events & EPOLLOUT) && c->out_off < c->out_len && !conn_flush(c)) {
        st.ws_errors++; error_at("websocket send", strerror(errno)); conn_close(c); return;
    }
    if (!(events & (EPOLLIN | EPOLLHUP | EPOLLERR))) return;
    int r = conn_read(c);
    if (c->state == S_WS_HANDSHAKE) {
        char *end = memmem(c->in, c->in_len, "\r\n\r\n", 4);
        if (end) {
            if (strncmp(c->in, "HTTP/1.1 101", 12) != 0) {
                c->in[c->in_len] = 0;
                st.ws_errors++; error_at("websocket refused", c->in); conn_close(c); return;
            }
            size_t head = (size_t)(end - c->in) + 4;
            memmove(c->in, c->in + head, c->in_len - head);
            c->in_len -= head;
            c->state = S_WS_OPEN;
            static const char hello[] = "{\"type\":\"hello\",\"token\":null,\"since\":0}";
            ws_send_frame(c, 1, hello, sizeof hello - 1);
        }
    }
    if (c->state == S_WS_OPEN) ws_frames(c);
    if (r <= 0 && c->state != S_DEAD) {
        st.ws_errors++; error_at("websocket dropped", NULL); conn_close(c);
    }
}

/* ---- driver ---- */

static void run_loop_once(void) {
    struct epoll_event evs[512];
    int n = epoll_wait(epfd, evs, 512, 20);
    for (int i = 0; i < n; i++) {
        conn *c = evs[i].data.ptr;
        if (c->state == S_DEAD) continue;
        if (c->kind == C_HTTP) http_event(c, evs[i].events);
        else ws_event(c, evs[i].events);
    }
}

static void dispatch(bool allow_new_requests) {
    if (!allow_new_requests) return;
    for (int i = 0; i < nconns; i++) {
        conn *c = &conns[i];
        if (c->kind != C_HTTP || c->state != S_IDLE) continue;
        int gi = ready_pop();
        if (gi < 0) return;
        send_next_request(c, gi);
    }
}

static int http_in_flight(void) {
    int n = 0;
    for (int i = 0; i < nconns; i++) if (conns[i].kind == C_HTTP && conns[i].state == S_BUSY) n++;
    return n;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double percentile(double q) {
    if (!nlat) return 0;
    size_t i = (size_t)(q * (double)(nlat - 1));
    return lat[i];
}

static void parse_args(int argc, char **argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--host")) cfg.host = v;
        else if (!strcmp(k, "--port")) cfg.port = atoi(v);
        else if (!strcmp(k, "--games")) cfg.games = atoi(v);
        else if (!strcmp(k, "--spectators")) cfg.spectators = atoi(v);
        else if (!strcmp(k, "--conns")) cfg.conns = atoi(v);
        else if (!strcmp(k, "--seconds")) cfg.seconds = atoi(v);
        else if (!strcmp(k, "--size")) cfg.size = atoi(v);
        else if (!strcmp(k, "--sources")) cfg.sources = atoi(v);
        else { fprintf(stderr, "loadgen: unknown option %s\n", k); exit(2); }
    }
    if (cfg.spectators > cfg.games) cfg.spectators = cfg.games;
    if (cfg.size < 5 || cfg.size > 25 || cfg.games < 1 || cfg.conns < 1 || cfg.sources < 1) {
        fprintf(stderr, "loadgen: bad options\n"); exit(2);
    }
}

static bool spectators_ready(void) {
    for (int i = cfg.conns; i < nconns; i++) if (!conns[i].ws_ready && conns[i].state != S_DEAD) return false;
    return true;
}

static bool spectators_caught_up(void) {
    for (int i = cfg.conns; i < nconns; i++) {
        const game *g = &games[conns[i].game];
        int want = g->gen == 0 ? g->seq : g->watched_seq;
        if (conns[i].state != S_DEAD && conns[i].ws_seq < want) return false;
    }
    return true;
}

int main(int argc, char **argv) {
    parse_args(argc, argv);
    rnd_state = 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
    epfd = epoll_create1(EPOLL_CLOEXEC);
    games = calloc((size_t)cfg.games, sizeof *games);
    nconns = cfg.conns + cfg.spectators;
    conns = calloc((size_t)nconns, sizeof *conns);
    ready_cap = cfg.games + 1;
    ready = calloc((size_t)ready_cap, sizeof *ready);
    if (!games || !conns || !ready) { perror("calloc"); return 2; }
    for (int i = 0; i < cfg.games; i++) ready_push(i);
    double t0 = now_s();
    phase = 1;
    for (int i = 0; i < cfg.conns; i++) {
        conns[i] = (conn){ .fd = -1, .kind = C_HTTP, .source = i };
        conn_open(&conns[i]);
    }
    while (st.claimed < cfg.games && now_s() - t0 < 300 && st.errors == 0) { run_loop_once(); dispatch(true); }
    double t_setup = now_s() - t0;
    phase = 2;
    for (int i = 0; i < cfg.spectators; i++) {
        conn *c = &conns[cfg.conns + i];
        *c = (conn){ .fd = -1, .kind = C_WS, .source = cfg.conns + i, .game = i };
        conn_open(c);
        if (i % 50 == 49) for (int k = 0; k < 5; k++) run_loop_once();   /* open them in waves */
    }
    double t1 = now_s();
    while (!spectators_ready() && now_s() - t1 < 60) run_loop_once();
    int ws_open = 0;
    for (int i = cfg.conns; i < nconns; i++) ws_open += conns[i].state == S_WS_OPEN && conns[i].ws_ready;
    double t_ws = now_s() - t1;
    phase = 3;
    for (int i = 0; i < cfg.games; i++) if (games[i].phase == G_PLAYING) ready_push(i);
    long attempts0 = st.attempts + st.passes;
    double t2 = now_s();
    while (now_s() - t2 < cfg.seconds) { run_loop_once(); dispatch(true); }
    double t_play = now_s() - t2;
    long actions = st.attempts + st.passes - attempts0;
    phase = 4;
    double t3 = now_s();
    while ((http_in_flight() > 0 || !spectators_caught_up()) && now_s() - t3 < 30) run_loop_once();
    bool caught_up = spectators_caught_up();
    if (!caught_up) error_at("spectators did not see every event", NULL);
    int ws_alive = 0;
    for (int i = cfg.conns; i < nconns; i++) ws_alive += conns[i].state == S_WS_OPEN;
    qsort(lat, nlat, sizeof *lat, cmp_double);
    printf("games %d\nspectators_requested %d\nspectators_open %d\nspectators_alive_at_end %d\n",
           cfg.games, cfg.spectators, ws_open, ws_alive);
    printf("http_connections %d\nsources %d\nsetup_seconds %.1f\nws_open_seconds %.1f\nplay_seconds %.1f\n",
           cfg.conns, cfg.sources, t_setup, t_ws, t_play);
    printf("games_created %ld\nseats_claimed %ld\ngames_finished %ld\n", st.created, st.claimed, st.games_finished);
    printf("actions %ld\nactions_per_second %.0f\nattempts %ld\nmoves %ld\nillegal %ld\npasses %ld\n",
           actions, (double)actions / t_play, st.attempts, st.moves, st.illegal, st.passes);
    printf("latency_samples %zu\np50_ms %.2f\np90_ms %.2f\np99_ms %.2f\nmax_ms %.2f\n",
           nlat, percentile(0.50), percentile(0.90), percentile(0.99), nlat ? lat[nlat - 1] : 0.0);
    printf("ws_frames %ld\nws_errors %ld\nspectators_caught_up %s\nretries %ld\nerrors %ld\n",
           st.ws_frames, st.ws_errors, caught_up ? "yes" : "no", st.retries, st.errors);
    printf("http_2xx %ld\nhttp_4xx %ld\nhttp_5xx %ld\n", st.http_status[2], st.http_status[4], st.http_status[5]);
    if (st.first_error[0]) printf("first_error %s\n", st.first_error);
    for (int i = 0; i < nconns; i++) conn_close(&conns[i]);
    return st.errors ? 1 : 0;
}
