/* hub: WebSocket connections, their hello, and their writer threads. See
 * hub.h.
 *
 * civetweb offers no way to close a WebSocket from another thread or to
 * bound a write, so at connection time the hub finds the socket's file
 * descriptor (the one accepted socket whose peer and local port are this
 * connection's) and, when a socket must go (a failed write, no hello, the
 * server stopping), shuts it down: civetweb's reader then sees the end,
 * runs the close handler, and closes the descriptor itself. shutdown(2)
 * never frees the descriptor, so it cannot hit a reused one while the
 * connection lives. */
#include "http/hub.h"

#include <arpa/inet.h>
#include <civetweb.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "games/registry.h"
#include "http/http_reply.h"
#include "games/lobby.h"
#include "util/metrics.h"
#include "wire/json_number.h"
#include "wire/json_parse.h"
#include "wire/json_print.h"

enum { HELLO_TIMEOUT_MS = 10000, MESSAGE_MAX = 4096, WRITER_STACK = 256 * 1024 };
/* Chat messages read from the store at a time for a socket catching up. */
enum { CHAT_BATCH = 100 };
#define SOCKET_PREFIX "/api/v1/games/"
#define LOBBY_PATH "/api/v1/lobby/ws"

typedef struct hub_conn {
    game_watcher watcher; /* first: the notify callback finds the conn from it */
    hub *hb;
    struct mg_connection *conn;
    int fd;              /* -1 if not found */
    game *g;             /* referenced; NULL for the lobby */
    bool lobby;          /* a lobby socket: watches the lobby, not a game */
    const char *refused; /* over a limit: closed at once, with this
                                   reason; NULL for an accepted socket */
    bool counted;        /* holds one of its address's sockets */
    atomic_bool close_sent; /* our close frame went: nothing may follow it */
    char client[48];     /* its address's key for the per-address cap (/64 for IPv6) */

    pthread_mutex_t lock; /* the fields below */
    pthread_cond_t wake;
    bool hello_done, due, closing;
    bool restart; /* the server is stopping: send what is due, then close 1012 */
    viewer who;
    int sent_seq;
    /* Table talk: a room this viewer reads got a message; the last message
     * number sent of each room; whether the update that ends the game was
     * sent (only then may a player's socket carry the spectators' room). */
    bool chat_due, sent_over;
    /* The client's heartbeat ({"type":"ping"}) waits for its pong. */
    bool pong_due;
    int chat_sent[3];
    /* Removed messages this socket had sent, to tell as chat_removed:
     * (room, n) pairs, malloc'd, grown as needed. */
    int (*removals)[2];
    int n_removals, cap_removals;
    game_mode mode;
    bool writer_started;
    pthread_t writer;
    struct hub_conn *next, *prev; /* hub list (hub lock) */
} hub_conn;

/* Open sockets of one client address (hub lock). */
typedef struct address_count {
    char addr[48];
    int n;
    struct address_count *next;
} address_count;

struct hub {
    server_ctx *srv;
    atomic_long open;
    pthread_mutex_t lock;
    hub_conn *conns;
    address_count *per_address; /* addresses with open sockets; few, so a list */
    bool stopping;
    bool restarting; /* hub_restart was called: new sockets close 1012 at once */
};

hub *hub_new(server_ctx *srv) {
    hub *hb = calloc(1, sizeof *hb);
    if (!hb) return NULL;
    hb->srv = srv;
    atomic_init(&hb->open, 0);
    pthread_mutex_init(&hb->lock, NULL);
    return hb;
}

void hub_free(hub *hb) {
    if (!hb) return;
    for (address_count *a = hb->per_address, *next; a; a = next) {
        next = a->next;
        free(a);
    }
    pthread_mutex_destroy(&hb->lock);
    free(hb);
}

long hub_open_count(hub *hb) { return atomic_load(&hb->open); }

/* Open sockets per client address (--websockets-per-address): without a cap
 * one address could take every socket of --max-websockets (each a thread)
 * from everyone. */
/* The count of addr, or NULL; under the hub lock. */
static address_count *address_find(hub *hb, const char *addr) {
    address_count *a = hb->per_address;
    while (a && strcmp(a->addr, addr)) a = a->next;
    return a;
}

