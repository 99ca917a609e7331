/* The truth lines of the CLI referee, byte for byte, and the wire names. */
#include "harness.h"
#include "test_engine_util.h"

#include <stdlib.h>

#include "cli/truth_json.h"
#include "engine/color.h"
#include "wire/event_json.h"

static void check_line(cJSON *o, const char *expect) {
    char *text = cJSON_PrintUnformatted(o);
    CHECK_EQ_STR(text, expect);
    cJSON_free(text);
    cJSON_Delete(o);
}

TEST(event_json_truth_lines) {
    game_settings s = settings_default();
    s.size = 5;
    s.komi_x2 = 0;
    referee *r = referee_new(&s);
    const char *moves[] = { "B1", "A1", "A2" };
    CHECK_EQ_INT(ref_play_all(r, moves, 3), 3);
    check_line(truth_json_event(r, referee_event(r, 1)),
               "{\"color\":\"B\",\"action\":\"B1\",\"result\":\"legal\",\"captured\":[],\"atari\":false}");
    check_line(
        truth_json_event(r, referee_event(r, 3)),
        "{\"color\":\"B\",\"action\":\"A2\",\"result\":\"legal\",\"captured\":[\"A1\"],\"atari\":false}");
    CHECK_EQ_INT(ref_try(r, WHITE, "B1", NULL), REFUSE_NONE);
    check_line(truth_json_event(r, referee_event(r, 4)),
               "{\"color\":\"W\",\"action\":\"B1\",\"result\":\"illegal\",\"reason\":\"occupied\"}");
    CHECK_EQ_INT(ref_act(r, ACT_PASS, WHITE), REFUSE_NONE);
    check_line(truth_json_event(r, referee_event(r, 5)),
               "{\"color\":\"W\",\"action\":\"pass\",\"result\":\"pass\"}");
    CHECK_EQ_INT(ref_act(r, ACT_RESIGN, BLACK), REFUSE_NONE);
    check_line(truth_json_event(r, referee_event(r, 6)),
               "{\"color\":\"B\",\"action\":\"resign\",\"result\":\"resign\"}");
    game_result res = referee_result(r);
    check_line(event_json_result(&res), "{\"over\":true,\"reason\":\"resign\",\"winner\":\"W\"}");
    check_line(event_json_refusal(REFUSE_ALREADY_TRIED),
               "{\"result\":\"refused\",\"error\":\"already_tried\"}");
    referee_free(r);
}

TEST(event_json_result_lines) {
    game_result res = { true, true, END_PASSES, BLACK, 76, 89 };
    check_line(
        event_json_result(&res),
        "{\"over\":true,\"reason\":\"passes\",\"winner\":\"B\",\"score\":{\"black\":38,\"white\":44.5}}");
    game_result jigo = { true, true, END_PASSES, EMPTY, 20, 20 };
    check_line(event_json_result(&jigo),
               "{\"over\":true,\"reason\":\"passes\",\"winner\":null,\"score\":{\"black\":10,\"white\":10}}");
    game_result cap = { true, false, END_CAPTURE, WHITE, 0, 0 };
    check_line(event_json_result(&cap), "{\"over\":true,\"reason\":\"capture\",\"winner\":\"W\"}");
    game_result on = { false, false, END_NONE, EMPTY, 0, 0 };
    check_line(event_json_result(&on), "{\"over\":false}");
}

TEST(event_json_wire_names) {
    CHECK_EQ_STR(refusal_name(REFUSE_NOT_YOUR_TURN), "not_your_turn");
    CHECK_EQ_STR(refusal_name(REFUSE_OWN_STONE), "own_stone");
    CHECK_EQ_STR(refusal_name(REFUSE_BAD_VERTEX), "bad_vertex");
    CHECK_EQ_STR(refusal_name(REFUSE_GAME_OVER), "game_over");
    CHECK(refusal_name(REFUSE_NONE) == NULL);
    CHECK_EQ_STR(illegal_reason_name(ILLEGAL_SUICIDE), "suicide");
    CHECK_EQ_STR(illegal_reason_name(ILLEGAL_KO), "ko");
    CHECK_EQ_STR(end_reason_name(END_TIMEOUT), "timeout");
    CHECK_EQ_STR(end_reason_name(END_FORFEIT), "forfeit");
    CHECK_EQ_STR(color_letter(WHITE), "W");
    CHECK(color_letter(EMPTY) == NULL);
}
