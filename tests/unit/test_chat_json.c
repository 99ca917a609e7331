/* chat_json: messages, rooms, names and frames as docs/API.md spells them
 * (byte for byte), a spectator's message carrying nothing but "spectator",
 * text that looks like HTML staying text, and the requests: every field
 * checked, unknown and repeated ones refused, bad text named. */
#include "harness.h"

#include <stdlib.h>

#include "wire/chat_json.h"

static void printed_is(cJSON *o, const char *expect) {
    char *text = o ? cJSON_PrintUnformatted(o) : NULL;
    CHECK(text != NULL);
    if (text) CHECK_EQ_STR(text, expect);
    free(text);
    cJSON_Delete(o);
}

TEST(chat_json_message_and_room) {
    chat_entry m = { CHAT_ROOM_PLAYERS, 3, 1, "Alice", "gg <b>wp</b> \"!\"", 1767225600000, false };
    printed_is(chat_json_message(&m), "{\"room\":\"players\",\"n\":3,\"from\":\"black\",\"name\":\"Alice\","
                                      "\"text\":\"gg <b>wp</b> \\\"!\\\"\",\"at_ms\":1767225600000}");
    chat_entry gone = { CHAT_ROOM_PLAYERS, 2, 2, "", "", 1767225600000, true };
    printed_is(chat_json_message(&gone), "{\"room\":\"players\",\"n\":2,\"from\":\"white\",\"name\":null,"
                                         "\"text\":\"\",\"at_ms\":1767225600000,\"removed\":true}");
    chat_entry s = { CHAT_ROOM_SPECTATORS, 1, 0, NULL, "D4?", 1767225600001, false };
    printed_is(chat_json_message(&s), "{\"room\":\"spectators\",\"n\":1,\"from\":\"spectator\",\"name\":null,"
                                      "\"text\":\"D4?\",\"at_ms\":1767225600001}");
    chat_entry list[2] = { m, { CHAT_ROOM_PLAYERS, 4, 2, "", "ty", 5, false } };
    printed_is(chat_json_room(list, 2, 4),
               "{\"messages\":[{\"room\":\"players\",\"n\":3,\"from\":\"black\",\"name\":\"Alice\","
               "\"text\":\"gg <b>wp</b> \\\"!\\\"\",\"at_ms\":1767225600000},"
               "{\"room\":\"players\",\"n\":4,\"from\":\"white\",\"name\":null,\"text\":\"ty\",\"at_ms\":5}],"
               "\"last\":4}");
    printed_is(chat_json_room(NULL, 0, 0), "{\"messages\":[],\"last\":0}");
    chat_entry bad = { 7, 1, 1, NULL, "x", 0, false };
    CHECK(chat_json_message(&bad) == NULL);
}

TEST(chat_json_names_and_frames) {
    printed_is(chat_json_names("Иван", NULL), "{\"black\":\"Иван\",\"white\":null}");
    printed_is(chat_json_names("", "이세돌"), "{\"black\":null,\"white\":\"이세돌\"}");
    size_t len = 0;
    chat_entry m = { CHAT_ROOM_SPECTATORS, 2, 0, "kib", "hi", 9, false };
    char *frame = chat_json_message_frame(&m, &len);
    CHECK_EQ_STR(frame, "{\"type\":\"chat\",\"message\":{\"room\":\"spectators\",\"n\":2,"
                        "\"from\":\"spectator\",\"name\":\"kib\",\"text\":\"hi\",\"at_ms\":9}}");
    CHECK_EQ_INT(len, frame ? strlen(frame) : 0);
    free(frame);
    CHECK_EQ_STR(chat_room_name(CHAT_ROOM_PLAYERS), "players");
    CHECK_EQ_INT(chat_room_of("spectators"), CHAT_ROOM_SPECTATORS);
    CHECK_EQ_INT(chat_room_of("everyone"), 0);
}

static chat_json_status post(const char *json, char *text, char *name, char *err) {
    cJSON *body = cJSON_Parse(json);
    talk_verdict v;
    chat_json_status st = chat_json_parse_post(body, text, name, &v, err, 200);
    cJSON_Delete(body);
    return st;
}

