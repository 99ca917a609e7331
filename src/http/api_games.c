/* api_games: the router of /api/v1/ (see api_games.h and docs/API.md).
 *
 * Routing is a split of the path into "games", an id and an endpoint; the
 * method is checked before the game is loaded, the game before the token,
 * the token before the body, so each refusal is decided by the least
 * information possible. The handlers live by subject in api_seats.c,
 * api_play.c and api_talk.c (api_handlers.h); the one table of endpoints
 * below says which runs for which path and method, and which take an
 * Idempotency-Key. */
#include "http/api_games.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/deadlines.h"
#include "games/games_push.h"
#include "games/lobby.h"
#include "games/retention.h"
#include "http/admin.h"
#include "http/api_handlers.h"
#include "http/api_idempotency.h"
#include "http/api_lesson.h"
#include "http/api_push.h"
#include "http/http_body.h"
#include "util/now.h"
#include "wire/json_number.h"

#define API_PREFIX "/api/v1/"

typedef void (*game_handler)(http_request *rq, game *g);

/* keyed: the endpoint honours an Idempotency-Key (api_idempotency.h). */
typedef struct endpoint {
    const char *name;
    game_handler run;
    const char *methods;
    bool keyed;
} endpoint;

static const endpoint endpoints[] = {
    { "", api_read_view, "GET", false },
    { "claim", api_claim_seat, "POST", true },
    { "join", api_join_seat, "POST", true },
    { "actions", api_act, "POST", false },
    { "events", api_read_events, "GET", false },
    { "notes", api_notes, "GET PUT", false },
    { "rematch", api_rematch, "POST", true },
    { "sgf", api_record, "GET", false },
    { "name", api_rename_seat_name, "PUT", false },
    { "chat", api_chat, "GET POST", false },
    { "cancel", api_cancel, "POST", false },
    { "aid", api_read_aid, "GET", false },
    { "talk", api_erase_own_talk, "DELETE", false },
    { "push", api_push_seat, "PUT DELETE", false },
};

/* A handler and its game, run under an Idempotency-Key. */
typedef struct keyed_call {
    game_handler run;
    game *g;
} keyed_call;

static void run_keyed_call(http_request *rq, void *ctx) {
    const keyed_call *k = ctx;
    k->run(rq, k->g);
}

static void run_create(http_request *rq, void *unused) {
    (void)unused;
    api_create_game(rq);
}

/* /api/v1/games/{id}[/endpoint] */
static void game_route(http_request *rq, const char *rest) {
    char id[24];
    const char *slash = strchr(rest, '/');
    size_t idlen = slash ? (size_t)(slash - rest) : strlen(rest);
    const char *name = slash ? slash + 1 : "";
    const endpoint *ep = NULL;
    for (size_t i = 0; i < sizeof endpoints / sizeof endpoints[0] && !ep; i++)
        if (!strcmp(name, endpoints[i].name)) ep = &endpoints[i];
    if (!strcmp(name, "ws")) {
        http_send_error(rq, 400, "bad_request", "This endpoint needs a WebSocket upgrade.");
        return;
    }
    bool report = !strncmp(name, "chat/", 5);
    if ((!ep && !report) || idlen == 0 || idlen >= sizeof id) {
        http_send_error(rq, 404, "not_found", "No such endpoint.");
        return;
    }
    if (!api_allow(rq, report ? "POST" : ep->methods)) return;
    memcpy(id, rest, idlen);
    id[idlen] = '\0';
    game *g;
    game_status st = registry_get(rq->srv->gm, id, &g);
    if (st != GAME_OK) {
        api_send_status(rq, st);
        return;
    }
    if (report) {
        api_report_chat(rq, g, name + 5);
    } else if (ep->keyed) {
        keyed_call k = { ep->run, g };
        idempotency_run(rq, false, run_keyed_call, &k);
    } else {
        ep->run(rq, g);
    }
    game_release(g);
}

/* GET /api/v1/lobby: the open games and the games in progress. */
static void read_lobby(http_request *rq) {
    if (!api_allow(rq, "GET")) return;
    strbuf sb = { 0 };
    strbuf_append(&sb, "{", 1);
    bool ok = lobby_now_members(rq->srv->lb, &sb);
    strbuf_append(&sb, "}", 1);
    api_send_composed(rq, 200, ok, &sb);
}

/* POST /api/v1/test/clock {"advance_ms":N}: exists only under --test-clock. */
static void test_clock(http_request *rq) {
    static const char *const known[] = { "advance_ms", NULL };
    if (!rq->srv->cfg.test_clock) {
        http_send_error(rq, 404, "not_found", "No such endpoint.");
        return;
    }
    if (!api_allow(rq, "POST")) return;
    cJSON *o = http_body_object(rq);
    if (!o || !http_body_fields_known(rq, o, known)) {
        cJSON_Delete(o);
        return;
    }
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(o, "advance_ms");
    int64_t advance = 0;
    bool ok = json_whole_int64(ms, 0, 1000000000000, &advance);
    cJSON_Delete(o);
    if (!ok || !registry_advance_clock(rq->srv->gm, advance)) {
        http_send_error(rq, 400, "bad_request",
                        "'advance_ms' must be a whole number of milliseconds from 0.");
        return;
    }
    deadlines_wake(rq->srv->dl);
    retention_wake(rq->srv->rt);
    games_push_clock_moved(rq->srv->gp);
    cJSON *now = cJSON_CreateObject();
    if (!cJSON_AddNumberToObject(now, "now_ms", (double)registry_now_ms(rq->srv->gm))) {
        cJSON_Delete(now);
        now = NULL;
    }
    api_send_owned_cjson(rq, 200, now);
}

void api_handle(http_request *rq) {
    const char *p = rq->path;
    if (strncmp(p, API_PREFIX, sizeof API_PREFIX - 1) != 0) {
        http_send_error(rq, 404, "not_found", "No such endpoint.");
        return;
    }
    p += sizeof API_PREFIX - 1;
    if (!strcmp(p, "games")) idempotency_run(rq, true, run_create, NULL);
    else if (!strcmp(p, "qr")) api_qr_code(rq);
    else if (!strcmp(p, "lobby")) read_lobby(rq);
    else if (!strcmp(p, "lobby/ws"))
        http_send_error(rq, 400, "bad_request", "This endpoint needs a WebSocket upgrade.");
    else if (!strcmp(p, "test/clock")) test_clock(rq);
    else if (!strncmp(p, "admin/", 6)) admin_handle(rq, p + 6);
    else if (!strcmp(p, "push/key")) api_push_key(rq);
    else if (!strncmp(p, "games/", 6)) game_route(rq, p + 6);
    else if (!strncmp(p, "lesson/", 7)) api_lesson(rq, p + 7);
    else http_send_error(rq, 404, "not_found", "No such endpoint.");
}

