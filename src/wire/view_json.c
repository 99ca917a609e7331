/* view_json: views, events and action requests on the wire (see
 * view_json.h). The view is folded here from observations (view_init +
 * view_apply) in the same pass that writes the events' text, so one walk
 * over the filter's output gives both. */
#include "wire/view_json.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/color.h"
#include "engine/vertex.h"
#include "util/utf8.h"
#include "wire/clock_json.h"
#include "wire/event_json.h"
#include "wire/json_number.h"
#include "wire/json_print.h"
#include "wire/settings_json.h"

const char *view_json_color_name(int color) { return color_name(color); }

const char *view_json_viewer_name(int v) { return v == VIEWER_SPECTATOR ? "spectator" : color_name(v); }

static const char *event_type(int kind) {
    switch ((event_kind)kind) {
    case EV_MOVE: return "move";
    case EV_ILLEGAL: return "illegal";
    case EV_PASS: return "pass";
    case EV_RESIGN: return "resign";
    case EV_TIMEOUT: return "timeout";
    case EV_FORFEIT: return "forfeit";
    }
    return "unknown";
}

static bool add_vertex_list(cJSON *parent, const char *name, const point *pts, int n, int size) {
    cJSON *list = cJSON_AddArrayToObject(parent, name);
    if (!list) return false;
    char buf[VERTEX_BUF];
    for (int i = 0; i < n; i++) {
        cJSON *s = cJSON_CreateString(vertex_format(pts[i], size, buf));
        if (!s) return false;
        cJSON_AddItemToArray(list, s);
    }
    return true;
}

static bool add_color_or_null(cJSON *o, const char *name, int color) {
    const char *c = color_name(color);
    return c ? cJSON_AddStringToObject(o, name, c) != NULL : cJSON_AddNullToObject(o, name) != NULL;
}

/* Appends n in decimal (a view's events hold thousands of numbers; no
 * printf per number). */
static void put_int(strbuf *sb, int n) {
    char digits[12], *end = digits + sizeof digits, *p = end;
    unsigned u = n < 0 ? 0u - (unsigned)n : (unsigned)n;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (n < 0) *--p = '-';
    strbuf_append(sb, p, (size_t)(end - p));
}

/* Appends "word": a fixed word or a vertex name, which need no escaping. */
static void put_word(strbuf *sb, const char *word) {
    strbuf_append(sb, "\"", 1);
    strbuf_puts(sb, word);
    strbuf_append(sb, "\"", 1);
}

/* Appends one event's object, as docs/API.md spells it. Every string in
 * it is a fixed word or a vertex name; the text is what cJSON printed for
 * the same object (the unit tests pin it). */
static void put_event(strbuf *sb, const observation *ob, int size) {
    char buf[VERTEX_BUF];
    const char *color = color_name(ob->color);
    strbuf_puts(sb, "{\"seq\":");
    put_int(sb, ob->seq);
    strbuf_puts(sb, ",\"turn\":");
    put_int(sb, ob->turn);
    strbuf_puts(sb, ",\"type\":");
    put_word(sb, event_type(ob->kind));
    strbuf_puts(sb, ",\"color\":");
    if (color) put_word(sb, color);
    else strbuf_puts(sb, "null");
    if (ob->point >= 0) {
        strbuf_puts(sb, ",\"vertex\":");
        put_word(sb, vertex_format(ob->point, size, buf));
    }
    if (ob->reason != ILLEGAL_NONE) {
        strbuf_puts(sb, ",\"reason\":");
        put_word(sb, illegal_reason_name((illegal_reason)ob->reason));
    }
    if (ob->captured_known > 0) {
        strbuf_puts(sb, ",\"captured\":[");
        for (int i = 0; i < ob->captured_known; i++) {
            if (i) strbuf_append(sb, ",", 1);
            put_word(sb, vertex_format(ob->captured[i], size, buf));
        }
        strbuf_append(sb, "]", 1);
    }
    if (ob->captured_count > 0) {
        strbuf_puts(sb, ",\"capture_count\":");
        put_int(sb, ob->captured_count);
    }
    if (ob->atari) strbuf_puts(sb, ",\"atari\":true");
    strbuf_append(sb, "}", 1);
}

