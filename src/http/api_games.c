/* api_games: the /api/v1/ handlers. See api_games.h and docs/API.md.
 *
 * Routing is a split of the path into "games", an id and an endpoint; the
 * method is checked before the game is loaded, the game before the token,
 * the token before the body, so each refusal is decided by the least
 * information possible. */
#include "http/api_games.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "engine/vertex.h"
#include "games/deadlines.h"
#include "games/registry.h"
#include "games/games_push.h"
#include "games/lobby.h"
#include "games/retention.h"
#include "http/admin.h"
#include "http/api_idempotency.h"
#include "http/api_lesson.h"
#include "http/api_push.h"
#include "http/http_body.h"
#include "util/game_mode.h"
#include "util/now.h"
#include "util/strbuf.h"
#include "util/utf8.h"
#include "wire/clock_json.h"
#include "wire/json_number.h"
#include "wire/json_parse.h"
#include "wire/json_print.h"
#include "wire/qr_svg.h"
#include "wire/settings_json.h"
#include "wire/chat_json.h"
#include "wire/view_json.h"

#define API_PREFIX "/api/v1/"
/* The most messages of one room one GET .../chat answers. */
#define CHAT_READ_MAX 500

typedef struct status_error {
    game_status st;
    int http;
    const char *code, *message;
} status_error;

static const status_error errors[] = {
    { GAME_NOT_FOUND, 404, "not_found", "No such game." },
    { GAME_UNAVAILABLE, 503, "unavailable", "The database cannot be written now; nothing changed." },
    { GAME_ERROR, 500, "internal", "The server failed to answer." },
    { GAME_STALE_SEQ, 409, "stale_seq", "'seq' is not the next sequence number; read the view again." },
    { GAME_NOT_YOUR_TURN, 409, "not_your_turn", "It is not your turn." },
    { GAME_ALREADY_TRIED, 409, "already_tried", "You already tried this point this turn." },
    { GAME_OWN_STONE, 409, "own_stone", "One of your own stones is on that point." },
    { GAME_GAME_OVER, 409, "game_over", "The game has ended." },
    { GAME_BAD_VERTEX, 400, "bad_vertex", "'vertex' is not a point of this board." },
    { GAME_SEAT_TAKEN, 409, "seat_taken", "There is no free seat: the invite was already used." },
    { GAME_BAD_INVITE, 403, "bad_invite", "The invite secret is wrong." },
    { GAME_NOT_OVER, 409, "game_not_over", "A rematch needs a finished game." },
    { GAME_NO_BOT, 501, "not_implemented", "The computer player is not available yet." },
    { GAME_TOO_EARLY, 409, "too_early",
      "The game cannot be claimed: your opponent is not to move, or is "
      "still within the time limit." },
    { GAME_NOT_PUBLIC, 403, "not_public", "This game is not open to everyone: it needs its invite." },
    { GAME_CANCELLED, 409, "game_cancelled", "This game was cancelled." },
    { GAME_CHAT_CLOSED, 403, "chat_closed", "This game has no spectators' room: only its players talk." },
    { GAME_CHAT_FULL, 409, "chat_full", "This chat room is full." },
    { GAME_AID_OFF, 403, "aid_off", "The deduction aid is off at this table." },
    { GAME_AID_FOR_SEATS, 401, "token_required",
      "The deduction aid is for the players until the game ends: send your seat token." },
    { GAME_AID_NOT_YOURS, 403, "aid_not_yours", "A seat reads only its own deduction aid until the game ends." },
    { GAME_BAD_AID_REQUEST, 400, "bad_request",
      "After the end, 'color' must name a seat (spectators must name one unless the computer played) "
      "and 'seq' a position before the end, from 0." },
    { GAME_NO_REMATCH, 409, "no_rematch", "There is no open rematch offer." },
    { GAME_NOT_OFFERER, 409, "not_offerer", "Only the player who offered the rematch can withdraw it." },
    { GAME_OWN_OFFER, 409, "own_offer", "This rematch offer is your own: withdraw it instead." },
};

static void send_status(http_request *rq, game_status st) {
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].st == st) {
            http_send_error(rq, errors[i].http, errors[i].code, errors[i].message);
            return;
        }
    http_send_error(rq, 500, "internal", "The server failed to answer.");
}

static void send_cjson(http_request *rq, int status, const cJSON *o) {
    size_t len = 0;
    char *text = o ? json_print(o, &len) : NULL;
    if (text) http_send_json(rq, status, text, len);
    else http_send_error(rq, 500, "internal", "The server ran out of memory.");
    free(text);
}

/* Sends o (which may be NULL: out of memory) and frees it. */
static void send_owned_cjson(http_request *rq, int status, cJSON *o) {
    send_cjson(rq, status, o);
    cJSON_Delete(o);
}

/* ---- request helpers ----------------------------------------------------- */

typedef enum { TOKEN_NONE, TOKEN_BAD, TOKEN_GIVEN } token_kind;