TEST(chat_json_parses_posts) {
    char text[TALK_TEXT_MAX_BYTES], name[TALK_NAME_MAX_BYTES], err[200];
    CHECK_EQ_INT(post("{\"text\":\"  good luck  \"}", text, name, err), CHAT_JSON_OK);
    CHECK_EQ_STR(text, "good luck");
    CHECK_EQ_STR(name, "");
    CHECK_EQ_INT(post("{\"text\":\"hi\",\"name\":\" Kib \"}", text, name, err), CHAT_JSON_OK);
    CHECK_EQ_STR(name, "Kib");
    CHECK_EQ_INT(post("{\"text\":\"hi\",\"name\":null}", text, name, err), CHAT_JSON_OK);

    CHECK_EQ_INT(post("{}", text, name, err), CHAT_JSON_BAD_REQUEST);
    CHECK_EQ_STR(err, "text is required");
    CHECK_EQ_INT(post("[1]", text, name, err), CHAT_JSON_BAD_REQUEST);
    CHECK_EQ_INT(post("{\"text\":5}", text, name, err), CHAT_JSON_BAD_REQUEST);
    CHECK_EQ_STR(err, "text must be a string");
    CHECK_EQ_INT(post("{\"text\":\"a\",\"room\":\"players\"}", text, name, err), CHAT_JSON_BAD_REQUEST);
    CHECK_EQ_STR(err, "unknown field \"room\"");
    CHECK_EQ_INT(post("{\"text\":\"a\",\"text\":\"b\"}", text, name, err), CHAT_JSON_BAD_REQUEST);
    CHECK_EQ_STR(err, "repeated field \"text\"");
    CHECK_EQ_INT(post("{\"text\":\"a\\u202eb\"}", text, name, err), CHAT_JSON_BAD_TEXT);
    CHECK_EQ_STR(err, "text: character 2 (U+202E) is a bidirectional control, which could disguise the text");
    CHECK_EQ_STR(text, "");
    CHECK_EQ_INT(post("{\"text\":\"ok\",\"name\":\"<i>\"}", text, name, err), CHAT_JSON_BAD_TEXT);
    CHECK_EQ_STR(text, ""); /* nothing half-parsed stays */
    CHECK_EQ_INT(post("{\"text\":\"ok\",\"name\":7}", text, name, err), CHAT_JSON_BAD_REQUEST);
}

TEST(chat_json_parses_renames) {
    char name[TALK_NAME_MAX_BYTES], err[200];
    talk_verdict v;
    cJSON *body = cJSON_Parse("{\"name\":\"  Go   Seigen \"}");
    CHECK_EQ_INT(chat_json_parse_rename(body, name, &v, err, sizeof err), CHAT_JSON_OK);
    CHECK_EQ_STR(name, "Go Seigen");
    cJSON_Delete(body);
    body = cJSON_Parse("{\"name\":null}");
    CHECK_EQ_INT(chat_json_parse_rename(body, name, &v, err, sizeof err), CHAT_JSON_OK);
    CHECK_EQ_STR(name, "");
    cJSON_Delete(body);
    body = cJSON_Parse("{}");
    CHECK_EQ_INT(chat_json_parse_rename(body, name, &v, err, sizeof err), CHAT_JSON_BAD_REQUEST);
    cJSON_Delete(body);
    body = cJSON_Parse("{\"name\":\"a\\u0000b\"}");
    CHECK_EQ_INT(chat_json_parse_rename(body, name, &v, err, sizeof err), CHAT_JSON_OK);
    CHECK_EQ_STR(name, "a"); /* cJSON ends the string at \u0000 */
    cJSON_Delete(body);
    body = cJSON_Parse("{\"name\":\"\\u200b\"}");
    CHECK_EQ_INT(chat_json_parse_rename(body, name, &v, err, sizeof err), CHAT_JSON_BAD_TEXT);
    CHECK_EQ_STR(talk_fault_code(v.fault), "invisible");
    cJSON_Delete(body);
    body = cJSON_Parse("{\"name\":\"abcdefghijklmnopqrstuvwxyzabcdefg\"}");
    CHECK_EQ_INT(chat_json_parse_rename(body, name, &v, err, sizeof err), CHAT_JSON_BAD_TEXT);
    CHECK_EQ_STR(err, "name must be at most 32 characters (it has 33)");
    cJSON_Delete(body);
}
