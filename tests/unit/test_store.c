/* Unit tests of the store's contract, one behaviour each, on a real SQLite
 * file in a temporary directory: round trips of every field, the conflicts
 * the server relies on (duplicate seq, a second claim), notes, rematch,
 * listing, and durability across close and reopen. */
#include "harness.h"
#include "test_store_util.h"

#include <stdlib.h>

static const uint8_t HASH_A[32] = { 1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
                                    17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 };
static const uint8_t HASH_B[32] = { 0xff, 0xee, 0xdd, 0xcc, [31] = 0x42 };
static const uint8_t ZERO[32];

TEST(store_insert_load_round_trip) {
    store_fixture f;
    CHECK(store_fixture_open(&f));
    if (!f.st) return;
    store *st = f.st;
    store_game g = test_game("k3v9x2m4qa", "online");
    g.created_at_ms = 1712345678901;
    g.settings_json = (char *)"{\"size\":13,\"komi\":6.5,\"rules\":\"hamburg\"}";
    g.options_json = (char *)"{\"level\":\"strong\"}";
    memcpy(g.seat_hash[0], HASH_A, 32);
    memcpy(g.invite_hash, HASH_B, 32);
    g.invite_color = 2;
    CHECK_EQ_INT(store_insert_game(st, &g), STORE_OK);

    store_game back;
    store_action *actions = (store_action *)1;
    int count = -1;
    CHECK_EQ_INT(store_load_game(st, "k3v9x2m4qa", &back, &actions, &count), STORE_OK);
    CHECK_EQ_STR(back.id, "k3v9x2m4qa");
    CHECK_EQ_INT(back.created_at_ms, 1712345678901);
    CHECK_EQ_STR(back.mode, "online");
    CHECK_EQ_STR(back.settings_json, g.settings_json);
    CHECK_EQ_STR(back.options_json, g.options_json);
    CHECK(memcmp(back.seat_hash[0], HASH_A, 32) == 0);
    CHECK(memcmp(back.seat_hash[1], ZERO, 32) == 0);
    CHECK(memcmp(back.invite_hash, HASH_B, 32) == 0);
    CHECK_EQ_INT(back.invite_color, 2);
    CHECK_EQ_STR(back.rematch_id, "");
    CHECK_EQ_INT(count, 0);
    CHECK(actions == NULL);
    store_game_free_fields(&back);
    CHECK(back.settings_json == NULL);

    CHECK_EQ_INT(store_insert_game(st, &g), STORE_CONFLICT);
    CHECK_EQ_INT(store_load_game(st, "nosuchgame0", &back, NULL, NULL), STORE_NOT_FOUND);
    store_fixture_close(&f);
}

TEST(store_rejects_bad_rows_without_writing) {
    store_fixture f;
    CHECK(store_fixture_open(&f));
    if (!f.st) return;
    store *st = f.st;
    store_game g = test_game("badmode0001", "tournament");
    CHECK_EQ_INT(store_insert_game(st, &g), STORE_ERROR);
    g = test_game("BadId", "online");
    CHECK_EQ_INT(store_insert_game(st, &g), STORE_ERROR);
    g = test_game("badjson0001", "online");
    g.settings_json = (char *)"{size:9";
    CHECK_EQ_INT(store_insert_game(st, &g), STORE_ERROR);
    g = test_game("goodgame001", "hotseat");
    CHECK_EQ_INT(store_insert_game(st, &g), STORE_OK);
    store_action a = test_action(1, "teleport", 1, "");
    CHECK_EQ_INT(store_append_action(st, "goodgame001", &a), STORE_ERROR);
    a = test_action(1, "attempt", 1, "");
    CHECK_EQ_INT(store_append_action(st, "goodgame001", &a), STORE_ERROR);
    a = test_action(1, "pass", 3, "");
    CHECK_EQ_INT(store_append_action(st, "goodgame001", &a), STORE_ERROR);
    store_action *list = NULL;
    int n = -1;
    store_game back;
    CHECK_EQ_INT(store_load_game(st, "goodgame001", &back, &list, &n), STORE_OK);
    CHECK_EQ_INT(n, 0);
    store_game_free_fields(&back);
    free(list);
    CHECK_EQ_INT(store_load_game(st, "badmode0001", &back, NULL, NULL), STORE_NOT_FOUND);
    store_fixture_close(&f);
}