static token_kind bearer_token(const http_request *rq, const char **token) {
    const char *h = http_header(rq, "Authorization");
    *token = NULL;
    if (!h || !*h) return TOKEN_NONE;
    if (strncasecmp(h, "Bearer ", 7) != 0) return TOKEN_BAD;
    *token = h + 7;
    while (**token == ' ') (*token)++;
    return **token ? TOKEN_GIVEN : TOKEN_NONE;
}

/* The viewer a request speaks for: a seat, or a spectator without a token.
 * False after answering 403 for a token that is not a seat here. */
static bool viewer_of(http_request *rq, game *g, viewer *v) {
    const char *token;
    token_kind k = bearer_token(rq, &token);
    int seat = k == TOKEN_GIVEN ? game_seat_of(g, token) : 0;
    if (k == TOKEN_BAD || (k == TOKEN_GIVEN && !seat)) {
        http_send_error(rq, 403, "bad_token", "This token is not a seat of this game.");
        return false;
    }
    *v = seat ? (viewer)seat : VIEWER_SPECTATOR;
    return true;
}

/* The seat a request must act for: 401 without a token, 403 with a wrong one. */
static int seat_of(http_request *rq, game *g) {
    const char *token;
    token_kind k = bearer_token(rq, &token);
    if (k == TOKEN_NONE) {
        http_send_error(rq, 401, "token_required", "This needs a seat token (Authorization: Bearer).");
        return 0;
    }
    int seat = k == TOKEN_GIVEN ? game_seat_of(g, token) : 0;
    if (!seat) http_send_error(rq, 403, "bad_token", "This token is not a seat of this game.");
    return seat;
}

/* Is rq's method one of `methods` ("GET PUT"; GET also admits HEAD)? If
 * not, answers 405 naming them. */
static bool allow(http_request *rq, const char *methods) {
    char list[32], allow_header[64] = "";
    snprintf(list, sizeof list, "%s", methods);
    bool ok = false;
    for (char *save, *m = strtok_r(list, " ", &save); m; m = strtok_r(NULL, " ", &save)) {
        bool get = !strcmp(m, "GET");
        ok = ok || !strcmp(rq->method, m) || (get && rq->head);
        snprintf(allow_header + strlen(allow_header), sizeof allow_header - strlen(allow_header), "%s%s%s",
                 allow_header[0] ? ", " : "", m, get ? ", HEAD" : "");
    }
    if (!ok) http_send_method_not_allowed(rq, allow_header);
    return ok;
}

/* ---- create -------------------------------------------------------------- */

static bool read_choice(http_request *rq, const cJSON *o, const char *field, const char *const *values,
                        const char *fallback, const char **out) {
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, field);
    *out = fallback;
    if (!f) {
        if (fallback) return true;
    } else if (cJSON_IsString(f)) {
        for (const char *const *v = values; *v; v++)
            if (!strcmp(f->valuestring, *v)) {
                *out = *v;
                return true;
            }
    }
    char msg[128];
    snprintf(msg, sizeof msg, "'%s' must be one of the documented values.", field);
    http_send_error(rq, 400, "bad_request", msg);
    return false;
}

/* "deduction_aid": true or false; by default on against the computer
 * only (between people it changes the game, so they opt in). */
static bool read_aid_choice(http_request *rq, const cJSON *o, game_new *req) {
    const cJSON *aid = cJSON_GetObjectItemCaseSensitive(o, "deduction_aid");
    if (aid && !cJSON_IsBool(aid)) {
        http_send_error(rq, 400, "bad_request", "'deduction_aid' must be true or false.");
        return false;
    }
    req->aid = aid ? cJSON_IsTrue(aid) : req->mode == MODE_COMPUTER;
    return true;
}

/* "time_control" (default untimed) and "public" (online games only). */
static bool read_clock_and_lobby(http_request *rq, const cJSON *o, game_new *req) {
    const cJSON *tc = cJSON_GetObjectItemCaseSensitive(o, "time_control");
    const cJSON *pub = cJSON_GetObjectItemCaseSensitive(o, "public");
    char err[160];
    req->tc = time_control_none();
    if (tc && !time_control_from_json(tc, &req->tc, err, sizeof err)) {
        http_send_error(rq, 400, "bad_request", err);
        return false;
    }
    if (pub && (!cJSON_IsBool(pub) || (cJSON_IsTrue(pub) && req->mode != MODE_ONLINE))) {
        http_send_error(rq, 400, "bad_request",
                        "'public' must be true or false, and true only for online games.");
        return false;
    }
    req->public_game = cJSON_IsTrue(pub);
    return true;
}

/* ---- table talk: names, chat, cancelling ---------------------------------- */

/* 400 bad_text naming the field and the reason (docs/API.md, Text rules). */
static void send_bad_text(http_request *rq, const char *field, const talk_verdict *v, const char *message) {
    cJSON *o = cJSON_CreateObject();
    cJSON *e = o ? cJSON_AddObjectToObject(o, "error") : NULL;
    bool ok = e && cJSON_AddStringToObject(e, "code", "bad_text") &&
              cJSON_AddStringToObject(e, "message", message) && cJSON_AddStringToObject(e, "field", field) &&
              cJSON_AddStringToObject(e, "reason", talk_fault_code(v->fault));
    if (!ok) {
        cJSON_Delete(o);
        http_send_error(rq, 400, "bad_text", message);
        return;
    }
    send_owned_cjson(rq, 400, o);
}

