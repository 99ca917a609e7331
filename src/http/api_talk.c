/* api_talk: what is said around a game (see api_handlers.h): a seat's
 * display name, the two chat rooms (read, write, rate limits per speaker
 * and per address), reports of a message, and a seat erasing its own talk
 * after the end. Who may read which room is the games layer's call. */
#include "http/api_handlers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/admin.h"
#include "http/http_body.h"
#include "util/now.h"
#include "wire/chat_json.h"
#include "wire/json_number.h"

/* The most messages of one room one GET .../chat answers. */
#define CHAT_READ_MAX 500

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
    api_send_owned_cjson(rq, 400, o);
}

/* A name field of a request (absent or null: none); false after answering. */
bool api_read_name(http_request *rq, const cJSON *o, char name[TALK_NAME_MAX_BYTES]) {
    talk_verdict v;
    char err[200];
    chat_json_status st =
        chat_json_parse_name(cJSON_GetObjectItemCaseSensitive(o, "name"), true, name, &v, err, sizeof err);
    if (st == CHAT_JSON_BAD_TEXT) send_bad_text(rq, "name", &v, err);
    else if (st != CHAT_JSON_OK) http_send_error(rq, 400, "bad_request", err);
    return st == CHAT_JSON_OK;
}

/* Renames seat `color` of the game `id` just created. */
game_status api_rename_new_seat(http_request *rq, const char *id, int color, const char *name) {
    game *g;
    game_status st = registry_get(rq->srv->gm, id, &g);
    if (st != GAME_OK) return st;
    st = game_rename(g, color, name);
    game_release(g);
    return st;
}

/* PUT /api/v1/games/{id}/name {"name": "..." | null}: the seat's display name. */
void api_rename_seat_name(http_request *rq, game *g) {
    int color = api_seat_of(rq, g);
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
        api_send_status(rq, st);
        return;
    }
    strbuf sb = { 0 };
    strbuf_puts(&sb, "{\"names\":");
    bool ok = game_names_text(g, &sb);
    strbuf_append(&sb, "}", 1);
    api_send_composed(rq, 200, ok, &sb);
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
    strbuf sb = { 0 };
    strbuf_append(&sb, "{", 1);
    bool over = game_is_over(g), first = true;
    for (int room = GAME_ROOM_PLAYERS; room <= GAME_ROOM_SPECTATORS; room++) {
        if (!game_room_readable(game_get_mode(g), v, room, over)) continue;
        strbuf_printf(&sb, "%s\"%s\":", first ? "" : ",", rooms[room]);
        first = false;
        game_status st = game_chat_room_text(g, room, after[room], CHAT_READ_MAX, &sb);
        if (st != GAME_OK) {
            strbuf_free(&sb);
            api_send_status(rq, st);
            return;
        }
    }
    strbuf_append(&sb, "}", 1);
    api_send_composed(rq, 200, true, &sb);
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
    strbuf sb = { 0 };
    strbuf_puts(&sb, "{\"message\":");
    game_status st = game_say(g, v, name, text, &sb);
    strbuf_append(&sb, "}", 1);
    if (st == GAME_OK) {
        api_send_composed(rq, 201, true, &sb);
        return;
    }
    strbuf_free(&sb);
    api_send_status(rq, st);
}

void api_chat(http_request *rq, game *g) {
    viewer v;
    if (!api_viewer_of(rq, g, &v)) return;
    if (!strcmp(rq->method, "POST")) post_chat(rq, g, v);
    else read_chat(rq, g, v);
}

/* DELETE .../talk: after the end, a seat erases its own name and messages. */
void api_erase_own_talk(http_request *rq, game *g) {
    int color = api_seat_of(rq, g);
    if (!color) return;
    int erased = 0;
    game_status st = game_erase_talk(g, color, &erased);
    if (st == GAME_NOT_OVER) {
        http_send_error(rq, 409, "game_not_over", "A seat erases its talk after the game ends.");
        return;
    }
    if (st != GAME_OK) {
        api_send_status(rq, st);
        return;
    }
    char body[64];
    int n = snprintf(body, sizeof body, "{\"erased\":{\"name\":true,\"messages\":%d}}", erased);
    http_send_json(rq, 200, body, (size_t)n);
}


/* POST .../chat/{room}/{n}/report (admin.c), by whoever reads the room. */
void api_report_chat(http_request *rq, game *g, const char *rest) {
    viewer v;
    if (api_viewer_of(rq, g, &v)) admin_report(rq, g, v, rest);
}

