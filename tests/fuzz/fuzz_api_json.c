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
 *    board; a refusal always comes with a message. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "engine/referee.h"
#include "fuzz_util.h"
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
    cJSON *body = cJSON_ParseWithLength(text, len);
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    unsigned pick = data[0];
    if (pick & 1) check_settings(text);
    else check_action(text, size - 1, 5 + (int)((pick >> 1) % 21), (pick & 2) ? WHITE : BLACK);
    free(text);
    return 0;
}