cJSON *view_json_game(const view_table *t, const game_settings *s) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    bool ok = cJSON_AddStringToObject(o, "id", t->game_id) && cJSON_AddStringToObject(o, "mode", t->mode);
    if (ok && t->level) ok = cJSON_AddStringToObject(o, "level", t->level) != NULL;
    cJSON *settings = ok ? settings_to_json(s) : NULL;
    if (!settings) {
        cJSON_Delete(o);
        return NULL;
    }
    cJSON_AddItemToObject(o, "settings", settings);
    time_control untimed = time_control_none();
    cJSON *tc = time_control_to_json(t->tc ? t->tc : &untimed);
    if (!tc || !cJSON_AddBoolToObject(o, "public", t->public_game) ||
        !cJSON_AddBoolToObject(o, "deduction_aid", t->deduction_aid)) {
        cJSON_Delete(tc);
        cJSON_Delete(o);
        return NULL;
    }
    cJSON_AddItemToObject(o, "time_control", tc);
    return o;
}

static bool add_seats(cJSON *o, const view_table *t) {
    cJSON *seats = cJSON_AddObjectToObject(o, "seats");
    if (!seats) return false;
    for (int c = BLACK; c <= WHITE; c++) {
        cJSON *seat = cJSON_AddObjectToObject(seats, color_name(c));
        if (!seat || !cJSON_AddBoolToObject(seat, "taken", t->seat_taken[c]) ||
            !cJSON_AddBoolToObject(seat, "computer", t->seat_computer[c]) ||
            !cJSON_AddBoolToObject(seat, "connected", t->seat_connected[c]))
            return false;
        const char *name = t->seat_name[c];
        if (!(name && *name ? cJSON_AddStringToObject(seat, "name", name)
                            : cJSON_AddNullToObject(seat, "name")))
            return false;
    }
    return true;
}

/* Points of the view whose stone is `color` (or, with mark_bit, whose mark
 * has that bit), in point order. Returns how many. */
static int collect(const view *vw, int color, int mark_bit, point *out) {
    int n = 0, npoints = vw->settings.size * vw->settings.size;
    for (point p = 0; p < npoints; p++)
        if (mark_bit ? (vw->mark[p] & mark_bit) != 0 : vw->stone[p] == color) out[n++] = p;
    return n;
}

static bool add_stones(cJSON *o, const view *vw) {
    point pts[BOARD_MAX_POINTS];
    cJSON *stones = cJSON_AddObjectToObject(o, "stones");
    if (!stones) return false;
    int size = vw->settings.size;
    for (int c = BLACK; c <= WHITE; c++)
        if (!add_vertex_list(stones, color_name(c), pts, collect(vw, c, 0, pts), size)) return false;
    return add_vertex_list(o, "handicap", pts, collect(vw, 0, VIEW_HANDICAP, pts), size);
}

/* The viewer's rejected points of earlier turns, oldest turn first. */
static bool add_rejected(cJSON *o, const view *vw) {
    point pts[BOARD_MAX_POINTS];
    int n = collect(vw, 0, VIEW_REJECTED, pts), size = vw->settings.size;
    for (int i = 1; i < n; i++) /* insertion sort by turn, stable */
        for (int j = i; j > 0 && vw->rejected_turn[pts[j - 1]] > vw->rejected_turn[pts[j]]; j--) {
            point tmp = pts[j];
            pts[j] = pts[j - 1];
            pts[j - 1] = tmp;
        }
    cJSON *list = cJSON_AddArrayToObject(o, "rejected");
    if (!list) return false;
    char buf[VERTEX_BUF];
    for (int i = 0; i < n; i++) {
        cJSON *item = cJSON_CreateObject();
        if (!item) return false;
        cJSON_AddItemToArray(list, item);
        if (!cJSON_AddStringToObject(item, "vertex", vertex_format(pts[i], size, buf)) ||
            !cJSON_AddNumberToObject(item, "turn", vw->rejected_turn[pts[i]]))
            return false;
    }
    return true;
}