bool hub_address_full(hub *hb, const char *addr) {
    pthread_mutex_lock(&hb->lock);
    address_count *a = address_find(hb, addr);
    bool full = a && a->n >= hb->srv->cfg.websockets_per_address;
    pthread_mutex_unlock(&hb->lock);
    return full;
}

/* Counts one more socket of addr; false (nothing counted) past the cap. */
static bool address_take(hub *hb, const char *addr) {
    pthread_mutex_lock(&hb->lock);
    address_count *a = address_find(hb, addr);
    if (!a && (a = calloc(1, sizeof *a)) != NULL) {
        snprintf(a->addr, sizeof a->addr, "%s", addr);
        a->next = hb->per_address;
        hb->per_address = a;
    }
    bool ok = a && a->n < hb->srv->cfg.websockets_per_address;
    if (ok) a->n++;
    pthread_mutex_unlock(&hb->lock);
    return ok;
}

static void address_give(hub *hb, const char *addr) {
    pthread_mutex_lock(&hb->lock);
    for (address_count **link = &hb->per_address; *link; link = &(*link)->next) {
        address_count *a = *link;
        if (strcmp(a->addr, addr)) continue;
        if (--a->n == 0) {
            *link = a->next;
            free(a);
        }
        break;
    }
    pthread_mutex_unlock(&hb->lock);
}

/* Writes the game id of a socket path into id (24 bytes). */
static bool socket_path_id(const char *path, char id[24]) {
    if (strncmp(path, SOCKET_PREFIX, sizeof SOCKET_PREFIX - 1)) return false;
    const char *p = path + sizeof SOCKET_PREFIX - 1, *slash = strchr(p, '/');
    if (!slash || slash == p || slash - p > 20 || strcmp(slash, "/ws")) return false;
    memcpy(id, p, (size_t)(slash - p));
    id[slash - p] = '\0';
    return true;
}

bool hub_is_socket_path(const char *path) {
    char id[24];
    return socket_path_id(path, id) || !strcmp(path, LOBBY_PATH);
}

/* ---- the socket's descriptor -------------------------------------------- */

static bool same_peer(const struct sockaddr_storage *ss, const char *addr, int port) {
    char text[INET6_ADDRSTRLEN];
    if (ss->ss_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)ss;
        return ntohs(in->sin_port) == port && inet_ntop(AF_INET, &in->sin_addr, text, sizeof text) &&
               !strcmp(text, addr);
    }
    if (ss->ss_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)ss;
        return ntohs(in6->sin6_port) == port && inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof text) &&
               (!strcmp(text, addr) || (!strncmp(text, "::ffff:", 7) && !strcmp(text + 7, addr)));
    }
    return false;
}

static int local_port(int fd) {
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &len) != 0) return -1;
    if (ss.ss_family == AF_INET) return ntohs(((struct sockaddr_in *)&ss)->sin_port);
    if (ss.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
    return -1;
}

static int find_socket_fd(const struct mg_request_info *ri) {
    DIR *d = opendir("/proc/self/fd");
    if (!d) return -1;
    int found = -1;
    for (struct dirent *e; found < 0 && (e = readdir(d)) != NULL;) {
        char *end;
        long fd = strtol(e->d_name, &end, 10);
        if (*end || end == e->d_name || fd == dirfd(d)) continue;
        struct sockaddr_storage ss;
        socklen_t len = sizeof ss;
        if (getpeername((int)fd, (struct sockaddr *)&ss, &len) != 0) continue;
        if (same_peer(&ss, ri->remote_addr, ri->remote_port) && local_port((int)fd) == ri->server_port)
            found = (int)fd;
    }
    closedir(d);
    return found;
}

static void cut(hub_conn *hc) {
    if (hc->fd >= 0) shutdown(hc->fd, SHUT_RDWR);
}

/* ---- frames ------------------------------------------------------------- */

/* civetweb reports a write that timed out half-way as the bytes it did
 * write: only the whole frame counts as sent (the stream is broken
 * otherwise, and the caller closes the socket). */
static bool send_text(hub_conn *hc, const char *text, size_t len) {
    return len > 0 && mg_websocket_write(hc->conn, MG_WEBSOCKET_OPCODE_TEXT, text, len) == (int)len;
}

