/* rules: settings defaults and validation (see rules.h). */
#include "engine/rules.h"

#include <stddef.h>
#include <string.h>

#include "engine/handicap.h"

game_settings settings_default(void) {
    game_settings s;
    memset(&s, 0, sizeof s);
    s.size = 9;
    s.komi_x2 = settings_default_komi_x2(0);
    s.ko = KO_SIMPLE;
    s.rules = RULES_OLYMPIAD;
    return s;
}

int settings_default_komi_x2(int handicap) { return handicap > 0 ? 1 : 15; }

const char *settings_validate(const game_settings *s) {
    if (s->size < BOARD_MIN_SIZE || s->size > BOARD_MAX_SIZE) return "size must be 5 to 25";
    if (s->komi_x2 < -2000 || s->komi_x2 > 2000) return "komi must be between -1000 and 1000";
    if (s->handicap != 0 && s->size < 7) return "no handicap below 7x7";
    if (s->handicap != 0 && (s->handicap < 2 || s->handicap > handicap_max(s->size)))
        return handicap_max(s->size) == 4 ? "handicap must be 0 or 2 to 4 on this size"
                                          : "handicap must be 0 or 2 to 9";
    if (s->ko != KO_SIMPLE && s->ko != KO_SUPERKO) return "ko must be simple or superko";
    if (s->rules != RULES_OLYMPIAD && s->rules != RULES_COMMON && s->rules != RULES_HAMBURG)
        return "rules must be olympiad, common or hamburg";
    if (s->capture_target < 0 || s->capture_target > BOARD_MAX_POINTS)
        return "capture target must be 0 (off) to 625";
    return NULL;
}
