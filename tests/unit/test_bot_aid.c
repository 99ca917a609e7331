/* Unit tests of the deduction aid (bot/aid.h): its input is the seat's
 * memory only (twin games that differ in hidden stones give byte-identical
 * maps, seeds included), it is deterministic, and it reads that memory the
 * way a player would (own stones 0, known stones 100, the percentages add
 * up to the opponent's stone count). */
#include "harness.h"

#include <string.h>

#include "bot/aid.h"
#include "test_bot_util.h"

static void estimate(const duel *d, int seat, aid_map *out) {
    CHECK(aid_estimate(&d->mem[seat], aid_seed(&d->mem[seat].view), AID_SAMPLES, out));
}

static int percent_at(const duel *d, const aid_map *m, const char *vertex) {
    return m->percent[duel_point(d, vertex)];
}

/* Black's view is the same in both games, White's stones are not: the
 * maps are the same bytes, and so are their seeds. */
static void check_twins(const game_settings *s, const char *const *white_a, const char *const *white_b,
                        const char *const *black, int turns) {
    duel *a = duel_new(s), *b = duel_new(s);
    for (int i = 0; i < turns; i++) {
        CHECK_EQ_INT(duel_play(a, black[i]), REFUSE_NONE);
        CHECK_EQ_INT(duel_play(b, black[i]), REFUSE_NONE);
        CHECK_EQ_INT(duel_play(a, white_a[i]), REFUSE_NONE);
        CHECK_EQ_INT(duel_play(b, white_b[i]), REFUSE_NONE);
        CHECK(memcmp(&a->mem[BLACK].view, &b->mem[BLACK].view, sizeof(view)) == 0);
        CHECK(memcmp(&a->mem[BLACK], &b->mem[BLACK], sizeof(bot_memory)) == 0);
        CHECK(aid_seed(&a->mem[BLACK].view) == aid_seed(&b->mem[BLACK].view));
        aid_map ma, mb;
        estimate(a, BLACK, &ma);
        estimate(b, BLACK, &mb);
        CHECK(memcmp(&ma, &mb, sizeof ma) == 0);
    }
    /* And the twins did differ, where Black cannot see. */
    CHECK(memcmp(&a->mem[WHITE].view, &b->mem[WHITE].view, sizeof(view)) != 0);
    duel_free(a);
    duel_free(b);
}

TEST(aid_twins_that_differ_in_hidden_stones_get_the_same_map) {
    static const char *const black[] = { "E5", "C3", "G7", "C7", "G3" };
    static const char *const white_a[] = { "A1", "B1", "A2", "J9", "H9" };
    static const char *const white_b[] = { "J1", "H1", "J2", "A9", "B9" };
    game_settings s = settings_default();
    check_twins(&s, white_a, white_b, black, 5);
    s.rules = RULES_HAMBURG;
    check_twins(&s, white_a, white_b, black, 5);
    s = settings_default();
    s.torus = true;
    s.rules = RULES_COMMON;
    check_twins(&s, white_a, white_b, black, 3);
}

TEST(aid_is_deterministic_and_the_seed_follows_the_view) {
    game_settings s = settings_default();
    duel *d = duel_new(&s);
    duel_play(d, "E5");
    duel_play(d, "C3");
    aid_map first, again, other;
    estimate(d, BLACK, &first);
    estimate(d, BLACK, &again);
    CHECK(memcmp(&first, &again, sizeof first) == 0);
    uint64_t seed_before = aid_seed(&d->mem[BLACK].view);
    duel_play(d, "G7");
    CHECK(aid_seed(&d->mem[BLACK].view) != seed_before);
    CHECK(aid_estimate(&d->mem[BLACK], 12345, AID_SAMPLES, &other));
    CHECK_EQ_INT(other.samples, AID_SAMPLES);
    CHECK(!aid_estimate(&d->mem[BLACK], 1, 0, &other));
    duel_free(d);
}

/* Own stones never hold an opponent stone; a point refused as occupied
 * (Hamburg tells why) always does; the sampled stones are as many as the
 * opponent has on the board, so the percentages add up to that count. */
TEST(aid_reads_the_seats_knowledge) {
    game_settings s = settings_default();
    s.rules = RULES_HAMBURG;
    duel *d = duel_new(&s);
    duel_play(d, "E5");
    duel_play(d, "C3");
    duel_play(d, "G7");
    duel_play(d, "G3");
    CHECK_EQ_INT(duel_play(d, "C3"), REFUSE_NONE); /* Black: refused, occupied */
    aid_map m;
    estimate(d, BLACK, &m);
    CHECK_EQ_INT(m.size, 9);
    CHECK_EQ_INT(percent_at(d, &m, "E5"), 0);
    CHECK_EQ_INT(percent_at(d, &m, "G7"), 0);
    CHECK_EQ_INT(percent_at(d, &m, "C3"), 100);
    int total = 0;
    for (int p = 0; p < 81; p++) total += m.percent[p];
    CHECK(total >= 2 * 100 - 60 && total <= 2 * 100 + 60); /* two stones, rounding per point */
    duel_free(d);
}

/* The largest and the smallest boards, and a handicap game seen by White. */
TEST(aid_on_every_size) {
    static const int sizes[] = { 5, 19, 25 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        game_settings s = settings_default();
        s.size = sizes[i];
        s.torus = sizes[i] == 25;
        duel *d = duel_new(&s);
        duel_play(d, "C3");
        aid_map m;
        estimate(d, WHITE, &m);
        CHECK_EQ_INT(m.size, sizes[i]);
        duel_free(d);
    }
    game_settings s = settings_default();
    s.handicap = 2;
    s.komi_x2 = 1;
    duel *d = duel_new(&s);
    aid_map m;
    estimate(d, WHITE, &m);
    CHECK_EQ_INT(percent_at(d, &m, "G7"), 100); /* a public handicap stone */
    CHECK_EQ_INT(percent_at(d, &m, "C3"), 100);
    duel_free(d);
}
