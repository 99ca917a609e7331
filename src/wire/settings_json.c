/* settings_json: strict JSON <-> game_settings (see settings_json.h).
 *
 * One small reader per field, table-driven, so that the list of accepted
 * fields, their checks and their error messages sit together. */
#include "wire/settings_json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/handicap.h"
#include "util/utf8.h"
#include "wire/json_number.h"
#include "wire/json_parse.h"

typedef bool (*field_reader)(const cJSON *v, game_settings *s, bool *komi_set);

static bool read_size(const cJSON *v, game_settings *s, bool *komi_set) {
    (void)komi_set;
    return json_whole_int(v, BOARD_MIN_SIZE, BOARD_MAX_SIZE, &s->size);
}

static bool read_komi(const cJSON *v, game_settings *s, bool *komi_set) {
    if (!cJSON_IsNumber(v)) return false;
    double twice = v->valuedouble * 2;
    if (!(twice >= -2000 && twice <= 2000) || twice != floor(twice)) return false;
    s->komi_x2 = (int)twice;
    *komi_set = true;
    return true;
}

static bool read_handicap(const cJSON *v, game_settings *s, bool *komi_set) {
    (void)komi_set;
    return json_whole_int(v, 0, HANDICAP_MAX, &s->handicap);
}

static bool read_ko(const cJSON *v, game_settings *s, bool *komi_set) {
    (void)komi_set;
    if (!cJSON_IsString(v)) return false;
    if (!strcmp(v->valuestring, "simple")) s->ko = KO_SIMPLE;
    else if (!strcmp(v->valuestring, "superko")) s->ko = KO_SUPERKO;
    else return false;
    return true;
}

static bool read_rules(const cJSON *v, game_settings *s, bool *komi_set) {
    (void)komi_set;
    if (!cJSON_IsString(v)) return false;
    if (!strcmp(v->valuestring, "olympiad")) s->rules = RULES_OLYMPIAD;
    else if (!strcmp(v->valuestring, "common")) s->rules = RULES_COMMON;
    else if (!strcmp(v->valuestring, "hamburg")) s->rules = RULES_HAMBURG;
    else return false;
    return true;
}

static bool read_torus(const cJSON *v, game_settings *s, bool *komi_set) {
    (void)komi_set;
    if (!cJSON_IsBool(v)) return false;
    s->torus = cJSON_IsTrue(v);
    return true;
}

static bool read_capture_go(const cJSON *v, game_settings *s, bool *komi_set) {
    (void)komi_set;
    if (cJSON_IsBool(v)) {
        s->capture_target = cJSON_IsTrue(v) ? 1 : 0;
        return true;
    }
    return json_whole_int(v, 1, BOARD_MAX_POINTS, &s->capture_target);
}

static const struct {
    const char *name;
    field_reader read;
    const char *expect;
} fields[] = {
    { "size", read_size, "an integer from 5 to 25" },
    { "komi", read_komi, "a number in steps of 0.5 between -1000 and 1000" },
    { "handicap", read_handicap, "an integer from 0 to 9" },
    { "ko", read_ko, "\"simple\" or \"superko\"" },
    { "rules", read_rules, "\"olympiad\", \"common\" or \"hamburg\"" },
    { "torus", read_torus, "true or false" },
    { "capture_go", read_capture_go, "true, false or a positive integer up to 625" },
};
#define N_FIELDS (sizeof fields / sizeof fields[0])

bool settings_from_json(const cJSON *obj, game_settings *out, char *err, size_t errlen) {
    if (!cJSON_IsObject(obj)) {
        snprintf(err, errlen, "settings must be a JSON object");
        return false;
    }
    game_settings s = settings_default();
    bool komi_set = false, seen[N_FIELDS] = { false };
    for (const cJSON *f = obj->child; f; f = f->next) {
        size_t i = 0;
        while (i < N_FIELDS && strcmp(fields[i].name, f->string)) i++;
        if (i == N_FIELDS) {
            char name[48];
            snprintf(err, errlen, "unknown setting \"%s\"", utf8_excerpt(name, sizeof name, f->string, 40));
            return false;
        }
        if (seen[i]) {
            snprintf(err, errlen, "setting \"%s\" given twice", fields[i].name);
            return false;
        }
        seen[i] = true;
        if (!fields[i].read(f, &s, &komi_set)) {
            snprintf(err, errlen, "%s must be %s", fields[i].name, fields[i].expect);
            return false;
        }
    }
    if (!komi_set) s.komi_x2 = settings_default_komi_x2(s.handicap);
    const char *bad = settings_validate(&s);
    if (bad) {
        snprintf(err, errlen, "%s", bad);
        return false;
    }
    *out = s;
    return true;
}

bool settings_parse_json(const char *text, game_settings *out, char *err, size_t errlen) {
    cJSON *obj = json_parse_str(text, NULL);
    if (!obj) {
        snprintf(err, errlen, "settings are not valid JSON");
        return false;
    }
    bool ok = settings_from_json(obj, out, err, errlen);
    cJSON_Delete(obj);
    return ok;
}

const char *ko_rule_name(ko_rule k) { return k == KO_SUPERKO ? "superko" : "simple"; }

const char *referee_rules_name(referee_rules r) {
    return r == RULES_COMMON ? "common" : r == RULES_HAMBURG ? "hamburg" : "olympiad";
}

cJSON *settings_to_json(const game_settings *s) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    bool ok = cJSON_AddNumberToObject(o, "size", s->size) &&
              cJSON_AddNumberToObject(o, "komi", s->komi_x2 / 2.0) &&
              cJSON_AddNumberToObject(o, "handicap", s->handicap) &&
              cJSON_AddStringToObject(o, "ko", ko_rule_name(s->ko)) &&
              cJSON_AddStringToObject(o, "rules", referee_rules_name(s->rules)) &&
              cJSON_AddBoolToObject(o, "torus", s->torus);
    if (ok) {
        ok = s->capture_target > 1 ? cJSON_AddNumberToObject(o, "capture_go", s->capture_target) != NULL
                                   : cJSON_AddBoolToObject(o, "capture_go", s->capture_target == 1) != NULL;
    }
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}
