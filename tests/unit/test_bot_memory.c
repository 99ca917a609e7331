/* Unit tests of what the computer player infers from its observations
 * (memory.c) and of the boards it samples from that knowledge (belief.c):
 * every sample agrees with everything the player knows. */
#include "harness.h"

#include "bot/belief.h"
#include "bot/bot.h"
#include "test_bot_util.h"

static int fact(duel *d, int colour, const char *vertex) { return d->mem[colour].opp[duel_point(d, vertex)]; }

TEST(bot_memory_refused_point_holds_a_stone) {
    game_settings s = settings_default();
    duel *d = duel_new(&s);
    duel_play(d, "E5");
    duel_play(d, "D4");
    CHECK_EQ_INT(fact(d, BLACK, "D4"), OPP_UNKNOWN);
    duel_play(d, "D4"); /* illegal, reason untold: a stone or a suicide */
    CHECK_EQ_INT(fact(d, BLACK, "D4"), OPP_REFUSED);
    CHECK_EQ_INT(fact(d, WHITE, "D4"), OPP_UNKNOWN);
    duel_free(d);
}

TEST(bot_memory_capturers_surround_our_lost_stones) {
    game_settings s = settings_default();
    duel *d = duel_new(&s);
    duel_play(d, "A1");
    duel_play(d, "B1");
    duel_play(d, "E5");
    duel_play(d, "A2"); /* captures A1 */
    CHECK_EQ_INT(d->mem[BLACK].view.stone[duel_point(d, "A1")], EMPTY);
    CHECK_EQ_INT(fact(d, BLACK, "B1"), OPP_CERTAIN);
    CHECK_EQ_INT(fact(d, BLACK, "A2"), OPP_CERTAIN);
    CHECK_EQ_INT(fact(d, BLACK, "A1"), OPP_UNKNOWN);
    duel_free(d);
}

TEST(bot_memory_captured_stones_leave_empty_points) {
    game_settings s = settings_default();
    duel *d = duel_new(&s);
    duel_play(d, "E5");
    duel_play(d, "A1");
    duel_play(d, "B1");
    duel_play(d, "J9");
    duel_play(d, "A2"); /* captures A1, announced with its point */
    CHECK_EQ_INT(fact(d, BLACK, "A1"), OPP_CAPTURED);
    duel_free(d);
}

TEST(bot_memory_hamburg_capture_by_count) {
    game_settings s = settings_default();
    s.rules = RULES_HAMBURG;
    duel *d = duel_new(&s);
    duel_play(d, "E5");
    duel_play(d, "A1");
    duel_play(d, "A1"); /* illegal, reason told: occupied */
    CHECK_EQ_INT(fact(d, BLACK, "A1"), OPP_CERTAIN);
    duel_play(d, "B1");
    duel_play(d, "J9");
    duel_play(d, "A2"); /* captures one stone; only the count is told */
    CHECK_EQ_INT(fact(d, BLACK, "A1"), OPP_CAPTURED);
    duel_free(d);
}

/* White takes Black's single stone at D5 with a ko capture at C5; Black's
 * retake at once is refused for ko, and (the reason untold) Black must not
 * believe a stone is at D5. */
TEST(bot_memory_ko_refusal_is_not_a_stone) {
    game_settings s = settings_default();
    duel *d = duel_new(&s);
    static const char *const moves[] = { "B5", "E5", "C4", "D4", "C6", "D6", "D5", "C5" };
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
        CHECK_EQ_INT(duel_play(d, moves[i]), REFUSE_NONE);
    CHECK_EQ_INT(d->mem[BLACK].view.stone[duel_point(d, "D5")], EMPTY);
    CHECK_EQ_INT(duel_play(d, "D5"), REFUSE_NONE); /* refused: ko */
    CHECK_EQ_INT(referee_to_move(d->ref), BLACK);
    CHECK_EQ_INT(fact(d, BLACK, "D5"), OPP_UNKNOWN);
    duel_free(d);
}

/* Every sampled board keeps our stones exactly, has the public number of
 * opponent stones, makes this turn's refused points illegal again, and
 * leaves no group without a liberty; checked along a game between
 * heuristic players. (With random players that try dozens of points a
 * turn, more refusals than stones can outrun what the sampler can explain.) */