/* A name field of a request (absent or null: none); false after answering. */
static bool read_name(http_request *rq, const cJSON *o, char name[TALK_NAME_MAX_BYTES]) {
    talk_verdict v;
    char err[200];
    chat_json_status st =
        chat_json_parse_name(cJSON_GetObjectItemCaseSensitive(o, "name"), true, name, &v, err, sizeof err);
    if (st == CHAT_JSON_BAD_TEXT) send_bad_text(rq, "name", &v, err);
    else if (st != CHAT_JSON_OK) http_send_error(rq, 400, "bad_request", err);
    return st == CHAT_JSON_OK;
}

/* Renames seat `color` of the game `id` just created. */
static game_status rename_seat(http_request *rq, const char *id, int color, const char *name) {
    game *g;
    game_status st = registry_get(rq->srv->gm, id, &g);
    if (st != GAME_OK) return st;
    st = game_rename(g, color, name);
    game_release(g);
    return st;
}

static bool read_new_game(http_request *rq, const cJSON *o, game_new *req) {
    static const char *const known[] = { "mode",   "color", "level",         "settings", "time_control",
                                         "public", "name",  "deduction_aid", NULL };
    static const char *const modes[] = { "online", "hotseat", "computer", NULL };
    static const char *const colors[] = { "black", "white", "random", NULL };
    static const char *const levels[] = { "easy", "medium", "strong", NULL };
    const char *mode, *color;
    memset(req, 0, sizeof *req);
    if (!http_body_fields_known(rq, o, known) || !read_choice(rq, o, "mode", modes, NULL, &mode) ||
        !read_choice(rq, o, "color", colors, "random", &color) ||
        !read_choice(rq, o, "level", levels, "medium", &req->level))
        return false;
    bool known_mode = mode_parse(mode, &req->mode);
    assert(known_mode); /* read_choice took one of modes[], util's names */
    (void)known_mode;
    if (!read_clock_and_lobby(rq, o, req) || !read_aid_choice(rq, o, req)) return false;
    const cJSON *settings = cJSON_GetObjectItemCaseSensitive(o, "settings");
    char err[160];
    if (!settings) req->settings = settings_default();
    else if (!cJSON_IsObject(settings) || !settings_from_json(settings, &req->settings, err, sizeof err)) {
        char msg[200];
        snprintf(msg, sizeof msg, "settings: %s", cJSON_IsObject(settings) ? err : "must be an object");
        http_send_error(rq, 400, "bad_request", msg);
        return false;
    }
    if (!strcmp(color, "random")) {
        uint8_t bit = 0;
        if (!secrets_random_bytes(&bit, 1)) bit = 0;
        color = (bit & 1) ? "white" : "black";
    }
    req->creator_color = !strcmp(color, "black") ? BLACK : WHITE;
    return true;
}

/* "seats":[{"color":..,"token":..}] for the caller's seats, and the play
 * link that carries them (#seat=..&seat=..). False when out of memory. */
static bool add_seats(cJSON *o, cJSON *links, const char *base, const game_created *c) {
    cJSON *seats = cJSON_AddArrayToObject(o, "seats");
    strbuf play;
    strbuf_init(&play);
    strbuf_printf(&play, "%s/g/%s", base, c->id);
    bool ok = seats != NULL;
    for (int color = BLACK; ok && color <= WHITE; color++) {
        if (!c->token[color][0]) continue;
        cJSON *seat = cJSON_CreateObject();
        ok = cJSON_AddItemToArray(seats, seat) &&
             cJSON_AddStringToObject(seat, "color", view_json_color_name(color)) &&
             cJSON_AddStringToObject(seat, "token", c->token[color]);
        strbuf_printf(&play, "%cseat=%s", color == BLACK || !c->token[BLACK][0] ? '#' : '&', c->token[color]);
    }
    ok = ok && !play.failed && cJSON_AddStringToObject(links, "play", play.data);
    strbuf_free(&play);
    return ok;
}

/* The invite (if any) and the links of a new game. False when out of memory. */
static bool add_links(cJSON *o, cJSON *links, const char *base, const game_created *c) {
    char link[512];
    if (c->invite[0]) {
        snprintf(link, sizeof link, "%s/g/%s#invite=%s", base, c->id, c->invite);
        if (!cJSON_AddStringToObject(o, "invite", c->invite) ||
            !cJSON_AddStringToObject(links, "invite", link))
            return false;
    }
    snprintf(link, sizeof link, "%s/g/%s", base, c->id);
    return cJSON_AddStringToObject(links, "watch", link) != NULL;
}

/* {"game":..,"seats":[..],"invite":..,"links":{..}} for a new game; NULL
 * when out of memory (never an answer without its seat token). */
