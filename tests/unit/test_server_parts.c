/* Unit tests of the server's small parts: secrets (token shape, hashing,
 * constant-time comparison, game ids), the rate limiter's buckets, the
 * configuration (defaults, environment, flags winning), the growable
 * buffer, and the wire encoding of actions and events. */
#include "harness.h"
#include "test_engine_util.h"

#include <stdlib.h>
#include <string.h>

#include "server/config.h"
#include "http/ratelimit.h"
#include "games/secrets.h"
#include "util/strbuf.h"
#include "wire/clock_json.h"
#include "wire/json_print.h"
#include "wire/view_json.h"

TEST(secrets_tokens_are_43_base64url_chars_and_differ) {
    char a[SECRET_TEXT_LEN + 1], b[SECRET_TEXT_LEN + 1];
    CHECK(secrets_new_token(a));
    CHECK(secrets_new_token(b));
    CHECK_EQ_INT(strlen(a), 43);
    CHECK(secrets_token_well_formed(a));
    CHECK(strcmp(a, b) != 0);
    CHECK(!secrets_token_well_formed("short"));
    char bad[SECRET_TEXT_LEN + 1];
    memcpy(bad, a, sizeof bad);
    bad[5] = '+';
    CHECK(!secrets_token_well_formed(bad));
}

TEST(secrets_hash_is_sha256_and_compares) {
    uint8_t h[SECRET_HASH_LEN], h2[SECRET_HASH_LEN], zero[SECRET_HASH_LEN] = { 0 };
    CHECK(secrets_hash("abc", 3, h));
    /* SHA-256("abc") = ba7816bf 8f01cfea ... */
    CHECK_EQ_INT(h[0], 0xba);
    CHECK_EQ_INT(h[1], 0x78);
    CHECK_EQ_INT(h[31], 0xad);
    CHECK(secrets_hash("abc", 3, h2));
    CHECK(secrets_hash_equal(h, h2));
    CHECK(secrets_hash("abd", 3, h2));
    CHECK(!secrets_hash_equal(h, h2));
    CHECK(secrets_hash_is_zero(zero));
    CHECK(!secrets_hash_is_zero(h));
}

