/* json_parse: limits checked before cJSON parses (see json_parse.h).
 *
 * The scan keeps two bits of state, inside-a-string and after-a-backslash,
 * and a depth counter for brackets outside strings. It does not validate
 * JSON (cJSON does that next); it only has to be right about where strings
 * begin and end, which JSON makes unambiguous: a string opens and closes
 * at an unescaped '"'. */
#include "wire/json_parse.h"

#include <stdbool.h>
#include <string.h>

_Static_assert(JSON_DEPTH_MAX == 16, "json_parse_message() names the depth limit");

/* \u0000, with any case of hex digits (only zeros, so case is moot). */
static bool is_nul_escape(const char *p, size_t left) { return left >= 5 && !memcmp(p, "u0000", 5); }

static json_parse_status scan_limits(const char *text, size_t len) {
    int depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c == '\0') return JSON_PARSE_NUL;
        if (in_string) {
            if (c == '\\') {
                if (is_nul_escape(text + i + 1, len - i - 1)) return JSON_PARSE_NUL;
                i++; /* the escaped character cannot end the string */
            } else if (c == '"') {
                in_string = false;
            }
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > JSON_DEPTH_MAX) return JSON_PARSE_TOO_DEEP;
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
    return JSON_PARSE_OK;
}

static bool only_space(const char *p, const char *end) {
    for (; p < end; p++)
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') return false;
    return true;
}

cJSON *json_parse(const char *text, size_t len, json_parse_status *why) {
    json_parse_status st = text ? scan_limits(text, len) : JSON_PARSE_SYNTAX;
    cJSON *value = NULL;
    if (st == JSON_PARSE_OK) {
        const char *end = NULL;
        value = cJSON_ParseWithLengthOpts(text, len, &end, 0);
        if (!value || !end || !only_space(end, text + len)) {
            cJSON_Delete(value);
            value = NULL;
            st = JSON_PARSE_SYNTAX;
        }
    }
    if (why) *why = st;
    return value;
}

cJSON *json_parse_str(const char *text, json_parse_status *why) {
    text = text ? text : "";
    return json_parse(text, strlen(text), why);
}

const char *json_parse_message(json_parse_status why) {
    switch (why) {
    case JSON_PARSE_OK: return "The JSON is well formed.";
    case JSON_PARSE_TOO_DEEP: return "JSON arrays and objects may be nested at most 16 deep.";
    case JSON_PARSE_NUL: return "JSON strings must not hold U+0000 (NUL).";
    case JSON_PARSE_SYNTAX: break;
    }
    return "The body is not valid JSON.";
}