static void send_close(hub_conn *hc, int code, const char *reason) {
    char payload[125];
    size_t n = strlen(reason);
    if (n > sizeof payload - 2) n = sizeof payload - 2;
    payload[0] = (char)(code >> 8);
    payload[1] = (char)(code & 0xff);
    memcpy(payload + 2, reason, n);
    atomic_store(&hc->close_sent, true);
    mg_websocket_write(hc->conn, MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE, payload, n + 2);
}

static void send_error(hub_conn *hc, const char *code, const char *message) {
    cJSON *o = cJSON_CreateObject(), *err = cJSON_CreateObject();
    char *text = NULL;
    if (o && err && cJSON_AddStringToObject(o, "type", "error")) {
        cJSON_AddItemToObject(o, "error", err);
        err = NULL;
        cJSON *e = cJSON_GetObjectItemCaseSensitive(o, "error");
        if (cJSON_AddStringToObject(e, "code", code) && cJSON_AddStringToObject(e, "message", message))
            text = cJSON_PrintUnformatted(o);
    }
    if (text) send_text(hc, text, strlen(text));
    cJSON_free(text);
    cJSON_Delete(err);
    cJSON_Delete(o);
    send_close(hc, 1008, code);
}

/* ---- the writer --------------------------------------------------------- */

static void on_game_changed(game_watcher *w) {
    hub_conn *hc = (hub_conn *)w;
    pthread_mutex_lock(&hc->lock);
    hc->due = true;
    pthread_cond_signal(&hc->wake);
    pthread_mutex_unlock(&hc->lock);
}

/* A message in `room`: due only if this socket's viewer may read that room
 * now, so a player's socket never even wakes for the spectators' room
 * before it has sent the end of the game. */
static void on_game_talk(game_watcher *w, int room) {
    hub_conn *hc = (hub_conn *)w;
    pthread_mutex_lock(&hc->lock);
    if (hc->hello_done && game_room_readable(hc->mode, hc->who, room, hc->sent_over)) {
        hc->chat_due = true;
        pthread_cond_signal(&hc->wake);
    }
    pthread_mutex_unlock(&hc->lock);
}

/* Message n of `room` was removed: due if this socket's viewer reads that
 * room now, so every socket that had it hears (one that was about to get
 * it hears too, and then gets its tombstone: nothing it could not read). */
static void on_game_removed(game_watcher *w, int room, int n) {
    hub_conn *hc = (hub_conn *)w;
    pthread_mutex_lock(&hc->lock);
    bool had = hc->hello_done && game_room_readable(hc->mode, hc->who, room, hc->sent_over);
    if (had && hc->n_removals == hc->cap_removals) {
        int cap = hc->cap_removals ? 2 * hc->cap_removals : 8;
        int(*grown)[2] = realloc(hc->removals, (size_t)cap * sizeof *grown);
        if (grown) {
            hc->removals = grown;
            hc->cap_removals = cap;
        } else {
            had = false;
            fprintf(stderr, "phantomgo: hub: out of memory for a removal\n");
        }
    }
    if (had) {
        hc->removals[hc->n_removals][0] = room;
        hc->removals[hc->n_removals++][1] = n;
        hc->chat_due = true;
        pthread_cond_signal(&hc->wake);
    }
    pthread_mutex_unlock(&hc->lock);
}

/* Sends {"type":"chat_removed","room":..,"n":..} for each removal due;
 * false when a write failed. */
static bool send_removals(hub_conn *hc) {
    pthread_mutex_lock(&hc->lock);
    int(*list)[2] = hc->removals;
    int count = hc->n_removals;
    hc->removals = NULL;
    hc->n_removals = hc->cap_removals = 0;
    pthread_mutex_unlock(&hc->lock);
    bool ok = true;
    for (int i = 0; ok && i < count; i++) {
        char frame[96];
        int len = snprintf(frame, sizeof frame, "{\"type\":\"chat_removed\",\"room\":\"%s\",\"n\":%d}",
                           list[i][0] == GAME_ROOM_PLAYERS ? "players" : "spectators", list[i][1]);
        ok = send_text(hc, frame, (size_t)len);
    }
    free(list);
    return ok;
}

/* Waits until an update, chat or pong is due or the server restarts (true;
 * *update, *pong and *restart tell which) or the socket is closing
 * (false); closes a socket that sent no hello in time. */
