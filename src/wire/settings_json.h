/* settings_json: game settings to and from JSON, strictly.
 *
 * The one JSON shape of a table's settings, used by the CLI referee's first
 * line and by the HTTP API: every field optional,
 *   {"size":9,"komi":7.5,"handicap":0,"ko":"simple","rules":"olympiad",
 *    "torus":false,"capture_go":false}
 * where capture_go is false, true (the first capture wins) or a positive
 * integer (the first to capture that many stones wins), and an absent komi
 * is 7.5, or 0.5 with a handicap. Strict means an unknown or repeated
 * field, a wrong type or a value out of range is an error with a short
 * message fit to show the user, never silently ignored. */
#ifndef PG_WIRE_SETTINGS_JSON_H
#define PG_WIRE_SETTINGS_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "engine/rules.h"

/* Reads a settings object into *out (validated with settings_validate).
 * On error returns false and writes a one-line message into err. */
bool settings_from_json(const cJSON *obj, game_settings *out, char *err, size_t errlen);

/* The same from JSON text (one object, nothing after it but spaces). */
bool settings_parse_json(const char *text, game_settings *out, char *err, size_t errlen);

/* The settings as a JSON object with every field; the caller owns it
 * (cJSON_Delete). NULL only when out of memory. */
cJSON *settings_to_json(const game_settings *s);

/* Names used on the wire: "simple"/"superko", "olympiad"/"common"/"hamburg". */
const char *ko_rule_name(ko_rule k);
const char *referee_rules_name(referee_rules r);

#endif