TEST(store_append_in_order_and_duplicate_seq_conflicts) {
    store_fixture f;
    CHECK(store_fixture_open(&f));
    if (!f.st) return;
    store *st = f.st;
    store_game g = test_game("appendgame1", "online");
    CHECK_EQ_INT(store_insert_game(st, &g), STORE_OK);
    store_action a1 = test_action(1, "attempt", 1, "D4");
    store_action a2 = test_action(2, "attempt", 2, "Q16");
    store_action a3 = test_action(3, "pass", 1, "");
    store_action a4 = test_action(4, "resign", 2, "");
    CHECK_EQ_INT(store_append_action(st, "appendgame1", &a1), STORE_OK);
    CHECK_EQ_INT(store_append_action(st, "appendgame1", &a2), STORE_OK);
    CHECK_EQ_INT(store_append_action(st, "appendgame1", &a3), STORE_OK);
    CHECK_EQ_INT(store_append_action(st, "appendgame1", &a4), STORE_OK);

    store_action dup = test_action(2, "attempt", 2, "C3");
    CHECK_EQ_INT(store_append_action(st, "appendgame1", &dup), STORE_CONFLICT);
    CHECK_EQ_INT(store_append_action(st, "nosuchgame0", &a1), STORE_NOT_FOUND);

    store_game back;
    store_action *list = NULL;
    int n = 0;
    CHECK_EQ_INT(store_load_game(st, "appendgame1", &back, &list, &n), STORE_OK);
    CHECK_EQ_INT(n, 4);
    if (n == 4) {
        CHECK_EQ_INT(list[0].seq, 1);
        CHECK_EQ_STR(list[0].kind, "attempt");
        CHECK_EQ_INT(list[0].color, 1);
        CHECK_EQ_STR(list[0].vertex, "D4");
        CHECK_EQ_INT(list[0].at_ms, a1.at_ms);
        CHECK_EQ_STR(list[1].vertex, "Q16");
        CHECK_EQ_STR(list[2].kind, "pass");
        CHECK_EQ_STR(list[2].vertex, "");
        CHECK_EQ_STR(list[3].kind, "resign");
        CHECK_EQ_INT(list[3].color, 2);
    }
    free(list);
    store_game_free_fields(&back);
    store_fixture_close(&f);
}

TEST(store_claim_seat_works_once) {
    store_fixture f;
    CHECK(store_fixture_open(&f));
    if (!f.st) return;
    store *st = f.st;
    store_game g = test_game("claimgame01", "online");
    memcpy(g.seat_hash[0], HASH_A, 32);
    memcpy(g.invite_hash, HASH_B, 32);
    g.invite_color = 2;
    CHECK_EQ_INT(store_insert_game(st, &g), STORE_OK);

    CHECK_EQ_INT(store_claim_seat(st, "claimgame01", 1, HASH_B, 1700000000500), STORE_CONFLICT);
    CHECK_EQ_INT(store_claim_seat(st, "nosuchgame0", 2, HASH_B, 1700000000500), STORE_NOT_FOUND);
    CHECK_EQ_INT(store_claim_seat(st, "claimgame01", 2, ZERO, 1700000000500), STORE_ERROR);
    CHECK_EQ_INT(store_claim_seat(st, "claimgame01", 2, HASH_B, 1700000000500), STORE_OK);
    CHECK_EQ_INT(store_claim_seat(st, "claimgame01", 2, HASH_A, 1700000000500), STORE_CONFLICT);

    store_game back;
    CHECK_EQ_INT(store_load_game(st, "claimgame01", &back, NULL, NULL), STORE_OK);
    CHECK(memcmp(back.seat_hash[0], HASH_A, 32) == 0);
    CHECK(memcmp(back.seat_hash[1], HASH_B, 32) == 0);
    CHECK(memcmp(back.invite_hash, ZERO, 32) == 0);
    CHECK_EQ_INT(back.invite_color, 0);
    CHECK_EQ_INT(back.started_at_ms, 1700000000500); /* the clock starts with the claim */
    store_game_free_fields(&back);
    store_fixture_close(&f);
}