static bool wait_due(hub_conn *hc, bool *update, bool *pong, bool *restart) {
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += HELLO_TIMEOUT_MS / 1000;
    bool due = false, late = false;
    pthread_mutex_lock(&hc->lock);
    while (!hc->closing && !hc->due && !hc->chat_due && !hc->pong_due && !hc->restart && !late) {
        if (hc->hello_done) pthread_cond_wait(&hc->wake, &hc->lock);
        else late = pthread_cond_timedwait(&hc->wake, &hc->lock, &deadline) == ETIMEDOUT;
    }
    *update = *pong = false;
    *restart = hc->restart && !hc->closing;
    if (!hc->closing && (hc->due || hc->chat_due || hc->pong_due || hc->restart)) {
        *update = hc->due && hc->hello_done;
        *pong = hc->pong_due;
        hc->due = hc->chat_due = hc->pong_due = false;
        due = true;
    }
    late = late && !hc->hello_done && !hc->closing && !hc->restart;
    pthread_mutex_unlock(&hc->lock);
    if (late) {
        send_error(hc, "bad_request", "The first message must be a hello.");
        cut(hc);
    }
    return due;
}

/* {"type":"update","events":[seq > since],"view":{..}} for viewer who,
 * into frame; *over: that view says the game has ended. */
static bool update_frame(game *g, viewer who, int since, strbuf *frame, int *seq, bool *over) {
    strbuf_puts(frame, "{\"type\":\"update\",");
    bool ok = game_update_text(g, who, since, frame, seq, over);
    strbuf_append(frame, "}", 1);
    return ok && !frame->failed;
}

/* {"type":"lobby","open":..,"playing":..}: the lobby's lists as a frame,
 * into frame. */
static bool lobby_frame(hub *hb, strbuf *frame) {
    strbuf_puts(frame, "{\"type\":\"lobby\",");
    bool ok = lobby_now_members(hb->srv->lb, frame);
    strbuf_append(frame, "}", 1);
    return ok && !frame->failed;
}

typedef struct chat_sending {
    hub_conn *hc;
    int sent; /* the last message number sent */
} chat_sending;

/* game_chat_frames' callback: sends one message's frame. */
static bool send_chat_frame(void *ctx, int n, const char *frame, size_t len) {
    chat_sending *cs = ctx;
    if (!send_text(cs->hc, frame, len)) return false;
    cs->sent = n;
    return true;
}

/* Sends the messages of the rooms this viewer reads that it has not had
 * yet, one {"type":"chat"} frame each; false when a write failed. */
static bool send_chat(hub_conn *hc) {
    pthread_mutex_lock(&hc->lock);
    viewer who = hc->who;
    bool over = hc->sent_over;
    int sent[3] = { 0, hc->chat_sent[1], hc->chat_sent[2] };
    pthread_mutex_unlock(&hc->lock);
    for (int room = GAME_ROOM_PLAYERS; room <= GAME_ROOM_SPECTATORS; room++) {
        if (!game_room_readable(hc->mode, who, room, over)) continue;
        while (game_chat_last(hc->g, room) > sent[room]) {
            chat_sending cs = { hc, sent[room] };
            game_status st = game_chat_frames(hc->g, room, sent[room], CHAT_BATCH, send_chat_frame, &cs);
            if (st != GAME_OK || cs.sent == sent[room]) return false;
            sent[room] = cs.sent;
        }
    }
    pthread_mutex_lock(&hc->lock);
    hc->chat_sent[1] = sent[1];
    hc->chat_sent[2] = sent[2];
    pthread_mutex_unlock(&hc->lock);
    return true;
}

/* The answer to a heartbeat, sent after whatever was due with it, so a
 * pong also says the updates before it arrived. */
static const char PONG[] = "{\"type\":\"pong\"}";

