/* The game clock's arithmetic, one time control at a time: validation of
 * every field's range, absolute time running out at the exact millisecond,
 * Fischer increments, byo-yomi periods kept, lost and finally exhausted,
 * correspondence allowances renewed each move, deadlines, and the
 * computer's thinking budget shrinking with its time. */
#include "harness.h"

#include "engine/board.h"
#include "engine/clock.h"

static time_control tc_of(time_control_kind kind, int main_s, int inc, int periods, int period_s, int days) {
    time_control tc = time_control_none();
    tc.kind = kind;
    tc.main_s = main_s;
    tc.increment_s = inc;
    tc.periods = periods;
    tc.period_s = period_s;
    tc.days_per_move = days;
    return tc;
}

TEST(time_control_validation_names_the_field) {
    time_control ok[] = {
        time_control_none(),
        tc_of(TC_NONE, 0, 0, 0, 0, 3),
        tc_of(TC_ABSOLUTE, 600, 0, 0, 0, 0),
        tc_of(TC_FISCHER, 300, 5, 0, 0, 0),
        tc_of(TC_BYOYOMI, 0, 0, 5, 30, 0),
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) CHECK(time_control_validate(&ok[i]) == NULL);
    time_control bad = tc_of(TC_NONE, 0, 0, 0, 0, 61);
    CHECK(strstr(time_control_validate(&bad), "days_per_move") != NULL);
    bad = tc_of(TC_ABSOLUTE, 0, 0, 0, 0, 0);
    CHECK(strstr(time_control_validate(&bad), "main") != NULL);
    bad = tc_of(TC_FISCHER, 60, 0, 0, 0, 0);
    CHECK(strstr(time_control_validate(&bad), "increment") != NULL);
    bad = tc_of(TC_BYOYOMI, 60, 0, 0, 30, 0);
    CHECK(strstr(time_control_validate(&bad), "periods") != NULL);
    bad = tc_of(TC_BYOYOMI, 60, 0, 3, 3601, 0);
    CHECK(strstr(time_control_validate(&bad), "period ") != NULL);
    CHECK(!time_control_limited(&ok[0]));
    CHECK(time_control_limited(&ok[1]));
}

TEST(absolute_time_runs_out_at_the_exact_millisecond) {
    time_control tc = tc_of(TC_ABSOLUTE, 10, 0, 0, 0, 0);
    game_clock c;
    clock_init(&c, &tc);
    CHECK_EQ_INT(clock_deadline(&c), INT64_MAX);
    clock_start_turn(&c, BLACK, 1000);
    CHECK(clock_end_turn(&c, 4000)); /* black used 3 s */
    clock_start_turn(&c, WHITE, 4000);
    CHECK(clock_end_turn(&c, 5000));
    clock_start_turn(&c, BLACK, 5000);
    CHECK_EQ_INT(c.side[BLACK].main_ms, 7000);
    CHECK_EQ_INT(c.side[WHITE].main_ms, 9000);
    CHECK_EQ_INT(clock_deadline(&c), 12000);
    CHECK(!clock_flagged(&c, 11999));
    CHECK(clock_flagged(&c, 12000));
    clock_side now[3];
    clock_read(&c, 8000, now);
    CHECK_EQ_INT(now[BLACK].main_ms, 4000);
    CHECK_EQ_INT(now[WHITE].main_ms, 9000);
    clock_read(&c, 20000, now);
    CHECK_EQ_INT(now[BLACK].main_ms, 0); /* never below zero */
    CHECK(!clock_end_turn(&c, 12000));
    clock_stop(&c);
    CHECK_EQ_INT(clock_deadline(&c), INT64_MAX);
}

TEST(fischer_adds_the_increment_after_each_turn) {
    time_control tc = tc_of(TC_FISCHER, 60, 5, 0, 0, 0);
    game_clock c;
    clock_init(&c, &tc);
    int64_t t = 0;
    for (int turn = 0; turn < 4; turn++) { /* black plays four 2-second moves */
        clock_start_turn(&c, BLACK, t);
        t += 2000;
        CHECK(clock_end_turn(&c, t));
        clock_start_turn(&c, WHITE, t);
        CHECK(clock_end_turn(&c, t));
    }
    CHECK_EQ_INT(c.side[BLACK].main_ms, 60000 + 4 * 3000);
    CHECK_EQ_INT(c.side[WHITE].main_ms, 60000 + 4 * 5000);
    clock_start_turn(&c, BLACK, t);
    CHECK_EQ_INT(clock_deadline(&c), t + 72000);
    CHECK(!clock_end_turn(&c, t + 72000)); /* no increment once out */
    CHECK_EQ_INT(c.side[BLACK].main_ms, 0);
}