static cJSON *created_json(http_request *rq, game *g, const game_created *c) {
    char base[300];
    http_base_url(rq, base, sizeof base);
    view_table t;
    memset(&t, 0, sizeof t);
    t.game_id = c->id;
    t.mode = mode_name(game_get_mode(g));
    t.level = game_level(g);
    t.tc = game_get_time_control(g);
    t.public_game = game_is_public(g);
    t.deduction_aid = game_has_aid(g);
    cJSON *o = cJSON_CreateObject(), *links = cJSON_CreateObject();
    cJSON *game_obj = view_json_game(&t, game_get_settings(g));
    bool ok = o && links && game_obj && cJSON_AddItemToObject(o, "game", game_obj);
    if (ok) game_obj = NULL;
    ok = ok && add_seats(o, links, base, c);
    /* "invite" comes before "links" in the object, as documented. */
    ok = ok && add_links(o, links, base, c) && cJSON_AddItemToObject(o, "links", links);
    if (ok) return o;
    cJSON_Delete(game_obj);
    if (!cJSON_GetObjectItemCaseSensitive(o, "links")) cJSON_Delete(links);
    cJSON_Delete(o);
    return NULL;
}

static void send_created(http_request *rq, int status, const game_created *c) {
    game *g;
    game_status st = registry_get(rq->srv->gm, c->id, &g);
    if (st != GAME_OK) {
        send_status(rq, st);
        return;
    }
    send_owned_cjson(rq, status, created_json(rq, g, c));
    game_release(g);
}

static void create_game(http_request *rq) {
    if (!allow(rq, "POST") || !admin_allows(rq, ADMIN_DO_CREATE, NULL, VIEWER_SPECTATOR)) return;
    int retry = ratelimit_take(rq->srv->create_limit, rq->client_key, now_monotonic_ms());
    if (retry > 0) {
        http_send_rate_limited(rq, retry);
        return;
    }
    cJSON *o = http_body_object(rq);
    game_new req;
    if (!o || !read_new_game(rq, o, &req)) {
        cJSON_Delete(o);
        return;
    }
    /* Under an Idempotency-Key the id and secrets (and a random colour)
     * are the key's, the same on every run of the request. */
    game_created drawn;
    int bit;
    bool seeded = idempotency_drawn_game(rq, &drawn, &bit);
    const cJSON *color = cJSON_GetObjectItemCaseSensitive(o, "color");
    if (seeded && (!color || !strcmp(color->valuestring, "random"))) req.creator_color = bit ? WHITE : BLACK;
    char name[TALK_NAME_MAX_BYTES];
    bool named = read_name(rq, o, name);
    if (named && name[0] && req.mode == MODE_HOTSEAT) {
        http_send_error(rq, 400, "bad_request",
                        "'name' is not for hot-seat games: name each seat with PUT .../name.");
        named = false;
    }
    cJSON_Delete(o);
    if (!named) return;
    game_created c;
    game_status st = seeded ? registry_create_drawn(rq->srv->gm, &req, &drawn, &c)
                             : registry_create(rq->srv->gm, &req, &c);
    /* The seat exists now: its token is answered even if its name could
     * not be stored (it can be given again with PUT .../name). */
    if (st == GAME_OK && name[0]) rename_seat(rq, c.id, c.token[BLACK][0] ? BLACK : WHITE, name);
    if (st != GAME_OK) send_status(rq, st);
    else send_created(rq, 201, &c);
}

/* ---- one game ------------------------------------------------------------ */

/* Sends the JSON text in sb (200), or a 500 when composing it failed;
 * frees sb either way. */
static void send_composed(http_request *rq, bool ok, strbuf *sb) {
    if (ok && !sb->failed) http_send_json(rq, 200, sb->data, sb->len);
    else http_send_error(rq, 500, "internal", "The server ran out of memory.");
    strbuf_free(sb);
}

static void read_view(http_request *rq, game *g) {
    viewer v;
    if (!viewer_of(rq, g, &v)) return;
    strbuf sb = { 0 };
    bool ok = game_view_text(g, v, &sb, NULL);
    send_composed(rq, ok, &sb);
}

static bool query_since(http_request *rq, int *since) {
    char value[32];
    *since = 0;
    int n = http_query_param(rq, "since", value, sizeof value);
    if (n == -1) return true; /* absent: everything */
    char *end;
    long v = strtol(value, &end, 10);
    if (n <= 0 || *end || end == value || v < 0 || v > 1000000000) {
        http_send_error(rq, 400, "bad_request", "'since' must be a whole number from 0.");
        return false;
    }
    *since = (int)v;
    return true;
}

/* ?seq=N&color=black|white of GET .../aid: -1 and 0 when absent. */
static bool aid_query(http_request *rq, int *seq, int *color) {
    char value[32];
    *seq = -1;
    *color = 0;
    int n = http_query_param(rq, "seq", value, sizeof value);
    if (n != -1) {
        char *end;
        long v = strtol(value, &end, 10);
        if (n <= 0 || *end || end == value || v < 0 || v > 1000000000) {
            http_send_error(rq, 400, "bad_request", "'seq' must be a whole number from 0.");
            return false;
        }
        *seq = (int)v;
    }
    n = http_query_param(rq, "color", value, sizeof value);
    if (n == -1) return true;
    *color = !strcmp(value, "black") ? BLACK : !strcmp(value, "white") ? WHITE : 0;
    if (!*color) http_send_error(rq, 400, "bad_request", "'color' must be black or white.");
    return *color != 0;
}