static void *writer_main(void *arg) {
    hub_conn *hc = arg;
    bool update, pong, restart;
    while (wait_due(hc, &update, &pong, &restart)) {
        pthread_mutex_lock(&hc->lock);
        viewer who = hc->who;
        int since = hc->sent_seq;
        pthread_mutex_unlock(&hc->lock);
        int seq = since;
        bool ok = true, over = false;
        if (update) {
            strbuf frame = { 0 };
            ok = hc->lobby ? lobby_frame(hc->hb, &frame) : update_frame(hc->g, who, since, &frame, &seq, &over);
            ok = ok && send_text(hc, frame.data, frame.len);
            strbuf_free(&frame);
        }
        if (ok && update) {
            pthread_mutex_lock(&hc->lock);
            hc->sent_seq = seq;
            hc->sent_over = hc->sent_over || over;
            pthread_mutex_unlock(&hc->lock);
        }
        if (ok && !hc->lobby && hc->hello_done) ok = send_chat(hc);
        if (ok && !hc->lobby && hc->hello_done) ok = send_removals(hc);
        if (ok && pong) ok = send_text(hc, PONG, sizeof PONG - 1);
        if (!ok) {
            cut(hc);
            break;
        }
        if (restart) {
            /* Everything due went first; the client answers the close and
             * reconnects, to another server behind a balancer. */
            send_close(hc, 1012, "server restart");
            break;
        }
    }
    return NULL;
}

/* ---- civetweb's handlers ------------------------------------------------ */

static void refuse_upgrade(struct mg_connection *conn, hub *hb, int status, const char *code,
                           const char *msg) {
    http_request rq;
    http_request_init(&rq, hb->srv, conn);
    http_close_after(&rq);
    http_send_error(&rq, status, code, msg);
}

/* A socket's state for game g (NULL: the lobby), counted against the
 * server's and its address's caps (over one, it is refused: closed as soon
 * as it is ready). NULL when out of memory. */
static hub_conn *conn_new(hub *hb, struct mg_connection *conn, game *g, bool is_lobby) {
    hub_conn *hc = calloc(1, sizeof *hc);
    if (!hc) return NULL;
    hc->hb = hb;
    hc->conn = conn;
    hc->g = g;
    hc->lobby = is_lobby;
    hc->fd = -1;
    hc->watcher.notify = on_game_changed;
    if (g) {
        hc->watcher.talk = on_game_talk;
        hc->watcher.removed = on_game_removed;
        hc->mode = game_get_mode(g);
    }
    pthread_mutex_init(&hc->lock, NULL);
    pthread_cond_init(&hc->wake, NULL);
    http_request rq;
    http_request_init(&rq, hb->srv, conn);
    snprintf(hc->client, sizeof hc->client, "%s", rq.client_key);
    if (atomic_fetch_add(&hb->open, 1) >= hb->srv->cfg.max_websockets) {
        atomic_fetch_sub(&hb->open, 1);
        hc->refused = "too many connections";
    } else if (!(hc->counted = address_take(hb, hc->client))) {
        atomic_fetch_sub(&hb->open, 1);
        hc->refused = "too many connections from this address";
    }
    if (hc->refused) metrics_ws_refused();
    return hc;
}

static int on_connect(const struct mg_connection *cconn, void *cbdata) {
    hub *hb = cbdata;
    struct mg_connection *conn = (struct mg_connection *)cconn; /* civetweb passes it const */
    char id[24];
    game *g = NULL;
    const struct mg_request_info *ri = mg_get_request_info(conn);
    bool is_lobby = !strcmp(ri->local_uri, LOBBY_PATH);
    game_status st = is_lobby                            ? GAME_OK
                      : socket_path_id(ri->local_uri, id) ? registry_get(hb->srv->gm, id, &g)
                                                          : GAME_NOT_FOUND;
    if (st != GAME_OK) {
        if (st == GAME_NOT_FOUND) refuse_upgrade(conn, hb, 404, "not_found", "No such game.");
        else refuse_upgrade(conn, hb, 503, "unavailable", "The game cannot be loaded now.");
        return 1;
    }
    hub_conn *hc = conn_new(hb, conn, g, is_lobby);
    if (!hc) {
        game_release(g);
        refuse_upgrade(conn, hb, 503, "unavailable", "The server is out of memory.");
        return 1;
    }
    mg_set_user_connection_data(conn, hc);
    return 0;
}

static void ask_restart(hub_conn *hc) {
    pthread_mutex_lock(&hc->lock);
    hc->restart = true;
    pthread_cond_signal(&hc->wake);
    pthread_mutex_unlock(&hc->lock);
}

static void hub_list_add(hub *hb, hub_conn *hc) {
    pthread_mutex_lock(&hb->lock);
    hc->next = hb->conns;
    if (hb->conns) hb->conns->prev = hc;
    hb->conns = hc;
    if (hb->stopping) cut(hc);
    if (hb->restarting) ask_restart(hc);
    pthread_mutex_unlock(&hb->lock);
}

