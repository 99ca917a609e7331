/* Unit tests of the small shared helpers: the clocks (util/now), the mode
 * and colour name tables, and the strict JSON whole-number reader. The
 * string buffer's test sits with the server parts that first used it. */
#include "harness.h"

#include <cjson/cJSON.h>

#include "engine/color.h"
#include "util/game_mode.h"
#include "util/now.h"
#include "wire/json_number.h"

TEST(now_clocks_move_forward_in_consistent_units) {
    int64_t ms0 = now_monotonic_ms();
    double s0 = now_monotonic_s();
    CHECK(ms0 / 1000 - (int64_t)s0 <= 1 && (int64_t)s0 - ms0 / 1000 <= 1);
    CHECK(now_monotonic_ms() >= ms0);
    CHECK(now_monotonic_s() >= s0);
    /* 2020-01-01 .. 2100-01-01: the wall clock is in epoch milliseconds. */
    int64_t wall = now_wall_ms();
    CHECK(wall > 1577836800000LL && wall < 4102444800000LL);
    double cpu0 = now_thread_cpu_s();
    volatile double sink = 0;
    for (int i = 0; i < 1000000; i++) sink += i;
    CHECK(now_thread_cpu_s() > cpu0);
}

TEST(mode_names_round_trip_and_refuse_strangers) {
    const game_mode modes[] = { MODE_ONLINE, MODE_HOTSEAT, MODE_COMPUTER };
    for (int i = 0; i < 3; i++) {
        game_mode back = MODE_ONLINE;
        CHECK(mode_parse(mode_name(modes[i]), &back));
        CHECK_EQ_INT(back, modes[i]);
    }
    CHECK_EQ_STR(mode_name(MODE_HOTSEAT), "hotseat");
    CHECK(mode_name((game_mode)7) == NULL);
    game_mode untouched = MODE_COMPUTER;
    CHECK(!mode_parse("Online", &untouched));
    CHECK(!mode_parse("", &untouched));
    CHECK_EQ_INT(untouched, MODE_COMPUTER);
}

TEST(color_names_in_every_spelling) {
    CHECK_EQ_STR(color_name(BLACK), "black");
    CHECK_EQ_STR(color_title(WHITE), "White");
    CHECK_EQ_STR(color_letter(BLACK), "B");
    CHECK(color_name(EMPTY) == NULL && color_title(BOARD_OFF) == NULL && color_letter(-1) == NULL);
    int c = EMPTY;
    CHECK(color_parse("white", &c));
    CHECK_EQ_INT(c, WHITE);
    CHECK(!color_parse("White", &c) && !color_parse("W", &c) && !color_parse("random", &c));
    CHECK_EQ_INT(c, WHITE);
}

/* Parses text and reads it as a whole number in [lo, hi]. */
static bool read_whole(const char *text, int lo, int hi, int *out) {
    cJSON *v = cJSON_Parse(text);
    bool ok = json_whole_int(v, lo, hi, out);
    cJSON_Delete(v);
    return ok;
}

TEST(json_whole_numbers_are_strict) {
    int n = -1;
    CHECK(read_whole("9", 5, 25, &n));
    CHECK_EQ_INT(n, 9);
    CHECK(read_whole("9.0", 5, 25, &n) && n == 9);
    CHECK(read_whole("2.5e1", 5, 25, &n) && n == 25);
    CHECK(read_whole("5", 5, 25, &n) && n == 5);
    n = -1;
    const char *refused[] = { "9.5", "4", "26", "\"9\"", "true", "null", "[9]", "-0.5", "1e300" };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) CHECK(!read_whole(refused[i], 5, 25, &n));
    CHECK_EQ_INT(n, -1);
    CHECK(!json_whole_int(NULL, 0, 1, &n));

    cJSON *big = cJSON_CreateNumber(1e12);
    int64_t ms = 0;
    CHECK(json_whole_int64(big, 0, 1000000000000LL, &ms));
    CHECK(ms == 1000000000000LL);
    CHECK(!json_whole_int64(big, 0, 999999999999LL, &ms));
    cJSON_Delete(big);
}
