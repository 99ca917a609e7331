/* push_json: notices' facts and payloads from a seat's view (see
 * push_json.h). */
#include "wire/push_json.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "engine/color.h"
#include "wire/json_parse.h"
#include "wire/json_print.h"

struct push_view {
    cJSON *o;
};

static const cJSON *field(const cJSON *o, const char *name) { return cJSON_GetObjectItemCaseSensitive(o, name); }

/* Is seat `seat`'s `flag` ("taken", "connected") true in view v? */
static bool seat_flag(const cJSON *v, const char *seat, const char *flag) {
    return cJSON_IsTrue(field(field(field(v, "seats"), seat), flag));
}

push_view *push_view_read(const char *text, size_t len) {
    push_view *v = malloc(sizeof *v);
    if (!v) return NULL;
    v->o = json_parse(text, len, NULL);
    if (cJSON_IsObject(v->o)) return v;
    push_view_free(v);
    return NULL;
}

void push_view_free(push_view *v) {
    if (!v) return;
    cJSON_Delete(v->o);
    free(v);
}

void push_view_facts_of(const push_view *v, push_view_facts *out) {
    memset(out, 0, sizeof *out);
    out->over = cJSON_IsTrue(field(v->o, "over"));
    out->cancelled = cJSON_IsTrue(field(v->o, "cancelled"));
    for (int c = BLACK; c <= WHITE; c++) {
        out->taken[c] = seat_flag(v->o, color_name(c), "taken");
        out->connected[c] = seat_flag(v->o, color_name(c), "connected");
    }
    out->turn = (int)cJSON_GetNumberValue(field(v->o, "turn"));
    const cJSON *to_move = field(v->o, "to_move");
    if (cJSON_IsString(to_move))
        out->to_move = !strcmp(to_move->valuestring, "black") ? BLACK : !strcmp(to_move->valuestring, "white") ? WHITE : 0;
    const cJSON *rematch = field(v->o, "rematch");
    const cJSON *id = field(rematch, "id");
    if (cJSON_IsString(id) && !cJSON_IsTrue(field(rematch, "cancelled"))) out->rematch_id = id->valuestring;
}

/* "result":{reason, winner, score} of the view, or null. */
static bool add_result(cJSON *p, const cJSON *result, bool wanted) {
    if (!wanted || !cJSON_IsObject(result)) return cJSON_AddNullToObject(p, "result") != NULL;
    cJSON *r = cJSON_AddObjectToObject(p, "result");
    static const char *const keep[] = { "reason", "winner", "score" };
    for (size_t i = 0; r && i < sizeof keep / sizeof keep[0]; i++) {
        const cJSON *f = field(result, keep[i]);
        if (!f) continue;
        cJSON *copy = cJSON_Duplicate(f, true);
        if (!copy) return false;
        cJSON_AddItemToObject(r, keep[i], copy);
    }
    return r != NULL;
}

char *push_payload_text(const push_view *v, const char *game_id, const char *kind, int color) {
    cJSON *p = cJSON_CreateObject();
    const cJSON *opp_name = field(field(field(v->o, "seats"), color_name(color_other(color))), "name");
    bool ok = p && cJSON_AddStringToObject(p, "game", game_id) && cJSON_AddStringToObject(p, "kind", kind) &&
              cJSON_AddNumberToObject(p, "turn", cJSON_GetNumberValue(field(v->o, "turn"))) &&
              cJSON_AddStringToObject(p, "you", color_name(color)) &&
              (cJSON_IsString(opp_name) ? cJSON_AddStringToObject(p, "opponent", opp_name->valuestring) != NULL
                                        : cJSON_AddNullToObject(p, "opponent") != NULL) &&
              add_result(p, field(v->o, "result"), !strcmp(kind, "game_over"));
    char *text = ok ? json_print(p, NULL) : NULL;
    cJSON_Delete(p);
    return text;
}