static void hub_list_remove(hub *hb, hub_conn *hc) {
    pthread_mutex_lock(&hb->lock);
    if (hc->prev) hc->prev->next = hc->next;
    else if (hb->conns == hc) hb->conns = hc->next;
    if (hc->next) hc->next->prev = hc->prev;
    pthread_mutex_unlock(&hb->lock);
}

static void on_ready(struct mg_connection *conn, void *cbdata) {
    hub *hb = cbdata;
    hub_conn *hc = mg_get_user_connection_data(conn);
    if (!hc) return;
    hc->fd = find_socket_fd(mg_get_request_info(conn));
    if (hc->refused) {
        send_close(hc, 1013, hc->refused);
        cut(hc);
        return;
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, WRITER_STACK);
    hc->writer_started = pthread_create(&hc->writer, &attr, writer_main, hc) == 0;
    pthread_attr_destroy(&attr);
    if (!hc->writer_started) {
        send_close(hc, 1011, "server busy");
        cut(hc);
        return;
    }
    hub_list_add(hb, hc);
}

/* The hello's viewer: a seat for its token, a spectator without one;
 * false (with the error) for a token that is not a seat here. */
static bool hello_viewer(hub_conn *hc, const cJSON *token, viewer *who, const char **code, const char **msg) {
    int seat = cJSON_IsString(token) && !hc->lobby ? game_seat_of(hc->g, token->valuestring) : 0;
    if (cJSON_IsString(token) && !hc->lobby && !seat) {
        *code = "bad_token";
        *msg = "This token is not a seat of this game.";
        return false;
    }
    *who = seat ? (viewer)seat : VIEWER_SPECTATOR;
    return true;
}

/* {"type":"hello","token":"..."|null,"since":N}: false with an error code. */
static bool parse_hello(hub_conn *hc, const cJSON *o, const char **code, const char **msg) {
    *code = "bad_request";
    *msg = "The first message must be {\"type\":\"hello\",\"token\":..,\"since\":N}.";
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(o, "type");
    const cJSON *token = cJSON_GetObjectItemCaseSensitive(o, "token");
    const cJSON *since = cJSON_GetObjectItemCaseSensitive(o, "since");
    int since_seq = 0;
    viewer who = VIEWER_SPECTATOR;
    bool ok = cJSON_IsObject(o) && cJSON_IsString(type) && !strcmp(type->valuestring, "hello") &&
              (!token || cJSON_IsNull(token) || cJSON_IsString(token)) &&
              (!since || json_whole_int(since, 0, 1000000000, &since_seq)) &&
              hello_viewer(hc, token, &who, code, msg);
    if (ok) {
        pthread_mutex_lock(&hc->lock);
        hc->who = who;
        hc->sent_seq = since_seq;
        for (int room = GAME_ROOM_PLAYERS; !hc->lobby && room <= GAME_ROOM_SPECTATORS; room++)
            hc->chat_sent[room] = game_chat_last(hc->g, room); /* earlier ones: GET .../chat */
        pthread_mutex_unlock(&hc->lock);
    }
    return ok;
}

/* After the hello: the socket watches its game (or the lobby) and counts
 * as present before its first frame is due, so that frame already shows
 * this seat connected (or this spectator counted) and no second frame
 * follows it for the socket's own arrival. A change heard meanwhile is
 * in the first frame, which is built when it is sent. on_close undoes
 * the watch once hello_done is set; both run on the connection's thread. */
static void start_updates(hub_conn *hc) {
    if (hc->lobby) {
        lobby_watch(hc->hb->srv->lb, &hc->watcher);
    } else {
        game_watch(hc->g, &hc->watcher);
        game_presence(hc->g, (int)hc->who, +1);
    }
    pthread_mutex_lock(&hc->lock);
    hc->hello_done = true;
    hc->due = true;
    pthread_cond_signal(&hc->wake);
    pthread_mutex_unlock(&hc->lock);
}

/* {"type":"ping"}: the page's heartbeat. Browsers cannot send WebSocket
 * ping frames, so it is a message of our own, answered on this socket by
 * the writer with {"type":"pong"}: the same path every update takes. */
static bool is_ping(const cJSON *o) {
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(o, "type");
    return cJSON_IsString(type) && !strcmp(type->valuestring, "ping");
}