static bool add_pair(cJSON *o, const char *name, int black, int white) {
    cJSON *pair = cJSON_AddObjectToObject(o, name);
    return pair && cJSON_AddNumberToObject(pair, "black", black) &&
           cJSON_AddNumberToObject(pair, "white", white);
}

static bool add_score(cJSON *res, const view *vw) {
    const game_result *r = &vw->result;
    cJSON *score = cJSON_AddObjectToObject(res, "score");
    if (!score || !cJSON_AddNumberToObject(score, "black", r->score_black_x2 / 2.0) ||
        !cJSON_AddNumberToObject(score, "white", r->score_white_x2 / 2.0))
        return false;
    /* Finished: the view's stones are the real board; the engine scores it. */
    uint8_t owner[BOARD_MAX_POINTS];
    board_territory(board_geometry_for(vw->settings.size, vw->settings.torus), vw->stone, owner);
    point black[BOARD_MAX_POINTS], white[BOARD_MAX_POINTS];
    int nb = 0, nw = 0, npoints = vw->settings.size * vw->settings.size;
    for (point p = 0; p < npoints; p++) {
        if (owner[p] == BLACK) black[nb++] = p;
        if (owner[p] == WHITE) white[nw++] = p;
    }
    point tmp[BOARD_MAX_POINTS];
    cJSON *bd = cJSON_AddObjectToObject(res, "breakdown");
    cJSON *b = bd ? cJSON_AddObjectToObject(bd, "black") : NULL;
    cJSON *w = bd ? cJSON_AddObjectToObject(bd, "white") : NULL;
    cJSON *terr = cJSON_AddObjectToObject(res, "territory");
    return b && w && terr && cJSON_AddNumberToObject(b, "stones", collect(vw, BLACK, 0, tmp)) &&
           cJSON_AddNumberToObject(b, "territory", nb) &&
           cJSON_AddNumberToObject(w, "stones", collect(vw, WHITE, 0, tmp)) &&
           cJSON_AddNumberToObject(w, "territory", nw) &&
           cJSON_AddNumberToObject(w, "komi", vw->settings.komi_x2 / 2.0) &&
           add_vertex_list(terr, "black", black, nb, vw->settings.size) &&
           add_vertex_list(terr, "white", white, nw, vw->settings.size);
}

static bool add_result(cJSON *o, const view *vw) {
    if (!vw->over) return cJSON_AddNullToObject(o, "result") != NULL;
    cJSON *res = cJSON_AddObjectToObject(o, "result");
    if (!res || !cJSON_AddStringToObject(res, "reason", end_reason_name(vw->result.reason)) ||
        !add_color_or_null(res, "winner", vw->result.winner))
        return false;
    return !vw->result.scored || add_score(res, vw);
}

static bool add_rematch(cJSON *o, const view_table *t) {
    if (!t->rematch_id || !t->rematch_id[0]) return cJSON_AddNullToObject(o, "rematch") != NULL;
    cJSON *rm = cJSON_AddObjectToObject(o, "rematch");
    return rm && cJSON_AddStringToObject(rm, "id", t->rematch_id) &&
           cJSON_AddBoolToObject(rm, "cancelled", t->rematch_cancelled);
}

/* Folds every observation of viewer v into vw and appends each one's
 * event to events, comma-separated (the items of the view's "events");
 * *last_own gets the viewer's latest legal move (or NO_POINT). */
static bool fold_events(const referee *r, viewer v, view *vw, strbuf *events, point *last_own) {
    observation ob;
    int n = view_event_count(r), size = view_settings(r)->size;
    *last_own = NO_POINT;
    for (int seq = 1; seq <= n; seq++) {
        if (!view_observe(r, v, seq, &ob)) return false;
        view_apply(vw, &ob);
        if (ob.kind == EV_MOVE && ob.color == (int)v && ob.point >= 0) *last_own = ob.point;
        if (seq > 1) strbuf_append(events, ",", 1);
        put_event(events, &ob, size);
    }
    return !events->failed;
}