TEST(byoyomi_keeps_loses_and_exhausts_periods) {
    time_control tc = tc_of(TC_BYOYOMI, 10, 0, 3, 30, 0);
    game_clock c;
    clock_init(&c, &tc);
    clock_start_turn(&c, BLACK, 0);
    CHECK_EQ_INT(clock_deadline(&c), 10000 + 90000);
    clock_side now[3];
    clock_read(&c, 25000, now); /* main gone, 15 s into period 1 */
    CHECK_EQ_INT(now[BLACK].main_ms, 0);
    CHECK_EQ_INT(now[BLACK].periods, 3);
    CHECK_EQ_INT(now[BLACK].period_ms, 15000);
    CHECK(clock_end_turn(&c, 25000)); /* within the period: kept, reset */
    CHECK_EQ_INT(c.side[BLACK].periods, 3);
    CHECK_EQ_INT(c.side[BLACK].period_ms, 30000);
    clock_start_turn(&c, BLACK, 100000);
    clock_read(&c, 100000 + 30000, now); /* exactly one period: it is lost */
    CHECK_EQ_INT(now[BLACK].periods, 2);
    CHECK_EQ_INT(now[BLACK].period_ms, 30000);
    CHECK(clock_end_turn(&c, 100000 + 45000)); /* one lost, 15 s into the next */
    CHECK_EQ_INT(c.side[BLACK].periods, 2);
    CHECK_EQ_INT(c.side[BLACK].period_ms, 30000);
    clock_start_turn(&c, BLACK, 200000);
    CHECK_EQ_INT(clock_deadline(&c), 260000);
    CHECK(!clock_flagged(&c, 259999));
    CHECK(clock_flagged(&c, 260000));
    CHECK(!clock_end_turn(&c, 260000));
    CHECK_EQ_INT(c.side[BLACK].periods, 0);
}

TEST(correspondence_allowance_is_renewed_each_move) {
    time_control tc = tc_of(TC_NONE, 0, 0, 0, 0, 2);
    const int64_t day = 24 * 3600 * 1000LL;
    game_clock c;
    clock_init(&c, &tc);
    clock_start_turn(&c, WHITE, 0);
    CHECK(clock_end_turn(&c, day + day / 2));
    CHECK_EQ_INT(c.side[WHITE].main_ms, 2 * day);
    clock_start_turn(&c, WHITE, 10 * day);
    CHECK_EQ_INT(clock_deadline(&c), 12 * day);
    time_control open = time_control_none();
    clock_init(&c, &open);
    clock_start_turn(&c, BLACK, 0);
    CHECK_EQ_INT(clock_deadline(&c), INT64_MAX);
    CHECK(!clock_flagged(&c, 1000 * day));
    CHECK_EQ_INT(c.turn_start_ms, 0);
}

TEST(think_budget_shrinks_with_the_time_left) {
    time_control tc = tc_of(TC_ABSOLUTE, 400, 0, 0, 0, 0);
    game_clock c;
    clock_init(&c, &tc);
    clock_start_turn(&c, WHITE, 0);
    int64_t fresh = clock_think_budget_ms(&c, 0);
    int64_t late = clock_think_budget_ms(&c, 390000);
    CHECK_EQ_INT(fresh, 400000 / 40 - 300);
    CHECK(late < fresh);
    CHECK_EQ_INT(clock_think_budget_ms(&c, 400000), 50);
    time_control byo = tc_of(TC_BYOYOMI, 0, 0, 5, 10, 0);
    clock_init(&c, &byo);
    clock_start_turn(&c, BLACK, 0);
    CHECK_EQ_INT(clock_think_budget_ms(&c, 0), 5000 - 300);
    CHECK(clock_think_budget_ms(&c, 8000) < 1000);
    time_control open = time_control_none();
    clock_init(&c, &open);
    clock_start_turn(&c, BLACK, 0);
    CHECK_EQ_INT(clock_think_budget_ms(&c, 0), 0);
}
