/* Unit tests of wire/lobby_json: the lobby's lists as documented (order
 * kept, the free seat named or null, started_ms null before the start,
 * names null for seats without one). */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#include "wire/lobby_json.h"

TEST(lobby_json_lists_in_order) {
    game_settings s = settings_default();
    time_control tc = time_control_none();
    lobby_item open[2] = {
        { .id = "aaaaaaaaaa", .settings = &s, .tc = &tc, .free_color = BLACK, .created_ms = 2000 },
        { .id = "bbbbbbbbbb", .settings = &s, .tc = &tc, .free_color = WHITE, .created_ms = 1000 }
    };
    lobby_item playing[1] = {
        { .id = "cccccccccc", .settings = &s, .tc = &tc, .created_ms = 500, .started_ms = 700 }
    };
    cJSON *o = lobby_json(open, 2, playing, 1);
    char *text = o ? cJSON_PrintUnformatted(o) : NULL;
    CHECK(text != NULL);
    if (!text) return;
    CHECK(!strncmp(text, "{\"open\":[{\"id\":\"aaaaaaaaaa\",\"settings\":{", 38));
    CHECK(strstr(text, "\"free\":\"black\",\"created_ms\":2000,\"started_ms\":null,\"names\":{\"black\":null,"
                       "\"white\":null}}") != NULL);
    CHECK(strstr(text, "\"free\":\"white\",\"created_ms\":1000,\"started_ms\":null,\"names\":{\"black\":null,"
                       "\"white\":null}}]") != NULL);
    CHECK(strstr(text, "\"playing\":[{\"id\":\"cccccccccc\"") != NULL);
    CHECK(strstr(text, "\"free\":null,\"created_ms\":500,\"started_ms\":700,\"names\":{\"black\":null,"
                       "\"white\":null}}]}") != NULL);
    CHECK(strstr(text, "\"time_control\":{\"type\":\"none\"}") != NULL);
    cJSON_free(text);
    cJSON_Delete(o);
    o = lobby_json(NULL, 0, NULL, 0);
    text = o ? cJSON_PrintUnformatted(o) : NULL;
    CHECK_EQ_STR(text, "{\"open\":[],\"playing\":[]}");
    cJSON_free(text);
    cJSON_Delete(o);
}

/* The members alone, after what the caller wrote, are the object's text
 * without its braces. */
TEST(lobby_json_members_are_the_object_without_braces) {
    game_settings s = settings_default();
    time_control tc = time_control_none();
    lobby_item open[1] = { { .id = "aaaaaaaaaa", .settings = &s, .tc = &tc, .free_color = BLACK,
                             .created_ms = 2000, .black_name = "Алиса" } };
    cJSON *o = lobby_json(open, 1, NULL, 0);
    char *whole = o ? cJSON_PrintUnformatted(o) : NULL;
    strbuf sb = { 0 };
    strbuf_puts(&sb, "{\"type\":\"lobby\",");
    CHECK(lobby_json_members(&sb, open, 1, NULL, 0));
    strbuf_append(&sb, "}", 1);
    CHECK(whole && !strncmp(sb.data, "{\"type\":\"lobby\",", 16) && !strcmp(sb.data + 16, whole + 1));
    strbuf_free(&sb);
    cJSON_free(whole);
    cJSON_Delete(o);
}
