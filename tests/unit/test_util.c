/* Unit tests of the small shared helpers: the clocks (util/now), the mode
 * and colour name tables, and the strict JSON whole-number reader. The
 * string buffer's test sits with the server parts that first used it. */
#include "harness.h"

#include <cjson/cJSON.h>
#include <unistr.h>

#include "engine/color.h"
#include "util/game_mode.h"
#include "util/now.h"
#include "util/utf8.h"
#include "wire/json_number.h"
#include "wire/json_parse.h"

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

/* Excerpts of client text cut on character boundaries:
 *   input                    max   excerpt
 *   "abc"                     40   "abc"
 *   "éé" (4 bytes)             3   "é"        never half of the second é
 *   "a\xc3" (cut sequence)    40   "a\uFFFD"
 *   "\xff" "b"                40   "\uFFFDb"
 *   50 x "é" (100 bytes)      40   20 x "é"   (the unknown field) */
TEST(utf8_excerpts_never_split_a_character) {
    char out[48];
    CHECK_EQ_STR(utf8_excerpt(out, sizeof out, "abc", 40), "abc");
    CHECK_EQ_STR(utf8_excerpt(out, sizeof out, "\xc3\xa9\xc3\xa9", 3), "\xc3\xa9");
    CHECK_EQ_STR(utf8_excerpt(out, sizeof out, "a\xc3", 40), "a\xef\xbf\xbd");
    CHECK_EQ_STR(utf8_excerpt(out, sizeof out, "\xff" "b", 40), "\xef\xbf\xbd" "b");
    char many[101] = { 0 };
    for (int i = 0; i < 50; i++) memcpy(many + 2 * i, "\xc3\xa9", 2);
    utf8_excerpt(out, sizeof out, many, 40);
    CHECK_EQ_INT(strlen(out), 40);
    CHECK(u8_check((const uint8_t *)out, strlen(out)) == NULL);
    CHECK_EQ_INT(utf8_char_len("\xf0\x9f\x98\x80", 4), 4);
    CHECK_EQ_INT(utf8_char_len("\xed\xa0\x80", 3), 0); /* a UTF-16 surrogate is not UTF-8 */
}

/* The one JSON door: depth counted outside strings only, NUL refused.
 *   text                               verdict
 *   16 x "[" then 16 x "]"             ok (the limit)
 *   17 x "[" then 17 x "]"             too deep
 *   "[\"[[[[...[\"]" (brackets in a string)  ok
 *   {"a":"x\u0000y"}                   NUL
 *   {"a":"x\\u0000y"} (escaped slash)  ok: the text is a backslash and "u0000"
 *   {"a":1} junk                       syntax */
TEST(json_parse_limits_depth_and_refuses_nul) {
    char text[64];
    json_parse_status why;
    for (int depth = 16; depth <= 17; depth++) {
        memset(text, '[', (size_t)depth);
        memset(text + depth, ']', (size_t)depth);
        cJSON *v = json_parse(text, (size_t)(2 * depth), &why);
        CHECK_EQ_INT(why, depth == 16 ? JSON_PARSE_OK : JSON_PARSE_TOO_DEEP);
        CHECK((v != NULL) == (depth == 16));
        cJSON_Delete(v);
    }
    cJSON *s = json_parse_str("[\"[[[[[[[[[[[[[[[[[[[[[[[[[\"]", &why);
    CHECK(s && why == JSON_PARSE_OK);
    cJSON_Delete(s);
    CHECK(!json_parse_str("{\"a\":\"x\\u0000y\"}", &why) && why == JSON_PARSE_NUL);
    cJSON *esc = json_parse_str("{\"a\":\"x\\\\u0000y\"}", &why);
    CHECK(esc && why == JSON_PARSE_OK);
    cJSON_Delete(esc);
    CHECK(!json_parse("{\"a\":1}\0", 8, &why) && why == JSON_PARSE_NUL);
    CHECK(!json_parse_str("{\"a\":1} junk", &why) && why == JSON_PARSE_SYNTAX);
    cJSON *spaced = json_parse_str(" {\"a\":1} \n", &why);
    CHECK(spaced && why == JSON_PARSE_OK);
    cJSON_Delete(spaced);
}
