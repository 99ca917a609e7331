/* options_json: stored table options and settings as text (see
 * options_json.h). */
#include "wire/options_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "engine/color.h"
#include "wire/clock_json.h"
#include "wire/json_parse.h"
#include "wire/json_print.h"
#include "wire/settings_json.h"

/* o's text, and o freed. */
static char *text_of(cJSON *o) {
    char *text = o ? json_print(o, NULL) : NULL;
    cJSON_Delete(o);
    return text;
}

char *table_options_text(const table_options *o) {
    cJSON *j = cJSON_CreateObject();
    bool ok = j && cJSON_AddBoolToObject(j, "deduction_aid", o->deduction_aid);
    if (ok && o->computer_color)
        ok = cJSON_AddStringToObject(j, "level", o->level) &&
             cJSON_AddStringToObject(j, "computer", color_name(o->computer_color));
    if (ok) return text_of(j);
    cJSON_Delete(j);
    return NULL;
}

bool table_options_parse(const char *text, bool computer_game, table_options *out) {
    memset(out, 0, sizeof *out);
    cJSON *o = json_parse_str(text ? text : "{}", NULL);
    bool ok = cJSON_IsObject(o);
    out->deduction_aid = ok && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "deduction_aid"));
    if (ok && computer_game) {
        const cJSON *level = cJSON_GetObjectItemCaseSensitive(o, "level");
        const cJSON *comp = cJSON_GetObjectItemCaseSensitive(o, "computer");
        ok = cJSON_IsString(level) && cJSON_IsString(comp) && strlen(level->valuestring) < sizeof out->level;
        if (ok) {
            snprintf(out->level, sizeof out->level, "%s", level->valuestring);
            out->computer_color = !strcmp(comp->valuestring, "black")   ? BLACK
                                  : !strcmp(comp->valuestring, "white") ? WHITE
                                                                        : 0;
            ok = out->computer_color != 0;
        }
    }
    cJSON_Delete(o);
    return ok;
}

char *settings_text(const game_settings *s) { return text_of(settings_to_json(s)); }

char *time_control_text(const time_control *tc) { return text_of(time_control_to_json(tc)); }
