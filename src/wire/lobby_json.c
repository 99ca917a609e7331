/* lobby_json: the lobby's lists as JSON. See lobby_json.h. */
#include "wire/lobby_json.h"

#include "wire/clock_json.h"
#include "wire/json_print.h"
#include "wire/settings_json.h"
#include "wire/view_json.h"

static bool add_ms_or_null(cJSON *o, const char *name, int64_t ms) {
    return ms ? cJSON_AddNumberToObject(o, name, (double)ms) != NULL : cJSON_AddNullToObject(o, name) != NULL;
}

/* "names":{"black":..,"white":..}, null for a seat without one. */
static bool add_names(cJSON *o, const lobby_item *it) {
    cJSON *names = cJSON_AddObjectToObject(o, "names");
    const char *b = it->black_name, *w = it->white_name;
    return names &&
           (b && *b ? cJSON_AddStringToObject(names, "black", b) : cJSON_AddNullToObject(names, "black")) &&
           (w && *w ? cJSON_AddStringToObject(names, "white", w) : cJSON_AddNullToObject(names, "white"));
}

static cJSON *entry_json(const lobby_item *it) {
    cJSON *o = cJSON_CreateObject();
    cJSON *settings = settings_to_json(it->settings);
    cJSON *tc = time_control_to_json(it->tc);
    bool ok = o && settings && tc && cJSON_AddStringToObject(o, "id", it->id);
    if (ok) {
        cJSON_AddItemToObject(o, "settings", settings);
        cJSON_AddItemToObject(o, "time_control", tc);
        settings = tc = NULL;
        const char *free_color = it->free_color ? view_json_color_name(it->free_color) : NULL;
        ok = (free_color ? cJSON_AddStringToObject(o, "free", free_color) != NULL
                         : cJSON_AddNullToObject(o, "free") != NULL) &&
             cJSON_AddNumberToObject(o, "created_ms", (double)it->created_ms) &&
             add_ms_or_null(o, "started_ms", it->started_ms) && add_names(o, it);
    }
    cJSON_Delete(settings);
    cJSON_Delete(tc);
    if (ok) return o;
    cJSON_Delete(o);
    return NULL;
}

static bool add_list(cJSON *o, const char *name, const lobby_item *items, size_t n) {
    cJSON *array = cJSON_AddArrayToObject(o, name);
    for (size_t i = 0; array && i < n; i++) {
        cJSON *e = entry_json(&items[i]);
        if (!e) return false;
        cJSON_AddItemToArray(array, e);
    }
    return array != NULL;
}

cJSON *lobby_json(const lobby_item *open, size_t n_open, const lobby_item *playing, size_t n_playing) {
    cJSON *o = cJSON_CreateObject();
    if (o && add_list(o, "open", open, n_open) && add_list(o, "playing", playing, n_playing)) return o;
    cJSON_Delete(o);
    return NULL;
}

bool lobby_json_members(strbuf *sb, const lobby_item *open, size_t n_open, const lobby_item *playing,
                        size_t n_playing) {
    cJSON *o = lobby_json(open, n_open, playing, n_playing);
    bool ok = o && json_print_members(sb, o) && !sb->failed;
    cJSON_Delete(o);
    return ok;
}
