/* fuzz_game: turning fuzz bytes into a Phantom Go game, shared by the
 * targets that play games (fuzz_engine, fuzz_view_json): table settings
 * from three bytes, then actions, mostly attempts by the player to move but
 * also wrong colours, bad points, passes and the game-ending actions, so the
 * refusals and the end are reached as often as play. Header-only. */
#ifndef PG_FUZZ_GAME_H
#define PG_FUZZ_GAME_H

#include "engine/handicap.h"
#include "engine/referee.h"
#include "fuzz_util.h"

static inline game_settings settings_from(fuzz_bytes *fb) {
    game_settings s = settings_default();
    unsigned a = fuzz_u8(fb), b = fuzz_u8(fb), c = fuzz_u8(fb);
    s.size = (a & 0x80) ? 5 + (int)(a % 21) : 5 + (int)(a % 5); /* mostly small boards */
    s.torus = b & 1;
    s.ko = (b & 2) ? KO_SUPERKO : KO_SIMPLE;
    s.rules = (referee_rules)((b >> 2) % 3);
    s.capture_target = (b & 0x30) == 0x30 ? 1 + (int)(c % 4) : 0;
    s.handicap = (c & 0x80) ? (int)((c >> 2) % 10) : 0;
    if (s.handicap == 1) s.handicap = 0;
    if (s.handicap > handicap_max(s.size)) s.handicap = 0;
    s.komi_x2 = settings_default_komi_x2(s.handicap);
    return s;
}

static inline action action_from(fuzz_bytes *fb, const referee *r) {
    action a;
    unsigned k = fuzz_u8(fb), who = fuzz_u8(fb);
    int mover = referee_to_move(r);
    a.kind = k < 230   ? ACT_ATTEMPT
             : k < 248 ? ACT_PASS
             : k < 252 ? ACT_RESIGN
             : k < 254 ? ACT_TIMEOUT
                       : ACT_FORFEIT;
    if (who < 232) a.color = mover != EMPTY ? mover : BLACK;
    else a.color = (int[]){ BLACK, WHITE, EMPTY, 3, -1, 7, 1000, WHITE }[who & 7];
    int npoints = referee_settings(r)->size * referee_settings(r)->size;
    a.point = (point)((int)fuzz_below(fb, (unsigned)npoints + 4) - 2); /* -2..npoints+1 */
    return a;
}

#endif
