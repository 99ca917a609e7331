/* truth_json: one event as the referee saw it (see truth_json.h). */
#include "cli/truth_json.h"

#include <stdbool.h>

#include "engine/color.h"
#include "engine/vertex.h"
#include "wire/event_json.h"

/* The word for an event's action and for its result. */
static const char *event_word(event_kind k) {
    switch (k) {
    case EV_MOVE: return "legal";
    case EV_ILLEGAL: return "illegal";
    case EV_PASS: return "pass";
    case EV_RESIGN: return "resign";
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

cJSON *truth_json_event(const referee *r, const ref_event *ev) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    char buf[VERTEX_BUF];
    bool attempt = ev->kind == EV_MOVE || ev->kind == EV_ILLEGAL;
    const char *word =
        attempt ? vertex_format(ev->point, referee_settings(r)->size, buf) : event_word(ev->kind);
    bool ok = cJSON_AddStringToObject(o, "color", color_letter(ev->color)) &&
              cJSON_AddStringToObject(o, "action", word) &&
              cJSON_AddStringToObject(o, "result", event_word(ev->kind));
    if (ok && ev->kind == EV_MOVE)
        ok = add_captured(o, r, ev) && cJSON_AddBoolToObject(o, "atari", ev->atari);
    if (ok && ev->kind == EV_ILLEGAL)
        ok = cJSON_AddStringToObject(o, "reason", illegal_reason_name(ev->reason)) != NULL;
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}
