/* event_json: truth lines and wire names (see event_json.h). */
#include "wire/event_json.h"

#include <stdbool.h>

#include "engine/color.h"
#include "engine/vertex.h"

const char *illegal_reason_name(illegal_reason r) {
    switch (r) {
    case ILLEGAL_OCCUPIED: return "occupied";
    case ILLEGAL_SUICIDE:  return "suicide";
    case ILLEGAL_KO:       return "ko";
    case ILLEGAL_NONE:     break;
    }
    return NULL;
}

const char *refusal_name(refusal r) {
    switch (r) {
    case REFUSE_NOT_YOUR_TURN: return "not_your_turn";
    case REFUSE_ALREADY_TRIED: return "already_tried";
    case REFUSE_OWN_STONE:     return "own_stone";
    case REFUSE_BAD_VERTEX:    return "bad_vertex";
    case REFUSE_GAME_OVER:     return "game_over";
    case REFUSE_NONE:          break;
    }
    return NULL;
}

const char *end_reason_name(end_reason r) {
    switch (r) {
    case END_PASSES:  return "passes";
    case END_CAPTURE: return "capture";
    case END_RESIGN:  return "resign";
    case END_TIMEOUT: return "timeout";
    case END_FORFEIT: return "forfeit";
    case END_NONE:    break;
    }
    return NULL;
}

/* The word for an event's action and for its result. */
static const char *event_word(event_kind k) {
    switch (k) {
    case EV_MOVE:    return "legal";
    case EV_ILLEGAL: return "illegal";
    case EV_PASS:    return "pass";
    case EV_RESIGN:  return "resign";
    case EV_TIMEOUT: return "timeout";
    case EV_FORFEIT: return "forfeit";
    }
    return "?";
}

static bool add_captured(cJSON *o, const referee *r, const ref_event *ev) {
    cJSON *list = cJSON_AddArrayToObject(o, "captured");
    if (!list) return false;
    int n, size = referee_settings(r)->size;
    const point *cap = referee_captured(r, ev, &n);
    char buf[VERTEX_BUF];
    for (int i = 0; i < n; i++) {
        cJSON *s = cJSON_CreateString(vertex_format(cap[i], size, buf));
        if (!s) return false;
        cJSON_AddItemToArray(list, s);
    }
    return true;
}

cJSON *event_json_truth(const referee *r, const ref_event *ev) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    char buf[VERTEX_BUF];
    bool attempt = ev->kind == EV_MOVE || ev->kind == EV_ILLEGAL;
    const char *word = attempt ? vertex_format(ev->point, referee_settings(r)->size, buf)
                                 : event_word(ev->kind);
    bool ok = cJSON_AddStringToObject(o, "color", color_letter(ev->color)) &&
              cJSON_AddStringToObject(o, "action", word) &&
              cJSON_AddStringToObject(o, "result", event_word(ev->kind));
    if (ok && ev->kind == EV_MOVE)
        ok = add_captured(o, r, ev) && cJSON_AddBoolToObject(o, "atari", ev->atari);
    if (ok && ev->kind == EV_ILLEGAL)
        ok = cJSON_AddStringToObject(o, "reason", illegal_reason_name(ev->reason)) != NULL;
    if (!ok) { cJSON_Delete(o); return NULL; }
    return o;
}

cJSON *event_json_refusal(refusal why) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    if (!cJSON_AddStringToObject(o, "result", "refused") ||
        !cJSON_AddStringToObject(o, "error", refusal_name(why))) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

cJSON *event_json_result(const game_result *res) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    bool ok = cJSON_AddBoolToObject(o, "over", res->over) != NULL;
    if (ok && res->over) {
        const char *winner = color_letter(res->winner);
        ok = cJSON_AddStringToObject(o, "reason", end_reason_name(res->reason)) &&
             (winner ? cJSON_AddStringToObject(o, "winner", winner) != NULL
                     : cJSON_AddNullToObject(o, "winner") != NULL);
        if (ok && res->scored) {
            cJSON *score = cJSON_AddObjectToObject(o, "score");
            ok = score && cJSON_AddNumberToObject(score, "black", res->score_black_x2 / 2.0) &&
                 cJSON_AddNumberToObject(score, "white", res->score_white_x2 / 2.0);
        }
    }
    if (!ok) { cJSON_Delete(o); return NULL; }
    return o;
}