TEST(secrets_game_ids_are_12_lowercase_alphanumerics) {
    char id[GAME_ID_LEN + 1];
    bool seen_digit = false, seen_letter = false;
    for (int i = 0; i < 200; i++) {
        CHECK(secrets_new_game_id(id));
        CHECK_EQ_INT(strlen(id), 12);
        for (const char *p = id; *p; p++) {
            CHECK((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9'));
            seen_digit |= *p >= '0' && *p <= '9';
            seen_letter |= *p >= 'a' && *p <= 'z';
        }
    }
    CHECK(seen_digit && seen_letter);
}

TEST(ratelimit_bursts_then_refills_per_address) {
    ratelimit *rl = ratelimit_new(2.0, 4.0); /* 2 per second, bursts of 4 */
    for (int i = 0; i < 4; i++) CHECK_EQ_INT(ratelimit_take(rl, "10.0.0.1", 1000), 0);
    int retry = ratelimit_take(rl, "10.0.0.1", 1000);
    CHECK_EQ_INT(retry, 1);
    CHECK_EQ_INT(ratelimit_take(rl, "10.0.0.2", 1000), 0); /* another address */
    CHECK_EQ_INT(ratelimit_take(rl, "10.0.0.1", 1500), 0); /* one token back after 0.5 s */
    CHECK(ratelimit_take(rl, "10.0.0.1", 1500) > 0);
    CHECK_EQ_INT(ratelimit_take(rl, "10.0.0.1", 60000), 0); /* refilled, capped at the burst */
    ratelimit_free(rl);
    ratelimit *off = ratelimit_new(0, 0);
    for (int i = 0; i < 100; i++) CHECK_EQ_INT(ratelimit_take(off, "x", 0), 0);
    ratelimit_free(off);
}

TEST(ratelimit_table_recycles_when_full) {
    ratelimit *rl = ratelimit_new(1.0, 1.0);
    char key[32];
    for (int i = 0; i < 100000; i++) {
        snprintf(key, sizeof key, "192.0.%d.%d", i / 256, i % 256);
        CHECK_EQ_INT(ratelimit_take(rl, key, i), 0); /* every new address gets its burst */
    }
    ratelimit_free(rl);
}

TEST(config_defaults_environment_and_flags) {
    server_config c;
    char err[256];
    char *none[] = { "serve" };
    unsetenv("PHANTOMGO_PORT");
    unsetenv("PHANTOMGO_LISTEN");
    CHECK_EQ_INT(config_load(&c, 1, none, err, sizeof err), CONFIG_OK);
    CHECK_EQ_INT(c.port, 8080);
    CHECK_EQ_STR(c.listen, "127.0.0.1");
    CHECK(!strcmp(c.db, "./data/phantomgo.db"));
    setenv("PHANTOMGO_PORT", "9000", 1);
    setenv("PHANTOMGO_LISTEN", "0.0.0.0", 1);
    CHECK_EQ_INT(config_load(&c, 1, none, err, sizeof err), CONFIG_OK);
    CHECK_EQ_INT(c.port, 9000);
    CHECK_EQ_STR(c.listen, "0.0.0.0");
    char *flags[] = { "serve", "--port", "0", "--base-url=https://go.example.org/", "--trust-proxy" };
    CHECK_EQ_INT(config_load(&c, 5, flags, err, sizeof err), CONFIG_OK);
    CHECK_EQ_INT(c.port, 0);
    CHECK_EQ_STR(c.base_url, "https://go.example.org");
    CHECK(c.trust_proxy);
    unsetenv("PHANTOMGO_PORT");
    unsetenv("PHANTOMGO_LISTEN");
    char *bad_port[] = { "serve", "--port", "70000" };
    CHECK_EQ_INT(config_load(&c, 3, bad_port, err, sizeof err), CONFIG_ERROR);
    CHECK(strstr(err, "--port") != NULL);
    char *bad_url[] = { "serve", "--base-url", "ftp://x" };
    CHECK_EQ_INT(config_load(&c, 3, bad_url, err, sizeof err), CONFIG_ERROR);
    char *help[] = { "serve", "--help" };
    CHECK_EQ_INT(config_load(&c, 2, help, err, sizeof err), CONFIG_HELP);
    setenv("PHANTOMGO_THREADS", "lots", 1);
    CHECK_EQ_INT(config_load(&c, 1, none, err, sizeof err), CONFIG_ERROR);
    CHECK(strstr(err, "PHANTOMGO_THREADS") != NULL);
    unsetenv("PHANTOMGO_THREADS");
}

TEST(strbuf_grows_and_hands_over) {
    strbuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < 1000; i++) strbuf_printf(&sb, "%d,", i);
    strbuf_puts(&sb, "end");
    size_t len;
    char *text = strbuf_take(&sb, &len);
    CHECK(text != NULL);
    CHECK_EQ_INT(len, strlen(text));
    CHECK(!strncmp(text, "0,1,2,", 6));
    CHECK(!strcmp(text + len - 7, "999,end"));
    CHECK(sb.data == NULL && sb.len == 0);
    free(text);
}

static action_json_status parse(const char *json, action *a, int *seq, char *err) {
    cJSON *o = cJSON_Parse(json);
    action_json_status st = view_json_parse_action(o, 9, BLACK, a, seq, err, 160);
    cJSON_Delete(o);
    return st;
}

TEST(view_json_parses_actions_strictly) {
    action a;
    int seq;
    char err[160];
    CHECK_EQ_INT(parse("{\"seq\":3,\"action\":\"attempt\",\"vertex\":\"e5\"}", &a, &seq, err),
                 ACTION_JSON_OK);
    CHECK_EQ_INT(seq, 3);
    CHECK_EQ_INT(a.kind, ACT_ATTEMPT);
    CHECK_EQ_INT(a.color, BLACK);
    CHECK_EQ_INT(a.point, vtx(9, "E5"));
    CHECK_EQ_INT(parse("{\"seq\":1,\"action\":\"pass\"}", &a, &seq, err), ACTION_JSON_OK);
    CHECK_EQ_INT(a.kind, ACT_PASS);
    CHECK_EQ_INT(parse("{\"seq\":1,\"action\":\"resign\"}", &a, &seq, err), ACTION_JSON_OK);
    CHECK_EQ_INT(a.kind, ACT_RESIGN);
    CHECK_EQ_INT(parse("{\"seq\":1,\"action\":\"attempt\",\"vertex\":\"K9\"}", &a, &seq, err),
                 ACTION_JSON_BAD_VERTEX);
    CHECK_EQ_INT(parse("{\"seq\":1,\"action\":\"attempt\",\"vertex\":\"pass\"}", &a, &seq, err),
                 ACTION_JSON_BAD_VERTEX);
    CHECK_EQ_INT(parse("{\"seq\":1,\"action\":\"timeout\"}", &a, &seq, err), ACTION_JSON_BAD_REQUEST);
    CHECK_EQ_INT(parse("{\"seq\":1,\"seq\":2,\"action\":\"pass\"}", &a, &seq, err), ACTION_JSON_BAD_REQUEST);
    CHECK(strstr(err, "twice") != NULL);
    CHECK_EQ_INT(parse("{\"seq\":1,\"action\":\"pass\",\"x\":0}", &a, &seq, err), ACTION_JSON_BAD_REQUEST);
    CHECK(strstr(err, "'x'") != NULL);
    CHECK_EQ_INT(parse("{\"seq\":-1,\"action\":\"pass\"}", &a, &seq, err), ACTION_JSON_BAD_REQUEST);
    CHECK_EQ_INT(parse("[1]", &a, &seq, err), ACTION_JSON_BAD_REQUEST);
}

TEST(view_json_events_say_only_what_the_observation_holds) {
    game_settings s = settings_default();
    s.size = 5;
    referee *r = referee_new(&s);
    CHECK_EQ_INT(ref_try(r, BLACK, "C3", NULL), REFUSE_NONE);
    CHECK_EQ_INT(ref_try(r, WHITE, "C3", NULL), REFUSE_NONE); /* illegal: occupied */
    strbuf w = { 0 }, b = { 0 };
    CHECK(view_json_events_append(&w, r, VIEWER_WHITE, 0));
    CHECK(view_json_events_append(&b, r, VIEWER_BLACK, 1));
    CHECK_EQ_STR(w.data, "[{\"seq\":1,\"turn\":1,\"type\":\"move\",\"color\":\"black\"},"
                         "{\"seq\":2,\"turn\":2,\"type\":\"illegal\",\"color\":\"white\",\"vertex\":\"C3\"}]");
    CHECK_EQ_STR(b.data, "[{\"seq\":2,\"turn\":2,\"type\":\"illegal\",\"color\":\"white\"}]");
    strbuf_free(&w);
    strbuf_free(&b);
    referee_free(r);
}

/* The view's two parts: the cached text is one JSON object once closed,
 * holding every event as events_append writes them, and the fields of the
 * moment are "clock" (clock_json's text) then "computer", last. */
TEST(view_json_open_text_and_close_make_the_whole_view) {
    game_settings s = settings_default();
    s.size = 5;
    referee *r = referee_new(&s);
    CHECK_EQ_INT(ref_try(r, BLACK, "C3", NULL), REFUSE_NONE);
    CHECK_EQ_INT(ref_try(r, WHITE, "C3", NULL), REFUSE_NONE);
    time_control tc = { .kind = TC_FISCHER, .main_s = 60, .increment_s = 5 };
    view_table t = { .game_id = "g1", .mode = "computer", .level = "strong", .tc = &tc };
    t.seat_name[BLACK] = "Алиса \"\\";
    game_clock c;
    clock_init(&c, &tc);
    clock_start_turn(&c, WHITE, 1000);
    size_t len = 0;
    char *open = view_json_open_text(r, VIEWER_WHITE, &t, &len);
    CHECK(open && len == strlen(open) && open[len - 1] != '}');
    strbuf events = { 0 };
    CHECK(view_json_events_append(&events, r, VIEWER_WHITE, 0));
    cJSON *clock = clock_to_json(&c, 4321, -1);
    char *clock_text = json_print(clock, NULL);
    cJSON_Delete(clock);
    for (int percent = 0; percent <= 100; percent += 40) {
        strbuf sb = { 0 };
        strbuf_append(&sb, open ? open : "", len);
        CHECK(view_json_close(&sb, &c, 4321, -1, percent));
        strbuf expected = { 0 };
        strbuf_printf(&expected, ",\"clock\":%s", clock_text ? clock_text : "?");
        if (percent)
            strbuf_printf(&expected, ",\"computer\":{\"think_percent\":%d,\"busy\":%s}", percent,
                          percent < 100 ? "true" : "false");
        strbuf_append(&expected, "}", 1);
        CHECK_EQ_STR(sb.data + len, expected.data);
        cJSON *whole = cJSON_ParseWithLength(sb.data, sb.len);
        char *listed = json_print(cJSON_GetObjectItemCaseSensitive(whole, "events"), NULL);
        CHECK(whole && listed && !strcmp(listed, events.data));
        CHECK_EQ_STR(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
                         cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(whole, "seats"), "black"),
                         "name")),
                     "Алиса \"\\");
        free(listed);
        cJSON_Delete(whole);
        strbuf_free(&expected);
        strbuf_free(&sb);
    }
    free(clock_text);
    free(open);
    strbuf_free(&events);
    strbuf empty = { 0 };
    CHECK(view_json_events_append(&empty, r, VIEWER_BLACK, 2));
    CHECK_EQ_STR(empty.data, "[]");
    strbuf_free(&empty);
    referee_free(r);
}