/* GET .../aid: the deduction aid (game_aid decides who may read what). */
static void read_aid(http_request *rq, game *g) {
    viewer v;
    int seq, color;
    if (!viewer_of(rq, g, &v) || !aid_query(rq, &seq, &color)) return;
    char *json;
    game_status st = game_aid(g, v, color, seq, &json);
    if (st != GAME_OK) send_status(rq, st);
    else http_send_json(rq, 200, json, strlen(json));
    free(json);
}

static void read_events(http_request *rq, game *g) {
    viewer v;
    int since;
    if (!viewer_of(rq, g, &v) || !query_since(rq, &since)) return;
    strbuf sb = { 0 };
    strbuf_append(&sb, "{", 1);
    bool ok = game_update_text(g, v, since, &sb, NULL, NULL);
    strbuf_append(&sb, "}", 1);
    send_composed(rq, ok, &sb);
}

/* {"color":..,"token":..}: a seat just taken. */
static void send_seat(http_request *rq, int color, const char *token) {
    cJSON *o = cJSON_CreateObject();
    if (!cJSON_AddStringToObject(o, "color", view_json_color_name(color)) ||
        !cJSON_AddStringToObject(o, "token", token)) {
        cJSON_Delete(o);
        o = NULL;
    }
    send_owned_cjson(rq, 200, o);
}

static void claim_seat(http_request *rq, game *g) {
    static const char *const known[] = { "invite", "name", NULL };
    if (!admin_allows(rq, ADMIN_DO_JOIN, g, VIEWER_SPECTATOR)) return;
    cJSON *o = http_body_object(rq);
    if (!o || !http_body_fields_known(rq, o, known)) {
        cJSON_Delete(o);
        return;
    }
    const cJSON *invite = cJSON_GetObjectItemCaseSensitive(o, "invite");
    if (!cJSON_IsString(invite)) {
        http_send_error(rq, 400, "bad_request", "'invite' must be the invite secret (a string).");
        cJSON_Delete(o);
        return;
    }
    char name[TALK_NAME_MAX_BYTES];
    if (!read_name(rq, o, name)) {
        cJSON_Delete(o);
        return;
    }
    int color = 0;
    char token[SECRET_TEXT_LEN + 1];
    game_status st = game_claim(g, invite->valuestring, &color, token);
    cJSON_Delete(o);
    if (st == GAME_OK && name[0]) game_rename(g, color, name); /* the seat is answered regardless */
    if (st != GAME_OK) {
        send_status(rq, st);
        return;
    }
    send_seat(rq, color, token);
}

/* POST /api/v1/games/{id}/join: the free seat of a public game (the lobby). */
static void join_seat(http_request *rq, game *g) {
    static const char *const known[] = { "name", NULL };
    char name[TALK_NAME_MAX_BYTES] = "";
    if (!admin_allows(rq, ADMIN_DO_JOIN, g, VIEWER_SPECTATOR)) return;
    if (rq->body_len) { /* no body, or {} or {"name":..} */
        cJSON *o = http_body_object(rq);
        bool ok = o && http_body_fields_known(rq, o, known) && read_name(rq, o, name);
        cJSON_Delete(o);
        if (!ok) return;
    }
    int color = 0;
    char token[SECRET_TEXT_LEN + 1];
    game_status st = game_join(g, &color, token);
    if (st == GAME_OK && name[0]) game_rename(g, color, name); /* the seat is answered regardless */
    if (st != GAME_OK) send_status(rq, st);
    else send_seat(rq, color, token);
}

static void act(http_request *rq, game *g) {
    int color = seat_of(rq, g);
    if (!color) return;
    cJSON *o = http_body_object(rq);
    if (!o) return;
    action a;
    int seq;
    char err[160];
    action_json_status ps =
        view_json_parse_action(o, game_get_settings(g)->size, color, &a, &seq, err, sizeof err);
    cJSON_Delete(o);
    if (ps != ACTION_JSON_OK) {
        http_send_error(rq, 400, ps == ACTION_JSON_BAD_VERTEX ? "bad_vertex" : "bad_request", err);
        return;
    }
    strbuf answer = { 0 };
    game_status st = game_act(g, color, seq, &a, &answer);
    if (st == GAME_OK) send_composed(rq, true, &answer);
    else send_status(rq, st);
    strbuf_free(&answer);
}

