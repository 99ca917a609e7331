/* Settings JSON: defaults, every field, strictness (unknown or repeated
 * fields, wrong types, values out of range), and the round trip. */
#include "harness.h"

#include <stdlib.h>

#include "wire/settings_json.h"

static bool parse(const char *text, game_settings *s, char *err) {
    return settings_parse_json(text, s, err, 160);
}

TEST(settings_json_defaults) {
    game_settings s;
    char err[160];
    CHECK(parse("{}", &s, err));
    CHECK_EQ_INT(s.size, 9);
    CHECK_EQ_INT(s.komi_x2, 15);
    CHECK_EQ_INT(s.handicap, 0);
    CHECK_EQ_INT(s.ko, KO_SIMPLE);
    CHECK_EQ_INT(s.rules, RULES_OLYMPIAD);
    CHECK(!s.torus);
    CHECK_EQ_INT(s.capture_target, 0);
    CHECK(parse("{\"handicap\":3}", &s, err));
    CHECK_EQ_INT(s.komi_x2, 1); /* 0.5 with handicap when absent */
    CHECK(parse("{\"handicap\":3,\"komi\":6}", &s, err));
    CHECK_EQ_INT(s.komi_x2, 12);
}

TEST(settings_json_every_field) {
    game_settings s;
    char err[160];
    CHECK(parse("{\"size\":19,\"komi\":-2.5,\"handicap\":9,\"ko\":\"superko\",\"rules\":\"hamburg\","
                "\"torus\":true,\"capture_go\":5}",
                &s, err));
    CHECK_EQ_INT(s.size, 19);
    CHECK_EQ_INT(s.komi_x2, -5);
    CHECK_EQ_INT(s.handicap, 9);
    CHECK_EQ_INT(s.ko, KO_SUPERKO);
    CHECK_EQ_INT(s.rules, RULES_HAMBURG);
    CHECK(s.torus);
    CHECK_EQ_INT(s.capture_target, 5);
    CHECK(parse("{\"capture_go\":true,\"rules\":\"common\"}", &s, err));
    CHECK_EQ_INT(s.capture_target, 1);
    CHECK_EQ_INT(s.rules, RULES_COMMON);
    CHECK(parse("{\"capture_go\":false}", &s, err));
    CHECK_EQ_INT(s.capture_target, 0);
    CHECK(parse("  {\"size\": 9.0}  ", &s, err));
}

static void rejects(const char *text, const char *expect) {
    game_settings s;
    char err[160] = "";
    CHECK(!parse(text, &s, err));
    CHECK_EQ_STR(err, expect);
}

TEST(settings_json_strict) {
    rejects("{\"size\":4}", "size must be an integer from 5 to 25");
    rejects("{\"size\":26}", "size must be an integer from 5 to 25");
    rejects("{\"size\":9.5}", "size must be an integer from 5 to 25");
    rejects("{\"size\":\"9\"}", "size must be an integer from 5 to 25");
    rejects("{\"komi\":7.25}", "komi must be a number in steps of 0.5 between -1000 and 1000");
    rejects("{\"komi\":1e9}", "komi must be a number in steps of 0.5 between -1000 and 1000");
    rejects("{\"ko\":\"japanese\"}", "ko must be \"simple\" or \"superko\"");
    rejects("{\"rules\":\"OLYMPIAD\"}", "rules must be \"olympiad\", \"common\" or \"hamburg\"");
    rejects("{\"torus\":1}", "torus must be true or false");
    rejects("{\"capture_go\":0}", "capture_go must be true, false or a positive integer up to 625");
    rejects("{\"capture_go\":\"yes\"}", "capture_go must be true, false or a positive integer up to 625");
    rejects("{\"handicap\":1}", "handicap must be 0 or 2 to 9");
    rejects("{\"handicap\":5,\"size\":7}", "handicap must be 0 or 2 to 4 on this size");
    rejects("{\"handicap\":2,\"size\":5}", "no handicap below 7x7");
    rejects("{\"colour\":\"black\"}", "unknown setting \"colour\"");
    rejects("{\"size\":9,\"size\":13}", "setting \"size\" given twice");
    rejects("[9]", "settings must be a JSON object");
    rejects("{\"size\":9", "settings are not valid JSON");
    rejects("{} {}", "settings are not valid JSON");
    rejects("", "settings are not valid JSON");
}

TEST(settings_json_round_trip) {
    const char *texts[] = {
        "{\"size\":9,\"komi\":7.5,\"handicap\":0,\"ko\":\"simple\",\"rules\":\"olympiad\",\"torus\":false,"
        "\"capture_go\":false}",
        "{\"size\":13,\"komi\":0.5,\"handicap\":4,\"ko\":\"superko\",\"rules\":\"common\",\"torus\":true,"
        "\"capture_go\":true}",
        "{\"size\":25,\"komi\":-3,\"handicap\":0,\"ko\":\"simple\",\"rules\":\"hamburg\",\"torus\":false,"
        "\"capture_go\":7}",
    };
    for (int i = 0; i < 3; i++) {
        game_settings s;
        char err[160];
        CHECK(parse(texts[i], &s, err));
        cJSON *o = settings_to_json(&s);
        char *out = cJSON_PrintUnformatted(o);
        CHECK_EQ_STR(out, texts[i]);
        cJSON_free(out);
        cJSON_Delete(o);
    }
}