static bool add_view_fields(cJSON *o, const view *vw, const view_table *t, point last_own) {
    char buf[VERTEX_BUF];
    int size = vw->settings.size;
    bool own = last_own >= 0 && vw->stone[last_own] == vw->viewer;
    return cJSON_AddStringToObject(o, "viewer", view_json_viewer_name(vw->viewer)) && add_seats(o, t) &&
           cJSON_AddNumberToObject(o, "spectators", t->spectators) &&
           cJSON_AddNumberToObject(o, "seq", vw->seq) && cJSON_AddNumberToObject(o, "turn", vw->turn) &&
           add_color_or_null(o, "to_move", vw->to_move) && add_stones(o, vw) &&
           (own ? cJSON_AddStringToObject(o, "last_own", vertex_format(last_own, size, buf)) != NULL
                : cJSON_AddNullToObject(o, "last_own") != NULL) &&
           add_vertex_list(o, "tried", vw->tried, vw->n_tried, size) && add_rejected(o, vw) &&
           add_pair(o, "prisoners", vw->captured_by[BLACK], vw->captured_by[WHITE]) &&
           add_pair(o, "on_board", vw->on_board[BLACK], vw->on_board[WHITE]) &&
           cJSON_AddNumberToObject(o, "passes", vw->passes) &&
           cJSON_AddNumberToObject(o, "attempts", vw->attempts_this_turn);
}

/* Appends o's members (json_print_members) and frees o; false when out
 * of memory. */
static bool put_members(strbuf *sb, cJSON *o) {
    bool ok = o && json_print_members(sb, o) && !sb->failed;
    cJSON_Delete(o);
    return ok;
}

/* {"game":..,"viewer":.. .. "attempts":..}: the view's fields before its
 * events. NULL when out of memory. */
static cJSON *head_object(const view *vw, const view_table *t, point last_own) {
    cJSON *o = cJSON_CreateObject();
    cJSON *game = o ? view_json_game(t, &vw->settings) : NULL;
    if (game) cJSON_AddItemToObject(o, "game", game);
    if (game && add_view_fields(o, vw, t, last_own)) return o;
    cJSON_Delete(o);
    return NULL;
}

/* {"over":..,"result":..,"rematch":..,"cancelled":..}: the fields after. */
static cJSON *tail_object(const view *vw, const view_table *t) {
    cJSON *o = cJSON_CreateObject();
    if (o && cJSON_AddBoolToObject(o, "over", vw->over) && add_result(o, vw) && add_rematch(o, t) &&
        cJSON_AddBoolToObject(o, "cancelled", t->cancelled))
        return o;
    cJSON_Delete(o);
    return NULL;
}

/* The events, by far the longest part of a view, are written as text in
 * the pass that folds them; the few fields around them go through cJSON. */
char *view_json_open_text(const referee *r, viewer v, const view_table *t, size_t *len_out) {
    view *vw = malloc(sizeof *vw);
    strbuf events = { 0 }, out = { 0 };
    point last_own;
    bool ok = vw != NULL;
    if (ok) {
        view_init(vw, view_settings(r), v);
        ok = fold_events(r, v, vw, &events, &last_own);
    }
    if (ok) {
        strbuf_append(&out, "{", 1);
        ok = put_members(&out, head_object(vw, t, last_own));
        strbuf_puts(&out, ",\"events\":[");
        strbuf_append(&out, events.data ? events.data : "", events.len);
        strbuf_puts(&out, "],");
        ok = ok && put_members(&out, tail_object(vw, t));
    }
    free(vw);
    strbuf_free(&events);
    char *text = ok ? strbuf_take(&out, len_out) : NULL;
    strbuf_free(&out);
    return text;
}

bool view_json_close(strbuf *sb, const game_clock *c, int64_t now, int64_t claim_at_ms, int computer_percent) {
    assert(computer_percent >= 0 && computer_percent <= 100);
    cJSON *clock = clock_to_json(c, now, claim_at_ms);
    strbuf_puts(sb, ",\"clock\":");
    bool ok = clock && json_print_append(sb, clock);
    cJSON_Delete(clock);
    if (ok && computer_percent > 0)
        strbuf_printf(sb, ",\"computer\":{\"think_percent\":%d,\"busy\":%s}", computer_percent,
                      computer_percent < 100 ? "true" : "false");
    strbuf_append(sb, "}", 1);
    return ok && !sb->failed;
}