TEST(store_notes_per_seat) {
    store_fixture f;
    CHECK(store_fixture_open(&f));
    if (!f.st) return;
    store *st = f.st;
    store_game g = test_game("notesgame01", "hotseat");
    CHECK_EQ_INT(store_insert_game(st, &g), STORE_OK);
    char *json = (char *)1;
    CHECK_EQ_INT(store_get_notes(st, "notesgame01", 1, &json), STORE_OK);
    CHECK(json == NULL);
    CHECK_EQ_INT(store_get_notes(st, "nosuchgame0", 1, &json), STORE_NOT_FOUND);
    CHECK_EQ_INT(store_put_notes(st, "nosuchgame0", 1, "[]"), STORE_NOT_FOUND);
    CHECK_EQ_INT(store_put_notes(st, "notesgame01", 1, "[\"C3\"]"), STORE_OK);
    CHECK_EQ_INT(store_put_notes(st, "notesgame01", 1, "[\"C3\",\"D5\"]"), STORE_OK);
    CHECK_EQ_INT(store_put_notes(st, "notesgame01", 2, "[\"E5\"]"), STORE_OK);
    CHECK_EQ_INT(store_put_notes(st, "notesgame01", 2, "not json"), STORE_ERROR);
    CHECK_EQ_INT(store_get_notes(st, "notesgame01", 1, &json), STORE_OK);
    CHECK_EQ_STR(json, "[\"C3\",\"D5\"]");
    free(json);
    CHECK_EQ_INT(store_get_notes(st, "notesgame01", 2, &json), STORE_OK);
    CHECK_EQ_STR(json, "[\"E5\"]");
    free(json);
    store_fixture_close(&f);
}

TEST(store_rematch_set_once) {
    store_fixture f;
    CHECK(store_fixture_open(&f));
    if (!f.st) return;
    store *st = f.st;
    store_game g = test_game("firstgame01", "online");
    CHECK_EQ_INT(store_insert_game(st, &g), STORE_OK);
    CHECK_EQ_INT(store_set_rematch(st, "firstgame01", "secondgame1"), STORE_OK);
    CHECK_EQ_INT(store_set_rematch(st, "firstgame01", "secondgame1"), STORE_OK);
    CHECK_EQ_INT(store_set_rematch(st, "firstgame01", "thirdgame01"), STORE_CONFLICT);
    CHECK_EQ_INT(store_set_rematch(st, "nosuchgame0", "secondgame1"), STORE_NOT_FOUND);
    store_game back;
    CHECK_EQ_INT(store_load_game(st, "firstgame01", &back, NULL, NULL), STORE_OK);
    CHECK_EQ_STR(back.rematch_id, "secondgame1");
    store_game_free_fields(&back);
    store_fixture_close(&f);
}

struct id_seen {
    char ids[8][24];
    int count;
};

static int remember_id(void *ctx, const char *id) {
    struct id_seen *seen = ctx;
    if (seen->count < 8) snprintf(seen->ids[seen->count++], 24, "%s", id);
    return 0;
}

static int stop_at_first(void *ctx, const char *id) {
    (void)ctx;
    (void)id;
    return 77;
}

TEST(store_list_games_all_and_computer_to_resume) {
    store_fixture f;
    CHECK(store_fixture_open(&f));
    if (!f.st) return;
    store *st = f.st;
    const char *ids[] = { "listgame001", "listgame002", "listgame003", "listgame004" };
    const char *modes[] = { "computer", "online", "computer", "computer" };
    for (int i = 0; i < 4; i++) {
        store_game g = test_game(ids[i], modes[i]);
        g.created_at_ms += i;
        CHECK_EQ_INT(store_insert_game(st, &g), STORE_OK);
    }
    store_action a = test_action(1, "attempt", 1, "E5");
    store_action r = test_action(2, "resign", 2, "");
    CHECK_EQ_INT(store_append_action(st, "listgame001", &a), STORE_OK);
    CHECK_EQ_INT(store_append_action(st, "listgame003", &a), STORE_OK);
    CHECK_EQ_INT(store_append_action(st, "listgame003", &r), STORE_OK);

    struct id_seen all = { .count = 0 }, resume = { .count = 0 };
    CHECK_EQ_INT(store_list_games(st, "all", remember_id, &all), STORE_OK);
    CHECK_EQ_INT(all.count, 4);
    CHECK_EQ_STR(all.ids[0], "listgame001");
    CHECK_EQ_STR(all.ids[3], "listgame004");
    CHECK_EQ_INT(store_list_games(st, "computer_to_resume", remember_id, &resume), STORE_OK);
    CHECK_EQ_INT(resume.count, 2);
    CHECK_EQ_STR(resume.ids[0], "listgame001");
    CHECK_EQ_STR(resume.ids[1], "listgame004");
    CHECK_EQ_INT(store_list_games(st, "all", stop_at_first, NULL), 77);
    CHECK_EQ_INT(store_list_games(st, "finished", remember_id, &all), STORE_ERROR);
    store_fixture_close(&f);
}