TEST(bot_belief_samples_agree_with_knowledge) {
    game_settings s = settings_default();
    bot_config player;
    CHECK(bot_config_parse("heuristic", &player));
    duel *d = duel_new(&s);
    static belief bf;
    static board sample;
    rng r;
    rng_seed(&r, 3);
    for (int step = 0; step < 400 && referee_to_move(d->ref) != EMPTY; step++) {
        point p;
        CHECK_EQ_INT(duel_bot_step(d, &player, (uint64_t)step, &p), REFUSE_NONE);
        int me = referee_to_move(d->ref);
        if (me == EMPTY || step % 10 != 0) continue;
        const bot_memory *m = &d->mem[me];
        CHECK(belief_prepare(&bf, m, step % 20 == 0));
        for (int k = 0; k < 5; k++) {
            belief_sample(&bf, &sample, &r);
            CHECK_EQ_INT(board_count(&sample, color_other(me)), m->view.on_board[color_other(me)]);
            for (point q = 0; q < board_points(&sample); q++) {
                CHECK_EQ_INT(board_at(&sample, q) == me, m->view.stone[q] == me);
                if (board_at(&sample, q) != EMPTY) CHECK(board_liberties(&sample, q) > 0);
                /* Refused this turn: illegal on the sample too, unless the
                 * refusal was read as a ko (a sample has no ko history). */
                if ((m->view.mark[q] & VIEW_TRIED) && q != m->ko_guess)
                    CHECK(board_check(&sample, me, q) != MOVE_OK);
            }
        }
    }
    duel_free(d);
}

/* The share of n sampled boards whose hidden stones stand on the first two
 * lines, from the belief of the player to move. */
static double share_on_low_lines(const bot_memory *m, bool informed, int n) {
    static belief bf;
    static board sample;
    rng r;
    rng_seed(&r, 5);
    if (!belief_prepare(&bf, m, informed)) return -1;
    int low = 0, all = 0;
    for (int k = 0; k < n; k++) {
        belief_sample(&bf, &sample, &r);
        for (point q = 0; q < board_points(&sample); q++) {
            if (board_at(&sample, q) != color_other(m->me)) continue;
            all++;
            low += board_edge_distance(&sample, q) <= 1;
        }
    }
    return all ? (double)low / all : -1;
}

/* Black's view after Black E5 and White's hidden C3 (X ours, ? hidden):
 *
 *      A B C D E F G H J
 *    9 . . . . . . . . .
 *    8 . . . . . . . . .     Early in a 9x9 game the table counted in
 *    7 . . . . . . . . .     self-play puts the one hidden stone on the
 *    6 . . . . . . . . .     first two lines (56 of the 80 points, the
 *    5 . . . . X . . . .     outer two rings) in under 15% of Black's
 *    4 . . . . . . . . .     samples; a uniform draw does so in 60-80%.
 *    3 . . ? . . . . . .
 *    2 . . . . . . . . .
 *    1 . . . . . . . . .                                                 */
TEST(bot_belief_early_stones_keep_off_the_edge) {
    game_settings s = settings_default();
    duel *d = duel_new(&s);
    duel_play(d, "E5");
    duel_play(d, "C3");
    duel_sync(d);
    const bot_memory *m = &d->mem[BLACK];
    CHECK_EQ_INT(m->view.on_board[WHITE], 1);
    double uniform = share_on_low_lines(m, false, 2000), informed = share_on_low_lines(m, true, 2000);
    CHECK(uniform > 0.6 && uniform < 0.8);
    CHECK(informed >= 0 && informed < 0.15);
    duel_free(d);
}

/* The same on the big boards, whose table was counted on 19x19: Black at
 * the centre, White's one hidden stone on the 4-4 point. The first two
 * lines are 144 of 361 points on 19x19 (a uniform draw: about 40%) and
 * 192 of 625 on 25x25 (about 31%); the table keeps early stones there in
 * about a fifth and a seventh of the samples. */
static void check_big_board_early_stones(int size, const char *centre, double uniform_low,
                                         double uniform_high, double informed_high) {
    game_settings s = settings_default();
    s.size = size;
    duel *d = duel_new(&s);
    duel_play(d, centre);
    duel_play(d, "D4");
    duel_sync(d);
    const bot_memory *m = &d->mem[BLACK];
    CHECK_EQ_INT(m->view.on_board[WHITE], 1);
    double uniform = share_on_low_lines(m, false, 1000), informed = share_on_low_lines(m, true, 1000);
    CHECK(uniform > uniform_low && uniform < uniform_high);
    CHECK(informed >= 0 && informed < informed_high);
    duel_free(d);
}

TEST(bot_belief_early_stones_keep_off_the_edge_on_big_boards) {
    check_big_board_early_stones(19, "K10", 0.35, 0.45, 0.28);
    check_big_board_early_stones(25, "N13", 0.26, 0.36, 0.22);
}