static void wake_for_pong(hub_conn *hc) {
    pthread_mutex_lock(&hc->lock);
    hc->pong_due = true;
    pthread_cond_signal(&hc->wake);
    pthread_mutex_unlock(&hc->lock);
}

static int on_data(struct mg_connection *conn, int bits, char *data, size_t len, void *cbdata) {
    (void)cbdata;
    hub_conn *hc = mg_get_user_connection_data(conn);
    int opcode = bits & 0x0f;
    if (!hc || hc->refused) return 0;
    if (opcode == MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE) {
        /* The client's answer to our close (a 1012) ends the socket as it
         * is: a second close frame would be a protocol error, which
         * browsers report as an abnormal close (1006). */
        if (!atomic_exchange(&hc->close_sent, true))
            mg_websocket_write(conn, MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE, data, len < 2 ? len : 2);
        return 0;
    }
    if (opcode != MG_WEBSOCKET_OPCODE_TEXT) return 1; /* nothing else is expected */
    if (len > MESSAGE_MAX) {
        if (hc->hello_done) return 1; /* anything else after the hello is ignored */
        send_error(hc, "body_too_large", "The message is too large.");
        return 0;
    }
    json_parse_status why;
    cJSON *o = json_parse(data, len, &why);
    if (why == JSON_PARSE_TOO_DEEP || why == JSON_PARSE_NUL) {
        send_error(hc, "bad_request", json_parse_message(why)); /* and close this socket only */
        return 0;
    }
    if (hc->hello_done) {
        if (is_ping(o)) wake_for_pong(hc);
        cJSON_Delete(o);
        return 1; /* anything else after the hello is ignored */
    }
    const char *code, *msg;
    bool hello_ok = parse_hello(hc, o, &code, &msg);
    cJSON_Delete(o);
    if (!hello_ok) {
        send_error(hc, code, msg);
        return 0;
    }
    start_updates(hc);
    return 1;
}

static void conn_free(hub_conn *hc) {
    if (!hc->refused) atomic_fetch_sub(&hc->hb->open, 1);
    if (hc->counted) address_give(hc->hb, hc->client);
    game_release(hc->g);
    free(hc->removals);
    pthread_mutex_destroy(&hc->lock);
    pthread_cond_destroy(&hc->wake);
    free(hc);
}

static void on_close(const struct mg_connection *conn, void *cbdata) {
    hub *hb = cbdata;
    hub_conn *hc = mg_get_user_connection_data(conn);
    if (!hc) return;
    pthread_mutex_lock(&hc->lock);
    bool watching = hc->hello_done;
    hc->closing = true;
    pthread_cond_signal(&hc->wake);
    pthread_mutex_unlock(&hc->lock);
    if (watching && hc->lobby) lobby_unwatch(hb->srv->lb, &hc->watcher);
    if (watching && !hc->lobby) {
        game_unwatch(hc->g, &hc->watcher);
        game_presence(hc->g, (int)hc->who, -1);
    }
    if (hc->writer_started) {
        cut(hc); /* a writer blocked on a full socket returns */
        pthread_join(hc->writer, NULL);
        hub_list_remove(hb, hc);
    }
    mg_set_user_connection_data(conn, NULL);
    conn_free(hc);
}

void hub_connection_closed(const struct mg_connection *conn) {
    hub_conn *hc = mg_get_user_connection_data(conn);
    if (hc) conn_free(hc); /* no writer, no watch: the handshake never completed */
}

void hub_attach(hub *hb, struct mg_context *mg) {
    mg_set_websocket_handler(mg, "/api/v1/games", on_connect, on_ready, on_data, on_close, hb);
    mg_set_websocket_handler(mg, LOBBY_PATH, on_connect, on_ready, on_data, on_close, hb);
}

void hub_restart(hub *hb) {
    pthread_mutex_lock(&hb->lock);
    hb->restarting = true;
    for (hub_conn *hc = hb->conns; hc; hc = hc->next) ask_restart(hc);
    pthread_mutex_unlock(&hb->lock);
}

void hub_shutdown(hub *hb) {
    pthread_mutex_lock(&hb->lock);
    hb->stopping = true;
    for (hub_conn *hc = hb->conns; hc; hc = hc->next) cut(hc);
    pthread_mutex_unlock(&hb->lock);
}
