/* api_seats: creating a game and taking its seats (see api_handlers.h):
 * POST /games (with its Idempotency-Key run by the router), claim, join,
 * rematch offers and answers, cancelling a game nobody joined, and the QR
 * code of a link. The secrets a new game hands out are told once, to its
 * creator; an invite is never told to anyone else. */
#include "http/api_handlers.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/admin.h"
#include "http/api_idempotency.h"
#include "http/http_body.h"
#include "util/game_mode.h"
#include "util/now.h"
#include "wire/clock_json.h"
#include "wire/chat_json.h"
#include "wire/qr_svg.h"
#include "wire/settings_json.h"
#include "wire/view_json.h"

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
        api_send_status(rq, st);
        return;
    }
    api_send_owned_cjson(rq, status, created_json(rq, g, c));
    game_release(g);
}

void api_create_game(http_request *rq) {
    if (!api_allow(rq, "POST") || !admin_allows(rq, ADMIN_DO_CREATE, NULL, VIEWER_SPECTATOR)) return;
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
    bool named = api_read_name(rq, o, name);
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
    if (st == GAME_OK && name[0]) api_rename_new_seat(rq, c.id, c.token[BLACK][0] ? BLACK : WHITE, name);
    if (st != GAME_OK) api_send_status(rq, st);
    else send_created(rq, 201, &c);
}

/* {"color":..,"token":..}: a seat just taken. */
static void send_seat(http_request *rq, int color, const char *token) {
    cJSON *o = cJSON_CreateObject();
    if (!cJSON_AddStringToObject(o, "color", view_json_color_name(color)) ||
        !cJSON_AddStringToObject(o, "token", token)) {
        cJSON_Delete(o);
        o = NULL;
    }
    api_send_owned_cjson(rq, 200, o);
}

void api_claim_seat(http_request *rq, game *g) {
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
    if (!api_read_name(rq, o, name)) {
        cJSON_Delete(o);
        return;
    }
    int color = 0;
    char token[SECRET_TEXT_LEN + 1];
    game_status st = game_claim(g, invite->valuestring, &color, token);
    cJSON_Delete(o);
    if (st == GAME_OK && name[0]) game_rename(g, color, name); /* the seat is answered regardless */
    if (st != GAME_OK) {
        api_send_status(rq, st);
        return;
    }
    send_seat(rq, color, token);
}

/* POST /api/v1/games/{id}/join: the free seat of a public game (the lobby). */
void api_join_seat(http_request *rq, game *g) {
    static const char *const known[] = { "name", NULL };
    char name[TALK_NAME_MAX_BYTES] = "";
    if (!admin_allows(rq, ADMIN_DO_JOIN, g, VIEWER_SPECTATOR)) return;
    if (rq->body_len) { /* no body, or {} or {"name":..} */
        cJSON *o = http_body_object(rq);
        bool ok = o && http_body_fields_known(rq, o, known) && api_read_name(rq, o, name);
        cJSON_Delete(o);
        if (!ok) return;
    }
    int color = 0;
    char token[SECRET_TEXT_LEN + 1];
    game_status st = game_join(g, &color, token);
    if (st == GAME_OK && name[0]) game_rename(g, color, name); /* the seat is answered regardless */
    if (st != GAME_OK) api_send_status(rq, st);
    else send_seat(rq, color, token);
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
void api_rematch(http_request *rq, game *g) {
    int color = api_seat_of(rq, g);
    if (!color) return;
    const char *what = rematch_action(rq);
    if (!what) return;
    bool created = false;
    game_created c;
    game_status st;
    if (!strcmp(what, "withdraw") || !strcmp(what, "decline")) {
        bool withdraw = what[0] == 'w';
        st = registry_rematch_end(rq->srv->gm, g, color, withdraw);
        if (st != GAME_OK) api_send_status(rq, st);
        else if (withdraw) http_send_json(rq, 200, "{\"withdrawn\":true}", 18);
        else http_send_json(rq, 200, "{\"declined\":true}", 17);
        return;
    }
    if (!strcmp(what, "accept")) st = registry_rematch_accept(rq->srv->gm, g, color, &c);
    else st = registry_rematch(rq->srv->gm, g, color, &created, &c);
    if (st != GAME_OK) api_send_status(rq, st);
    else send_created(rq, created ? 201 : 200, &c);
}

/* POST /api/v1/qr {"text":..}: the QR code of a link, as SVG. */
void api_qr_code(http_request *rq) {
    static const char *const known[] = { "text", NULL };
    if (!api_allow(rq, "POST")) return;
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


/* POST .../cancel: the creator cancels a game nobody joined. */
void api_cancel(http_request *rq, game *g) {
    int color = api_seat_of(rq, g);
    if (!color) return;
    game_status st = game_cancel(g, color);
    if (st != GAME_OK) api_send_status(rq, st);
    else http_send_json(rq, 200, "{\"cancelled\":true}", 18);
}

