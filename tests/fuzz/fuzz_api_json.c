/* fuzz_api_json: the pure parsers under the API's request bodies, alone,
 * at full speed (fuzz_api_http drives them through the server, slower).
 *
 * Byte 0 picks the parser and a board size, the rest is the body text,
 * parsed with cJSON as the server does. Checks:
 *  - settings (settings_parse_json, the create body's "settings" and the
 *    CLI's first line): accepted settings validate, and printing them
 *    (settings_to_json) and reading that back gives the same settings;
 *  - an action (view_json_parse_action): an accepted one has seq >= 1, a
 *    known kind, the caller's colour, and an attempt's point is on the
 *    board; a refusal always comes with a message;
 *  - the one JSON door (json_parse), on every input whatever byte 0 says:
 *    what it accepts is nested at most JSON_DEPTH_MAX deep and prints back
 *    to the same value; what it calls too deep or NUL-bearing is so; what
 *    it calls a syntax error cJSON refuses too. Seeds of deep nesting and
 *    a JSON dictionary (tests/fuzz/json.dict) lead the fuzzer there. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "engine/referee.h"
#include "fuzz_util.h"
#include "wire/json_parse.h"
#include "wire/settings_json.h"
#include "wire/view_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool same_settings(const game_settings *a, const game_settings *b) {
    return a->size == b->size && a->komi_x2 == b->komi_x2 && a->handicap == b->handicap && a->ko == b->ko &&
           a->rules == b->rules && a->capture_target == b->capture_target && a->torus == b->torus;
}

static void check_settings(const char *text) {
    game_settings s;
    char err[160] = "";
    if (!settings_parse_json(text, &s, err, sizeof err)) {
        FUZZ_CHECK(err[0], "settings refused without a message");
        return;
    }
    FUZZ_CHECK(settings_validate(&s) == NULL, "accepted settings do not validate: %s", settings_validate(&s));
    cJSON *printed = settings_to_json(&s);
    FUZZ_CHECK(printed, "settings_to_json failed");
    game_settings back;
    FUZZ_CHECK(settings_from_json(printed, &back, err, sizeof err), "printed settings refused: %s", err);
    FUZZ_CHECK(same_settings(&s, &back), "settings changed through JSON: %s", text);
    cJSON_Delete(printed);
}

static void check_action(const char *text, size_t len, int size, int color) {
    cJSON *body = json_parse(text, len, NULL); /* as the server reads bodies */
    if (!cJSON_IsObject(body)) { /* the server answers bad_json before parsing */
        cJSON_Delete(body);
        return;
    }
    action a;
    int seq = 0;
    char err[160] = "";
    action_json_status st = view_json_parse_action(body, size, color, &a, &seq, err, sizeof err);
    cJSON_Delete(body);
    if (st != ACTION_JSON_OK) {
        FUZZ_CHECK(err[0], "an action refused without a message");
        return;
    }
    FUZZ_CHECK(seq >= 1, "accepted seq %d", seq);
    /* A claim of an abandoned game is the absent opponent's forfeit. */
    int actor = a.kind == ACT_FORFEIT ? color_other(color) : color;
    FUZZ_CHECK(a.color == actor, "the action's colour is not the seat's (or, for a claim, the opponent's)");
    FUZZ_CHECK(a.kind == ACT_ATTEMPT || a.kind == ACT_PASS || a.kind == ACT_RESIGN || a.kind == ACT_FORFEIT,
               "a client may not ask for action kind %d", a.kind);
    if (a.kind == ACT_ATTEMPT)
        FUZZ_CHECK(a.point >= 0 && a.point < size * size, "attempt off the board: %d", a.point);
}

static int depth_of(const cJSON *v) {
    int deepest = 0;
    for (const cJSON *c = v ? v->child : NULL; c; c = c->next) {
        int d = depth_of(c);
        if (d > deepest) deepest = d;
    }
    return (cJSON_IsArray(v) || cJSON_IsObject(v)) ? deepest + 1 : deepest;
}

static bool holds_nul(const char *text, size_t len) {
    if (memchr(text, '\0', len)) return true;
    for (size_t i = 0; i + 6 <= len; i++)
        if (text[i] == '\\' && !memcmp(text + i + 1, "u0000", 5)) return true;
    return false;
}

/* cJSON alone, on the whole text (trailing white space allowed), or NULL. */
static cJSON *plain_parse(const char *text, size_t len) {
    const char *end = NULL;
    cJSON *v = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    while (v && end < text + len && (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')) end++;
    if (v && end != text + len) {
        cJSON_Delete(v);
        v = NULL;
    }
    return v;
}

static void check_json_door(const char *text, size_t len) {
    json_parse_status why;
    cJSON *v = json_parse(text, len, &why);
    if (v) {
        FUZZ_CHECK(why == JSON_PARSE_OK, "a value with status %d", why);
        FUZZ_CHECK(depth_of(v) <= JSON_DEPTH_MAX, "accepted JSON nested %d deep", depth_of(v));
        char *printed = cJSON_PrintUnformatted(v);
        FUZZ_CHECK(printed, "printing failed");
        /* Compared as printed text: cJSON_Compare finds members by name,
         * so it cannot compare objects with repeated names. */
        cJSON *back = json_parse(printed, strlen(printed), NULL);
        char *again = back ? cJSON_PrintUnformatted(back) : NULL;
        FUZZ_CHECK(again && !strcmp(printed, again), "printed JSON reads back different: %.200s", printed);
        cJSON_free(again);
        cJSON_Delete(back);
        cJSON_free(printed);
        cJSON_Delete(v);
        return;
    }
    /* The fuzzer's main thread has an 8 MiB stack: cJSON's own recursion
     * (at most 1,000 deep) is safe here, so it can judge the door. */
    cJSON *plain = plain_parse(text, len);
    if (why == JSON_PARSE_TOO_DEEP) FUZZ_CHECK(!plain || depth_of(plain) > JSON_DEPTH_MAX, "refused as too deep");
    else if (why == JSON_PARSE_NUL) FUZZ_CHECK(holds_nul(text, len), "refused for a NUL it does not hold");
    cJSON_Delete(plain);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    check_json_door(text, size - 1);
    unsigned pick = data[0];
    if (pick & 1) check_settings(text);
    else check_action(text, size - 1, 5 + (int)((pick >> 1) % 21), (pick & 2) ? WHITE : BLACK);
    free(text);
    return 0;
}
