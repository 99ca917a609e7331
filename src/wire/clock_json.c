/* clock_json: time controls and clocks as JSON (see clock_json.h).
 *
 * The reader walks the object once: each field must be one the chosen type
 * has, appear once and hold a whole number in range, so that a typo such as
 * "increments" is refused rather than silently giving an absolute clock. */
#include "wire/clock_json.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "engine/board.h"
#include "engine/color.h"
#include "util/utf8.h"
#include "wire/json_number.h"
#include "wire/json_parse.h"

typedef struct tc_field {
    const char *name;
    int lo, hi;
    size_t offset;
} tc_field;

#define FIELD(n, lo, hi, member) \
    { n, lo, hi, offsetof(time_control, member) }

static const tc_field none_fields[] = { FIELD("days_per_move", 1, TC_DAYS_MAX, days_per_move), { 0 } };
static const tc_field absolute_fields[] = { FIELD("main", 1, TC_MAIN_MAX_S, main_s), { 0 } };
static const tc_field fischer_fields[] = {
    FIELD("main", 1, TC_MAIN_MAX_S, main_s),
    FIELD("increment", 1, TC_INCREMENT_MAX_S, increment_s),
    { 0 },
};
static const tc_field byoyomi_fields[] = {
    FIELD("main", 0, TC_MAIN_MAX_S, main_s),
    FIELD("periods", 1, TC_PERIODS_MAX, periods),
    FIELD("period", 1, TC_PERIOD_MAX_S, period_s),
    { 0 },
};

typedef struct tc_type {
    const char *name;
    time_control_kind kind;
    const tc_field *fields;
    int required;
} tc_type;

/* required: how many of the fields must be present (the first ones). */
static const tc_type types[] = {
    { "none", TC_NONE, none_fields, 0 },
    { "absolute", TC_ABSOLUTE, absolute_fields, 1 },
    { "fischer", TC_FISCHER, fischer_fields, 2 },
    { "byoyomi", TC_BYOYOMI, byoyomi_fields, 3 },
};

const char *time_control_kind_name(time_control_kind kind) {
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].kind == kind) return types[i].name;
    return "none";
}

static const tc_type *type_named(const cJSON *v) {
    if (!cJSON_IsString(v)) return NULL;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(v->valuestring, types[i].name)) return &types[i];
    return NULL;
}

/* One field of the object for type t; false with a message. */
static bool read_field(const tc_type *t, const cJSON *f, time_control *out, unsigned *seen, char *err,
                       size_t errlen) {
    for (int i = 0; t->fields[i].name; i++) {
        const tc_field *spec = &t->fields[i];
        if (strcmp(f->string, spec->name)) continue;
        if (*seen & 1u << i) {
            snprintf(err, errlen, "time_control: '%s' appears twice", spec->name);
            return false;
        }
        *seen |= 1u << i;
        if (json_whole_int(f, spec->lo, spec->hi, (int *)((char *)out + spec->offset))) return true;
        snprintf(err, errlen, "time_control: '%s' must be a whole number from %d to %d", spec->name, spec->lo,
                 spec->hi);
        return false;
    }
    char name[48];
    snprintf(err, errlen, "time_control: '%s' is not a field of type \"%s\"", utf8_excerpt(name, sizeof name, f->string, 40),
             t->name);
    return false;
}

bool time_control_from_json(const cJSON *obj, time_control *out, char *err, size_t errlen) {
    *out = time_control_none();
    if (!cJSON_IsObject(obj)) {
        snprintf(err, errlen, "time_control must be an object");
        return false;
    }
    const tc_type *t = type_named(cJSON_GetObjectItemCaseSensitive(obj, "type"));
    if (!t) {
        snprintf(err, errlen,
                 "time_control: 'type' must be \"none\", \"absolute\", \"fischer\" or \"byoyomi\"");
        return false;
    }
    out->kind = t->kind;
    unsigned seen = 0;
    bool type_seen = false;
    for (const cJSON *f = obj->child; f; f = f->next) {
        if (!strcmp(f->string, "type")) {
            if (type_seen) {
                snprintf(err, errlen, "time_control: 'type' appears twice");
                return false;
            }
            type_seen = true;
        } else if (!read_field(t, f, out, &seen, err, errlen)) {
            return false;
        }
    }
    for (int i = 0; i < t->required; i++)
        if (!(seen & 1u << i)) {
            snprintf(err, errlen, "time_control: type \"%s\" needs '%s'", t->name, t->fields[i].name);
            return false;
        }
    const char *why = time_control_validate(out);
    if (why) snprintf(err, errlen, "time_control: %s", why);
    return why == NULL;
}

bool time_control_parse_json(const char *text, time_control *out, char *err, size_t errlen) {
    cJSON *o = json_parse_str(text, NULL);
    bool ok = time_control_from_json(o, out, err, errlen);
    cJSON_Delete(o);
    return ok;
}

cJSON *time_control_to_json(const time_control *tc) {
    cJSON *o = cJSON_CreateObject();
    bool ok = o && cJSON_AddStringToObject(o, "type", time_control_kind_name(tc->kind));
    const tc_type *t = NULL;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].kind == tc->kind) t = &types[i];
    for (int i = 0; ok && t && t->fields[i].name; i++) {
        int v = *(const int *)((const char *)tc + t->fields[i].offset);
        if (tc->kind == TC_NONE && v == 0) continue; /* no days_per_move: no limit */
        ok = cJSON_AddNumberToObject(o, t->fields[i].name, v) != NULL;
    }
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static bool add_side(cJSON *o, const char *name, const time_control *tc, const clock_side *s) {
    if (!time_control_limited(tc)) return cJSON_AddNullToObject(o, name) != NULL;
    cJSON *side = cJSON_AddObjectToObject(o, name);
    bool ok = side && cJSON_AddNumberToObject(side, "main_ms", (double)s->main_ms);
    if (ok && tc->kind == TC_BYOYOMI)
        ok = cJSON_AddNumberToObject(side, "periods", s->periods) &&
             cJSON_AddNumberToObject(side, "period_ms", (double)s->period_ms);
    return ok;
}

static bool add_time_or_null(cJSON *o, const char *name, bool present, int64_t ms) {
    return present ? cJSON_AddNumberToObject(o, name, (double)ms) != NULL
                   : cJSON_AddNullToObject(o, name) != NULL;
}

cJSON *clock_to_json(const game_clock *c, int64_t now, int64_t claim_at_ms) {
    clock_side sides[3];
    clock_read(c, now, sides);
    cJSON *o = cJSON_CreateObject();
    const char *running = color_name(c->running);
    bool ok = o && cJSON_AddNumberToObject(o, "now_ms", (double)now) &&
              (running ? cJSON_AddStringToObject(o, "running", running) != NULL
                       : cJSON_AddNullToObject(o, "running") != NULL) &&
              add_time_or_null(o, "turn_started_ms", running != NULL, c->turn_start_ms) &&
              add_side(o, "black", &c->tc, &sides[BLACK]) && add_side(o, "white", &c->tc, &sides[WHITE]) &&
              add_time_or_null(o, "claim_at_ms", claim_at_ms >= 0, claim_at_ms);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}