/* {"ghosts":["D4",...]}: distinct points of this board, stored canonical. */
static char *ghosts_from(http_request *rq, const cJSON *o, int size) {
    static const char *const known[] = { "ghosts", NULL };
    if (!http_body_fields_known(rq, o, known)) return NULL;
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(o, "ghosts");
    if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) > size * size) {
        http_send_error(rq, 400, "bad_request", "'ghosts' must be a list of points of this board.");
        return NULL;
    }
    bool seen[BOARD_MAX_POINTS] = { false };
    cJSON *out = cJSON_CreateArray();
    const cJSON *item;
    cJSON_ArrayForEach(item, list) {
        point p;
        char buf[VERTEX_BUF];
        if (!cJSON_IsString(item) || !vertex_parse(item->valuestring, size, &p) || p == PASS_POINT ||
            seen[p]) {
            http_send_error(rq, 400, "bad_vertex", "'ghosts' must hold distinct points of this board.");
            cJSON_Delete(out);
            return NULL;
        }
        seen[p] = true;
        cJSON_AddItemToArray(out, cJSON_CreateString(vertex_format(p, size, buf)));
    }
    char *text = cJSON_PrintUnformatted(out);
    cJSON_Delete(out);
    if (!text) http_send_error(rq, 500, "internal", "The server ran out of memory.");
    return text;
}

/* {"ghosts":[..]} from the stored array text (NULL: none saved yet). */
static cJSON *ghosts_answer(const char *ghosts) {
    cJSON *o = cJSON_CreateObject();
    cJSON *list = ghosts ? json_parse_str(ghosts, NULL) : cJSON_CreateArray();
    if (cJSON_IsArray(list) && cJSON_AddItemToObject(o, "ghosts", list)) return o;
    cJSON_Delete(list);
    cJSON_Delete(o);
    return NULL;
}

static void notes(http_request *rq, game *g) {
    bool put = !strcmp(rq->method, "PUT");
    int color = seat_of(rq, g);
    if (!color) return;
    char *ghosts = NULL;
    game_status st;
    if (put) {
        cJSON *o = http_body_object(rq);
        ghosts = o ? ghosts_from(rq, o, game_get_settings(g)->size) : NULL;
        cJSON_Delete(o);
        if (!ghosts) return;
        st = game_put_notes(g, color, ghosts);
    } else {
        st = game_get_notes(g, color, &ghosts);
    }
    if (st != GAME_OK) {
        free(ghosts);
        send_status(rq, st);
        return;
    }
    send_owned_cjson(rq, 200, ghosts_answer(ghosts));
    free(ghosts);
}

/* The action of a rematch request: "offer" when the body is empty or has
 * no "action" (the API's first form); NULL after answering 400. */
static const char *rematch_action(http_request *rq) {
    static const char *const known[] = { "action", NULL };
    static const char *const actions[] = { "offer", "accept", "withdraw", "decline", NULL };
    if (!rq->body_len) return "offer";
    cJSON *o = http_body_object(rq);
    if (!o || !http_body_fields_known(rq, o, known)) {
        cJSON_Delete(o);
        return NULL;
    }
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "action");
    const char *found = a ? NULL : "offer";
    for (const char *const *k = actions; a && cJSON_IsString(a) && *k && !found; k++)
        if (!strcmp(a->valuestring, *k)) found = *k;
    cJSON_Delete(o);
    if (!found)
        http_send_error(rq, 400, "bad_request",
                        "'action' must be \"offer\", \"accept\", \"withdraw\" or \"decline\".");
    return found;
}

/* POST /rematch {"action": ..}: offer (or accept the opponent's), accept,
 * withdraw one's own offer, decline the opponent's. */
static void rematch(http_request *rq, game *g) {
    int color = seat_of(rq, g);
    if (!color) return;
    const char *what = rematch_action(rq);
    if (!what) return;
    bool created = false;
    game_created c;
    game_status st;
    if (!strcmp(what, "withdraw") || !strcmp(what, "decline")) {
        bool withdraw = what[0] == 'w';
        st = registry_rematch_end(rq->srv->gm, g, color, withdraw);
        if (st != GAME_OK) send_status(rq, st);
        else if (withdraw) http_send_json(rq, 200, "{\"withdrawn\":true}", 18);
        else http_send_json(rq, 200, "{\"declined\":true}", 17);
        return;
    }
    if (!strcmp(what, "accept")) st = registry_rematch_accept(rq->srv->gm, g, color, &c);
    else st = registry_rematch(rq->srv->gm, g, color, &created, &c);
    if (st != GAME_OK) send_status(rq, st);
    else send_created(rq, created ? 201 : 200, &c);
}

static void record(http_request *rq, game *g) {
    bool over;
    size_t len;
    char *sgf = game_record_sgf(g, &over, &len);
    if (!over)
        http_send_error(rq, 403, "record_not_available", "The record is published when the game is over.");
    else if (!sgf) http_send_error(rq, 500, "internal", "The server ran out of memory.");
    else {
        char extra[96];
        snprintf(extra, sizeof extra, "Content-Disposition: attachment; filename=\"phantomgo-%s.sgf\"\r\n",
                 game_id(g));
        http_send(rq, 200, "application/x-go-sgf; charset=utf-8", NULL, extra, sgf, len);
    }
    free(sgf);
}