bool view_json_event_append(strbuf *sb, const observation *ob, int size) {
    put_event(sb, ob, size);
    return !sb->failed;
}

bool view_json_events_append(strbuf *sb, const referee *r, viewer v, int since) {
    observation ob;
    int n = view_event_count(r), size = view_settings(r)->size;
    bool ok = true;
    strbuf_append(sb, "[", 1);
    for (int seq = since < 0 ? 1 : since + 1; ok && seq <= n; seq++) {
        if (seq > (since < 0 ? 1 : since + 1)) strbuf_append(sb, ",", 1);
        ok = view_observe(r, v, seq, &ob);
        if (ok) put_event(sb, &ob, size);
    }
    strbuf_append(sb, "]", 1);
    return ok && !sb->failed;
}

/* The fields of the body: each known once, none unknown. */
static action_json_status check_fields(const cJSON *body, const cJSON **seq, const cJSON **kind,
                                       const cJSON **vertex, char *err, size_t errlen) {
    *seq = *kind = *vertex = NULL;
    for (const cJSON *f = body->child; f; f = f->next) {
        const cJSON **slot = !strcmp(f->string, "seq")      ? seq
                             : !strcmp(f->string, "action") ? kind
                             : !strcmp(f->string, "vertex") ? vertex
                                                            : NULL;
        if (!slot) {
            char name[48];
            snprintf(err, errlen, "unknown field '%s'", utf8_excerpt(name, sizeof name, f->string, 40));
            return ACTION_JSON_BAD_REQUEST;
        }
        if (*slot) {
            snprintf(err, errlen, "field '%s' appears twice", f->string);
            return ACTION_JSON_BAD_REQUEST;
        }
        *slot = f;
    }
    return ACTION_JSON_OK;
}

action_json_status view_json_parse_action(const cJSON *body, int size, int color, action *out, int *seq_out,
                                          char *err, size_t errlen) {
    const cJSON *seq, *kind, *vertex;
    if (!cJSON_IsObject(body)) {
        snprintf(err, errlen, "the body must be a JSON object");
        return ACTION_JSON_BAD_REQUEST;
    }
    action_json_status st = check_fields(body, &seq, &kind, &vertex, err, errlen);
    if (st != ACTION_JSON_OK) return st;
    if (!seq || !json_whole_int(seq, 1, 1000000000, seq_out)) {
        snprintf(err, errlen, "'seq' must be a whole number from 1 (the view's seq + 1)");
        return ACTION_JSON_BAD_REQUEST;
    }
    const char *k = cJSON_IsString(kind) ? kind->valuestring : "";
    memset(out, 0, sizeof *out);
    out->color = color;
    out->point = NO_POINT;
    if (!strcmp(k, "attempt")) out->kind = ACT_ATTEMPT;
    else if (!strcmp(k, "pass")) out->kind = ACT_PASS;
    else if (!strcmp(k, "resign")) out->kind = ACT_RESIGN;
    else if (!strcmp(k, "claim")) {
        out->kind = ACT_FORFEIT;
        out->color = color_other(color);
    } else {
        snprintf(err, errlen, "'action' must be \"attempt\", \"pass\", \"resign\" or \"claim\"");
        return ACTION_JSON_BAD_REQUEST;
    }
    if (out->kind != ACT_ATTEMPT) {
        if (!vertex) return ACTION_JSON_OK;
        snprintf(err, errlen, "'vertex' is only for \"attempt\"");
        return ACTION_JSON_BAD_REQUEST;
    }
    if (!cJSON_IsString(vertex)) {
        snprintf(err, errlen, "'vertex' must be a string such as \"D4\"");
        return ACTION_JSON_BAD_REQUEST;
    }
    point p;
    if (!vertex_parse(vertex->valuestring, size, &p) || p == PASS_POINT) {
        snprintf(err, errlen, "'vertex' is not a point of this board");
        return ACTION_JSON_BAD_VERTEX;
    }
    out->point = p;
    return ACTION_JSON_OK;
}
