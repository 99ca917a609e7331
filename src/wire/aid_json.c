/* aid_json: the deduction aid's answer (see aid_json.h). */
#include "wire/aid_json.h"

#include <cjson/cJSON.h>

#include "engine/color.h"
#include "engine/vertex.h"

static bool add_points(cJSON *o, int size, const uint8_t *percent) {
    cJSON *points = cJSON_AddObjectToObject(o, "points");
    if (!points) return false;
    for (point p = 0; p < size * size; p++) {
        if (percent[p] == 0) continue;
        char buf[VERTEX_BUF];
        if (!cJSON_AddNumberToObject(points, vertex_format(p, size, buf), percent[p])) return false;
    }
    return true;
}

char *aid_json_render(int color, int seq, int size, int samples, const uint8_t *percent) {
    cJSON *o = cJSON_CreateObject();
    bool ok = o && cJSON_AddStringToObject(o, "color", color_name(color)) &&
              cJSON_AddNumberToObject(o, "seq", seq) && cJSON_AddNumberToObject(o, "size", size) &&
              cJSON_AddNumberToObject(o, "samples", samples) && add_points(o, size, percent);
    char *text = ok ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    return text;
}