/* POST /api/v1/qr {"text":..}: the QR code of a link, as SVG. */
static void qr_code(http_request *rq) {
    static const char *const known[] = { "text", NULL };
    if (!allow(rq, "POST")) return;
    cJSON *o = http_body_object(rq);
    if (!o || !http_body_fields_known(rq, o, known)) {
        cJSON_Delete(o);
        return;
    }
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(o, "text");
    char *svg = NULL;
    qr_svg_status st = QR_SVG_INVALID;
    if (!cJSON_IsString(text) || strlen(text->valuestring) > 1024)
        http_send_error(rq, 400, "bad_request", "'text' must be a string of at most 1 KiB.");
    else if ((st = qr_svg_new(text->valuestring, &svg)) != QR_SVG_OK)
        http_send_error(rq, st == QR_SVG_NO_MEMORY ? 500 : 400,
                        st == QR_SVG_NO_MEMORY ? "internal" : "bad_request", qr_svg_strerror(st));
    else http_send(rq, 200, "image/svg+xml", NULL, "", svg, strlen(svg));
    free(svg);
    cJSON_Delete(o);
}

/* ---- table talk ------------------------------------------------------------ */

/* PUT /api/v1/games/{id}/name {"name": "..." | null}: the seat's display name. */
static void rename_seat_name(http_request *rq, game *g) {
    int color = seat_of(rq, g);
    if (!color) return;
    cJSON *o = http_body_object(rq);
    if (!o) return;
    talk_verdict v;
    char name[TALK_NAME_MAX_BYTES], err[200];
    chat_json_status ps = chat_json_parse_rename(o, name, &v, err, sizeof err);
    cJSON_Delete(o);
    if (ps == CHAT_JSON_BAD_TEXT) {
        send_bad_text(rq, "name", &v, err);
        return;
    }
    if (ps != CHAT_JSON_OK) {
        http_send_error(rq, 400, "bad_request", err);
        return;
    }
    game_status st = game_rename(g, color, name);
    if (st != GAME_OK) {
        send_status(rq, st);
        return;
    }
    cJSON *answer = cJSON_CreateObject();
    cJSON *names = answer ? game_names_json(g) : NULL;
    if (names) cJSON_AddItemToObject(answer, "names", names);
    else cJSON_Delete(answer), answer = NULL;
    send_owned_cjson(rq, 200, answer);
}

/* A room's "after" parameter: absent is 0. */
static bool query_after(http_request *rq, const char *name, int *after) {
    char value[32];
    *after = 0;
    int n = http_query_param(rq, name, value, sizeof value);
    if (n == -1) return true;
    char *end;
    long v = strtol(value, &end, 10);
    if (n <= 0 || *end || end == value || v < 0 || v > 1000000000) {
        char msg[96];
        snprintf(msg, sizeof msg, "'%s' must be a whole number from 0.", name);
        http_send_error(rq, 400, "bad_request", msg);
        return false;
    }
    *after = (int)v;
    return true;
}

/* GET .../chat?players=N&spectators=M: the rooms this viewer reads now. */
static void read_chat(http_request *rq, game *g, viewer v) {
    static const char *const rooms[] = { NULL, "players", "spectators" };
    int after[3];
    if (!query_after(rq, "players", &after[GAME_ROOM_PLAYERS]) ||
        !query_after(rq, "spectators", &after[GAME_ROOM_SPECTATORS]))
        return;
    cJSON *o = cJSON_CreateObject();
    bool over = game_is_over(g);
    for (int room = GAME_ROOM_PLAYERS; o && room <= GAME_ROOM_SPECTATORS; room++) {
        if (!game_room_readable(game_get_mode(g), v, room, over)) continue;
        cJSON *r = game_chat_room(g, room, after[room], CHAT_READ_MAX);
        if (!r) {
            cJSON_Delete(o);
            send_status(rq, GAME_UNAVAILABLE);
            return;
        }
        cJSON_AddItemToObject(o, rooms[room], r);
    }
    send_owned_cjson(rq, 200, o);
}

/* Takes a message's place in its speaker's and its address's buckets:
 * false after answering 429. */
static bool chat_rate_ok(http_request *rq, game *g, viewer v) {
    char key[64];
    if (v == VIEWER_SPECTATOR) snprintf(key, sizeof key, "spectator/%s", rq->client_key);
    else snprintf(key, sizeof key, "%s/%d", game_id(g), (int)v);
    int64_t now = now_monotonic_ms();
    int retry = ratelimit_take(rq->srv->chat_speaker, key, now);
    if (!retry) retry = ratelimit_take(rq->srv->chat_address, rq->client_key, now);
    if (retry > 0) http_send_rate_limited(rq, retry);
    return retry == 0;
}

/* POST .../chat {"text":..} (+ "name" from a spectator): a message to the
 * room of whoever sends it. A spectator is never identified further. */
