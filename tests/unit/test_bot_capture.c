/* Unit tests of the strong player in capture Go: it plays for the capture
 * target, not for territory. */
#include "harness.h"

#include "bot/bot.h"
#include "test_bot_util.h"

/* Capture Go, first capture wins, Hamburg rules (an occupied point is
 * told): Black plays `ours`, White `theirs`, and Black's try on `theirs`
 * is refused, so Black knows that stone. */
static duel *capture_go_after_a_found_stone(const char *ours, const char *theirs) {
    game_settings s = settings_default();
    s.rules = RULES_HAMBURG;
    s.capture_target = 1;
    duel *d = duel_new(&s);
    CHECK_EQ_INT(duel_play(d, ours), REFUSE_NONE);
    CHECK_EQ_INT(duel_play(d, theirs), REFUSE_NONE);
    CHECK_EQ_INT(duel_play(d, theirs), REFUSE_NONE); /* refused: occupied */
    CHECK_EQ_INT(d->mem[BLACK].opp[duel_point(d, theirs)], OPP_CERTAIN);
    return d;
}

/* Black's decision is `vertex` for every seed from 1 to `seeds`. */
static void check_black_plays(duel *d, const bot_config *cfg, uint64_t seeds, const char *vertex) {
    for (uint64_t seed = 1; seed <= seeds; seed++)
        CHECK_EQ_INT(bot_choose(cfg, &d->mem[BLACK], seed, NULL, NULL), duel_point(d, vertex));
}

/* Black has found White's hidden corner stone at A1 next to its own
 * stone at B1: A2 captures it and wins at once, whatever else is on the
 * board. On the open 9x9 board a territory player would rather take the
 * centre; the capture-Go player takes the game, for every seed. */
TEST(bot_capture_go_takes_the_winning_capture) {
    bot_config cfg;
    CHECK(bot_config_parse("strong:1000", &cfg));
    duel *d = capture_go_after_a_found_stone("B1", "A1");
    check_black_plays(d, &cfg, 4, "A2");
    point p;
    CHECK_EQ_INT(duel_bot_step(d, &cfg, 5, &p), REFUSE_NONE);
    CHECK_EQ_INT(p, duel_point(d, "A2"));
    CHECK_EQ_INT(referee_result(d->ref).winner, BLACK);
    duel_free(d);
}

/* Black's corner stone A1 has White's stone A2 beside it (found by
 * Black's refused try there), so B1 is its last liberty: any other move
 * lets White win by taking it. The strong player extends, for every
 * seed, because its simulated opponent takes a winning capture when the
 * sampled board offers one (random replies found B1 about once in 80).
 *
 *     . . .                . . .
 *     O . .      ->        O . .
 *     X . .                X X .    B1 saves A1
 */
TEST(bot_capture_go_saves_a_stone_in_atari) {
    bot_config cfg;
    CHECK(bot_config_parse("strong:3000", &cfg));
    duel *d = capture_go_after_a_found_stone("A1", "A2");
    check_black_plays(d, &cfg, 16, "B1");
    duel_free(d);
}