TEST(store_survives_close_and_reopen) {
    store_fixture f;
    CHECK(store_fixture_open(&f));
    if (!f.st) return;
    store *st = f.st;
    store_game g = test_game("reopengame1", "online");
    CHECK_EQ_INT(store_insert_game(st, &g), STORE_OK);
    for (int seq = 1; seq <= 10; seq++) {
        store_action a = test_action(seq, "attempt", 2 - seq % 2, "C3");
        CHECK_EQ_INT(store_append_action(st, "reopengame1", &a), STORE_OK);
    }
    CHECK_EQ_INT(store_put_notes(st, "reopengame1", 2, "[\"A1\"]"), STORE_OK);
    store_close(st);

    for (int round = 0; round < 2; round++) { /* reopening is idempotent */
        st = test_store_open(f.dir, "games.db");
        if (!st) {
            CHECK(st != NULL);
            break;
        }
        store_game back;
        store_action *list = NULL;
        int n = 0;
        CHECK_EQ_INT(store_load_game(st, "reopengame1", &back, &list, &n), STORE_OK);
        CHECK_EQ_INT(n, 10 + round);
        for (int i = 0; i < n && i < 10; i++) CHECK_EQ_INT(list[i].seq, i + 1);
        free(list);
        store_game_free_fields(&back);
        char *json = NULL;
        CHECK_EQ_INT(store_get_notes(st, "reopengame1", 2, &json), STORE_OK);
        CHECK_EQ_STR(json, "[\"A1\"]");
        free(json);
        store_action a = test_action(11, "pass", 1, "");
        CHECK_EQ_INT(store_append_action(st, "reopengame1", &a), round == 0 ? STORE_OK : STORE_CONFLICT);
        store_close(st);
    }
    test_rmtree(f.dir); /* the store was closed above, reopened and closed again */
}

TEST(store_time_control_public_and_clock_lists) {
    store_fixture f;
    CHECK(store_fixture_open(&f));
    if (!f.st) return;
    store *st = f.st;
    store_game timed = test_game("clockgame01", "hotseat");
    timed.time_control_json = (char *)"{\"type\":\"absolute\",\"main\":600}";
    timed.started_at_ms = 1700000000000;
    store_game open = test_game("clockgame02", "online");
    open.is_public = 1;
    open.created_at_ms += 5;
    store_game days = test_game("clockgame03", "computer");
    days.time_control_json = (char *)"{\"type\":\"none\",\"days_per_move\":3}";
    days.started_at_ms = 1700000000000;
    days.is_public = 1;
    store_game untimed = test_game("clockgame04", "hotseat");
    untimed.started_at_ms = 1700000000000;
    store_game *all[] = { &timed, &open, &days, &untimed };
    for (int i = 0; i < 4; i++) CHECK_EQ_INT(store_insert_game(st, all[i]), STORE_OK);
    store_action t = test_action(1, "timeout", 1, "");
    CHECK_EQ_INT(store_append_action(st, "clockgame03", &t), STORE_OK);

    store_game back;
    CHECK_EQ_INT(store_load_game(st, "clockgame01", &back, NULL, NULL), STORE_OK);
    CHECK_EQ_STR(back.time_control_json, "{\"type\":\"absolute\",\"main\":600}");
    CHECK_EQ_INT(back.is_public, 0);
    CHECK_EQ_INT(back.started_at_ms, 1700000000000);
    store_game_free_fields(&back);
    CHECK_EQ_INT(store_load_game(st, "clockgame02", &back, NULL, NULL), STORE_OK);
    CHECK_EQ_STR(back.time_control_json, "{\"type\":\"none\"}"); /* NULL on insert: untimed */
    CHECK_EQ_INT(back.is_public, 1);
    CHECK_EQ_INT(back.started_at_ms, 0);
    store_game_free_fields(&back);

    struct id_seen clocks = { .count = 0 }, lobby = { .count = 0 };
    CHECK_EQ_INT(store_list_games(st, "clock_to_resume", remember_id, &clocks), STORE_OK);
    CHECK_EQ_INT(clocks.count, 1); /* 03 ended by timeout, 04 untimed */
    CHECK_EQ_STR(clocks.ids[0], "clockgame01");
    CHECK_EQ_INT(store_list_games(st, "public_to_list", remember_id, &lobby), STORE_OK);
    CHECK_EQ_INT(lobby.count, 1);
    CHECK_EQ_STR(lobby.ids[0], "clockgame02");
    store_fixture_close(&f);
}