static void post_chat(http_request *rq, game *g, viewer v) {
    cJSON *o = http_body_object(rq);
    if (!o) return;
    talk_verdict why;
    char text[TALK_TEXT_MAX_BYTES], name[TALK_NAME_MAX_BYTES], err[200];
    chat_json_status ps = chat_json_parse_post(o, text, name, &why, err, sizeof err);
    bool name_given = cJSON_GetObjectItemCaseSensitive(o, "name") != NULL;
    cJSON_Delete(o);
    if (ps == CHAT_JSON_BAD_TEXT) {
        send_bad_text(rq, strncmp(err, "name", 4) ? "text" : "name", &why, err);
        return;
    }
    if (ps == CHAT_JSON_OK && name_given && v != VIEWER_SPECTATOR) {
        ps = CHAT_JSON_BAD_REQUEST;
        snprintf(err, sizeof err,
                 "'name' is for spectators: a seat speaks under its own name (PUT .../name).");
    }
    if (ps != CHAT_JSON_OK) {
        http_send_error(rq, 400, "bad_request", err);
        return;
    }
    if (!chat_rate_ok(rq, g, v) || !admin_allows(rq, ADMIN_DO_CHAT, g, v)) return;
    cJSON *message;
    game_status st = game_say(g, v, name, text, &message);
    if (st != GAME_OK) {
        send_status(rq, st);
        return;
    }
    cJSON *answer = cJSON_CreateObject();
    if (answer) cJSON_AddItemToObject(answer, "message", message);
    else cJSON_Delete(message);
    send_owned_cjson(rq, 201, answer);
}

static void chat(http_request *rq, game *g) {
    viewer v;
    if (!viewer_of(rq, g, &v)) return;
    if (!strcmp(rq->method, "POST")) post_chat(rq, g, v);
    else read_chat(rq, g, v);
}

/* POST .../cancel: the creator cancels a game nobody joined. */
static void cancel(http_request *rq, game *g) {
    int color = seat_of(rq, g);
    if (!color) return;
    game_status st = game_cancel(g, color);
    if (st != GAME_OK) send_status(rq, st);
    else http_send_json(rq, 200, "{\"cancelled\":true}", 18);
}

/* DELETE .../talk: after the end, a seat erases its own name and messages. */
static void erase_own_talk(http_request *rq, game *g) {
    int color = seat_of(rq, g);
    if (!color) return;
    int erased = 0;
    game_status st = game_erase_talk(g, color, &erased);
    if (st == GAME_NOT_OVER) {
        http_send_error(rq, 409, "game_not_over", "A seat erases its talk after the game ends.");
        return;
    }
    if (st != GAME_OK) {
        send_status(rq, st);
        return;
    }
    char body[64];
    int n = snprintf(body, sizeof body, "{\"erased\":{\"name\":true,\"messages\":%d}}", erased);
    http_send_json(rq, 200, body, (size_t)n);
}

typedef void (*game_handler)(http_request *rq, game *g);

/* keyed: the endpoint honours an Idempotency-Key (api_idempotency.h). */
typedef struct endpoint {
    const char *name;
    game_handler run;
    const char *methods;
    bool keyed;
} endpoint;

static const endpoint endpoints[] = {
    { "", read_view, "GET", false },
    { "claim", claim_seat, "POST", true },
    { "join", join_seat, "POST", true },
    { "actions", act, "POST", false },
    { "events", read_events, "GET", false },
    { "notes", notes, "GET PUT", false },
    { "rematch", rematch, "POST", true },
    { "sgf", record, "GET", false },
    { "name", rename_seat_name, "PUT", false },
    { "chat", chat, "GET POST", false },
    { "cancel", cancel, "POST", false },
    { "aid", read_aid, "GET", false },
    { "talk", erase_own_talk, "DELETE", false },
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
    create_game(rq);
}

/* POST .../chat/{room}/{n}/report (admin.c), by whoever reads the room. */
static void report_chat(http_request *rq, game *g, const char *rest) {
    viewer v;
    if (viewer_of(rq, g, &v)) admin_report(rq, g, v, rest);
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
    if (!allow(rq, report ? "POST" : ep->methods)) return;
    memcpy(id, rest, idlen);
    id[idlen] = '\0';
    game *g;
    game_status st = registry_get(rq->srv->gm, id, &g);
    if (st != GAME_OK) {
        send_status(rq, st);
        return;
    }
    if (report) {
        report_chat(rq, g, name + 5);
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
    if (!allow(rq, "GET")) return;
    send_owned_cjson(rq, 200, lobby_now(rq->srv->lb));
}

/* POST /api/v1/test/clock {"advance_ms":N}: exists only under --test-clock. */
static void test_clock(http_request *rq) {
    static const char *const known[] = { "advance_ms", NULL };
    if (!rq->srv->cfg.test_clock) {
        http_send_error(rq, 404, "not_found", "No such endpoint.");
        return;
    }
    if (!allow(rq, "POST")) return;
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
    send_owned_cjson(rq, 200, now);
}

void api_handle(http_request *rq) {
    const char *p = rq->path;
    if (strncmp(p, API_PREFIX, sizeof API_PREFIX - 1) != 0) {
        http_send_error(rq, 404, "not_found", "No such endpoint.");
        return;
    }
    p += sizeof API_PREFIX - 1;
    if (!strcmp(p, "games")) idempotency_run(rq, true, run_create, NULL);
    else if (!strcmp(p, "qr")) qr_code(rq);
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
