/* api_play: one game as a seat or a spectator sees it, and acting in it
 * (see api_handlers.h): GET the view and its events, the deduction aid,
 * POST an action, a seat's notes, the record of a finished game. Views
 * come as text from the games layer (game_view_text), wrapped here. */
#include "http/api_handlers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/vertex.h"
#include "http/http_body.h"
#include "wire/json_parse.h"
#include "wire/view_json.h"

void api_read_view(http_request *rq, game *g) {
    viewer v;
    if (!api_viewer_of(rq, g, &v)) return;
    strbuf sb = { 0 };
    bool ok = game_view_text(g, v, &sb, NULL);
    api_send_composed(rq, 200, ok, &sb);
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
void api_read_aid(http_request *rq, game *g) {
    viewer v;
    int seq, color;
    if (!api_viewer_of(rq, g, &v) || !aid_query(rq, &seq, &color)) return;
    char *json;
    game_status st = game_aid(g, v, color, seq, &json);
    if (st != GAME_OK) api_send_status(rq, st);
    else http_send_json(rq, 200, json, strlen(json));
    free(json);
}

void api_read_events(http_request *rq, game *g) {
    viewer v;
    int since;
    if (!api_viewer_of(rq, g, &v) || !query_since(rq, &since)) return;
    strbuf sb = { 0 };
    strbuf_append(&sb, "{", 1);
    bool ok = game_update_text(g, v, since, &sb, NULL, NULL);
    strbuf_append(&sb, "}", 1);
    api_send_composed(rq, 200, ok, &sb);
}

void api_act(http_request *rq, game *g) {
    int color = api_seat_of(rq, g);
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
    if (st == GAME_OK) api_send_composed(rq, 200, true, &answer);
    else api_send_status(rq, st);
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

void api_notes(http_request *rq, game *g) {
    bool put = !strcmp(rq->method, "PUT");
    int color = api_seat_of(rq, g);
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
        api_send_status(rq, st);
        return;
    }
    api_send_owned_cjson(rq, 200, ghosts_answer(ghosts));
    free(ghosts);
}

void api_record(http_request *rq, game *g) {
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