/* Black's three attempts of one turn, all refused (reasons untold), after
 * White's hidden G9, H8 and J8 (X Black, ! refused, ? hidden):
 *
 *      A B C D E F G H J
 *    9 . . . . . . ! X !     The sampler explains H8 and G9 first (the
 *    8 . . . . . . . ! ?     lower points first) by stones there; H9 then
 *    7 . . . . . . . . .     keeps J9 alone, and a stone on J9 would take
 *    ...                     it, so J9 must be a suicide: a stone on J8,
 *    3 X . . . . . . . .     the ring. Every sample makes J9 illegal for
 *    2 . . . . . . . . .     Black (before, half of them drew the stone
 *    1 X . . . . . . . .     first, found it did not fit and left J9 open). */
TEST(bot_belief_refusal_a_stone_cannot_explain_is_a_suicide) {
    game_settings s = settings_default();
    duel *d = duel_new(&s);
    static const char *const moves[] = { "H9", "G9", "A1", "H8", "A3", "J8", "H8", "G9", "J9" };
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
        CHECK_EQ_INT(duel_play(d, moves[i]), REFUSE_NONE);
    duel_sync(d);
    const bot_memory *m = &d->mem[BLACK];
    CHECK_EQ_INT(referee_to_move(d->ref), BLACK);
    CHECK_EQ_INT(m->view.attempts_this_turn, 3);
    static belief bf;
    static board sample;
    rng r;
    rng_seed(&r, 9);
    CHECK(belief_prepare(&bf, m, true));
    for (int k = 0; k < 400; k++) {
        belief_sample(&bf, &sample, &r);
        CHECK(board_check(&sample, BLACK, duel_point(d, "J9")) != MOVE_OK);
    }
    duel_free(d);
}

/* Counts, over n samples, the boards with an opponent stone on each of
 * two vertices. */
static void count_white_on(const belief *bf, const duel *d, const char *first, const char *second, int n,
                           int *on_first, int *on_second) {
    static board sample;
    rng r;
    rng_seed(&r, 17);
    *on_first = *on_second = 0;
    for (int k = 0; k < n; k++) {
        belief_sample(bf, &sample, &r);
        *on_first += board_at(&sample, duel_point(d, first)) == WHITE;
        *on_second += board_at(&sample, duel_point(d, second)) == WHITE;
    }
}

/* The belief leans toward where the player's searches expected the
 * opponent to play (bot_carry's expected map):
 *
 *      A B C D E F G H J
 *    7 . . e . . . f . .     Black played E5, White one hidden stone.
 *    6 . . . . . . . . .     C7 and G7 are mirror images: as likely
 *    5 . . . . X . . . .     without a map; with C7 expected once (a
 *    4 . . . . . . . . .     share of 1), C7 is drawn several times as
 *                            often, with a share of 0.3 less often;
 *                            shares above 1 count as 1. */
TEST(bot_belief_leans_toward_expected_replies) {
    game_settings s = settings_default();
    duel *d = duel_new(&s);
    CHECK_EQ_INT(duel_play(d, "E5"), REFUSE_NONE);
    CHECK_EQ_INT(duel_play(d, "D4"), REFUSE_NONE);
    const bot_memory *m = &d->mem[BLACK];
    static belief bf;
    static float expected_map[BOARD_MAX_POINTS];
    int c7, g7, capped_c7, capped_g7;
    CHECK(belief_prepare_expecting(&bf, m, NULL));
    count_white_on(&bf, d, "C7", "G7", 4000, &c7, &g7);
    CHECK(c7 > 20 && g7 > 20 && c7 < 2 * g7 && g7 < 2 * c7);

    expected_map[duel_point(d, "C7")] = 1.0f;
    CHECK(belief_prepare_expecting(&bf, m, expected_map));
    count_white_on(&bf, d, "C7", "G7", 4000, &c7, &g7);
    CHECK(c7 > 5 * g7);

    int part_c7, part_g7;
    expected_map[duel_point(d, "C7")] = 0.3f;
    CHECK(belief_prepare_expecting(&bf, m, expected_map));
    count_white_on(&bf, d, "C7", "G7", 4000, &part_c7, &part_g7);
    CHECK(part_c7 > 2 * part_g7 && part_c7 < c7);

    expected_map[duel_point(d, "C7")] = 7.0f;
    CHECK(belief_prepare_expecting(&bf, m, expected_map));
    count_white_on(&bf, d, "C7", "G7", 4000, &capped_c7, &capped_g7);
    CHECK_EQ_INT(capped_c7, c7);
    CHECK_EQ_INT(capped_g7, g7);
    duel_free(d);
}
