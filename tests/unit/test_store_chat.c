/* The store's table talk on a real SQLite file: names set, changed and
 * removed; the two rooms numbered apart, read in pages, refused where the
 * schema says so; cancelling only while the invite is unused, and what a
 * cancel does to claims and the lobby walk; everything surviving a reopen
 * and none of it touching the action log. */
#include "harness.h"
#include "test_store_util.h"

#include <stdlib.h>

#include "store/store_chat.h"

static const uint8_t HASH_A[32] = { 1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
                                    17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 };
static const uint8_t HASH_B[32] = { 0xff, 0xee, 0xdd, 0xcc, [31] = 0x42 };

static store_chat_message message(int room, int n, int author, const char *name, const char *text) {
    store_chat_message m;
    memset(&m, 0, sizeof m);
    m.room = room;
    m.n = n;
    m.author = author;
    snprintf(m.name, sizeof m.name, "%s", name);
    snprintf(m.text, sizeof m.text, "%s", text);
    m.at_ms = 1700000000000 + n;
    return m;
}

static store *open_with_game(char *dir, size_t cap, const char *id, const char *mode) {
    if (test_tmpdir(dir, cap) != 0) return NULL;
    store *st = test_store_open(dir, "games.db");
    if (!st) return NULL;
    store_game g = test_game(id, mode);
    if (!strcmp(mode, "online")) {
        memcpy(g.seat_hash[0], HASH_A, 32);
        memcpy(g.invite_hash, HASH_B, 32);
        g.invite_color = 2;
        g.is_public = 1;
    }
    if (store_insert_game(st, &g) != STORE_OK) {
        store_close(st);
        return NULL;
    }
    return st;
}

TEST(store_chat_names_set_change_remove) {
    char dir[256];
    store *st = open_with_game(dir, sizeof dir, "namedgame01", "online");
    if (!st) {
        CHECK(st != NULL);
        return;
    }
    char names[2][STORE_NAME_BYTES];
    CHECK_EQ_INT(store_get_names(st, "namedgame01", names), STORE_OK);
    CHECK_EQ_STR(names[0], "");
    CHECK_EQ_STR(names[1], "");
    CHECK_EQ_INT(store_put_name(st, "namedgame01", 1, "Алиса"), STORE_OK);
    CHECK_EQ_INT(store_put_name(st, "namedgame01", 2, "이세돌"), STORE_OK);
    CHECK_EQ_INT(store_put_name(st, "namedgame01", 1, "Alice"), STORE_OK);
    CHECK_EQ_INT(store_get_names(st, "namedgame01", names), STORE_OK);
    CHECK_EQ_STR(names[0], "Alice");
    CHECK_EQ_STR(names[1], "이세돌");
    CHECK_EQ_INT(store_put_name(st, "namedgame01", 2, ""), STORE_OK);
    CHECK_EQ_INT(store_put_name(st, "namedgame01", 2, NULL), STORE_OK);
    CHECK_EQ_INT(store_get_names(st, "namedgame01", names), STORE_OK);
    CHECK_EQ_STR(names[1], "");

    CHECK_EQ_INT(store_put_name(st, "nosuchgame1", 1, "Bob"), STORE_NOT_FOUND);
    CHECK_EQ_INT(store_get_names(st, "nosuchgame1", names), STORE_NOT_FOUND);
    CHECK_EQ_INT(store_put_name(st, "namedgame01", 3, "Bob"), STORE_ERROR);
    CHECK_EQ_INT(store_put_name(st, "namedgame01", 1, "a name of thirty-three characters"), STORE_ERROR);
    CHECK_EQ_INT(store_get_names(st, "namedgame01", names), STORE_OK);
    CHECK_EQ_STR(names[0], "Alice"); /* the refused write left nothing */
    store_close(st);
    test_rmtree(dir);
}

TEST(store_chat_rooms_are_numbered_apart) {
    char dir[256];
    store *st = open_with_game(dir, sizeof dir, "chattygame1", "online");
    if (!st) {
        CHECK(st != NULL);
        return;
    }
    store_chat_message p1 = message(STORE_ROOM_PLAYERS, 1, 1, "Alice", "hello");
    store_chat_message p2 = message(STORE_ROOM_PLAYERS, 2, 2, "", "hi <b>there</b>");
    store_chat_message s1 = message(STORE_ROOM_SPECTATORS, 1, 0, "kibitzer", "D4 was a stone");
    CHECK_EQ_INT(store_append_chat(st, "chattygame1", &p1), STORE_OK);
    CHECK_EQ_INT(store_append_chat(st, "chattygame1", &s1), STORE_OK);
    CHECK_EQ_INT(store_append_chat(st, "chattygame1", &p2), STORE_OK);
    CHECK_EQ_INT(store_append_chat(st, "chattygame1", &p2), STORE_CONFLICT);

    int n = -1;
    CHECK_EQ_INT(store_chat_count(st, "chattygame1", STORE_ROOM_PLAYERS, &n), STORE_OK);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(store_chat_count(st, "chattygame1", STORE_ROOM_SPECTATORS, &n), STORE_OK);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(store_chat_count(st, "nosuchgame1", STORE_ROOM_PLAYERS, &n), STORE_OK);
    CHECK_EQ_INT(n, 0);

    store_chat_message *list = NULL;
    int count = -1;
    CHECK_EQ_INT(store_read_chat(st, "chattygame1", STORE_ROOM_PLAYERS, 0, 10, &list, &count), STORE_OK);
    CHECK_EQ_INT(count, 2);
    if (count == 2) {
        CHECK_EQ_INT(list[0].n, 1);
        CHECK_EQ_INT(list[0].author, 1);
        CHECK_EQ_STR(list[0].name, "Alice");
        CHECK(strcmp(list[0].text, "hello") == 0);
        CHECK_EQ_INT(list[0].at_ms, 1700000000001);
        CHECK_EQ_INT(list[1].room, STORE_ROOM_PLAYERS);
        CHECK(strcmp(list[1].text, "hi <b>there</b>") == 0);
        CHECK_EQ_STR(list[1].name, "");
    }
    free(list);
    CHECK_EQ_INT(store_read_chat(st, "chattygame1", STORE_ROOM_PLAYERS, 1, 10, &list, &count), STORE_OK);
    CHECK_EQ_INT(count, 1); /* after n = 1 */
    free(list);
    CHECK_EQ_INT(store_read_chat(st, "chattygame1", STORE_ROOM_PLAYERS, 0, 1, &list, &count), STORE_OK);
    CHECK_EQ_INT(count, 1); /* at most limit */
    free(list);
    CHECK_EQ_INT(store_read_chat(st, "chattygame1", STORE_ROOM_SPECTATORS, 0, 10, &list, &count), STORE_OK);
    CHECK_EQ_INT(count, 1);
    if (count == 1) {
        CHECK_EQ_INT(list[0].author, 0);
        CHECK(strcmp(list[0].text, "D4 was a stone") == 0);
    }
    free(list);
    CHECK_EQ_INT(store_read_chat(st, "chattygame1", STORE_ROOM_SPECTATORS, 1, 10, &list, &count), STORE_OK);
    CHECK_EQ_INT(count, 0);
    CHECK(list == NULL);
    store_close(st);
    test_rmtree(dir);
}

TEST(store_chat_refuses_what_the_schema_refuses) {
    char dir[256];
    store *st = open_with_game(dir, sizeof dir, "strictgame1", "online");
    if (!st) {
        CHECK(st != NULL);
        return;
    }
    store_chat_message m = message(STORE_ROOM_PLAYERS, 1, 0, "", "a spectator in the players' room");
    CHECK_EQ_INT(store_append_chat(st, "strictgame1", &m), STORE_ERROR);
    m = message(STORE_ROOM_SPECTATORS, 1, 1, "", "a player in the spectators' room");
    CHECK_EQ_INT(store_append_chat(st, "strictgame1", &m), STORE_ERROR);
    m = message(STORE_ROOM_PLAYERS, 1, 1, "", "");
    CHECK_EQ_INT(store_append_chat(st, "strictgame1", &m), STORE_ERROR);
    m = message(3, 1, 1, "", "no such room");
    CHECK_EQ_INT(store_append_chat(st, "strictgame1", &m), STORE_ERROR);
    m = message(STORE_ROOM_PLAYERS, 0, 1, "", "n starts at 1");
    CHECK_EQ_INT(store_append_chat(st, "strictgame1", &m), STORE_ERROR);
    memset(m.text, 'x', 301); /* 301 characters */
    m.text[301] = '\0';
    m.n = 1;
    CHECK_EQ_INT(store_append_chat(st, "strictgame1", &m), STORE_ERROR);
    m = message(STORE_ROOM_PLAYERS, 1, 1, "", "to a game that does not exist");
    CHECK_EQ_INT(store_append_chat(st, "nosuchgame1", &m), STORE_NOT_FOUND);
    int n = -1;
    CHECK_EQ_INT(store_chat_count(st, "strictgame1", STORE_ROOM_PLAYERS, &n), STORE_OK);
    CHECK_EQ_INT(n, 0);
    store_close(st);
    test_rmtree(dir);
}

static int count_id(void *ctx, const char *id) {
    (void)id;
    (*(int *)ctx)++;
    return 0;
}

TEST(store_chat_cancel_only_while_the_invite_is_unused) {
    char dir[256];
    store *st = open_with_game(dir, sizeof dir, "cancelgame1", "online");
    if (!st) {
        CHECK(st != NULL);
        return;
    }
    store_game g = test_game("claimedgam1", "online");
    memcpy(g.seat_hash[0], HASH_A, 32);
    memcpy(g.invite_hash, HASH_B, 32);
    g.invite_color = 2;
    CHECK_EQ_INT(store_insert_game(st, &g), STORE_OK);
    g = test_game("hotseatgam1", "hotseat");
    CHECK_EQ_INT(store_insert_game(st, &g), STORE_OK);

    int listed = 0;
    CHECK_EQ_INT(store_list_games(st, "public_to_list", count_id, &listed), STORE_OK);
    CHECK_EQ_INT(listed, 1);
    CHECK_EQ_INT(store_cancel_game(st, "cancelgame1", 1700000005000), STORE_OK);
    CHECK_EQ_INT(store_cancel_game(st, "cancelgame1", 1700000006000), STORE_CONFLICT);
    CHECK_EQ_INT(store_claim_seat(st, "cancelgame1", 2, HASH_A, 1700000007000), STORE_CONFLICT);
    store_game back;
    CHECK_EQ_INT(store_load_game(st, "cancelgame1", &back, NULL, NULL), STORE_OK);
    CHECK_EQ_INT(back.cancelled_at_ms, 1700000005000);
    CHECK_EQ_INT(back.invite_color, 0);
    CHECK_EQ_INT(back.started_at_ms, 0);
    store_game_free_fields(&back);
    listed = 0;
    CHECK_EQ_INT(store_list_games(st, "public_to_list", count_id, &listed), STORE_OK);
    CHECK_EQ_INT(listed, 0);

    CHECK_EQ_INT(store_claim_seat(st, "claimedgam1", 2, HASH_A, 1700000007000), STORE_OK);
    CHECK_EQ_INT(store_cancel_game(st, "claimedgam1", 1700000008000), STORE_CONFLICT);
    CHECK_EQ_INT(store_cancel_game(st, "hotseatgam1", 1700000008000), STORE_CONFLICT);
    CHECK_EQ_INT(store_cancel_game(st, "nosuchgame1", 1700000008000), STORE_NOT_FOUND);
    CHECK_EQ_INT(store_load_game(st, "claimedgam1", &back, NULL, NULL), STORE_OK);
    CHECK_EQ_INT(back.cancelled_at_ms, 0);
    store_game_free_fields(&back);
    store_close(st);
    test_rmtree(dir);
}

TEST(store_chat_survives_reopen_and_leaves_the_log_alone) {
    char dir[256];
    store *st = open_with_game(dir, sizeof dir, "durablegam1", "online");
    if (!st) {
        CHECK(st != NULL);
        return;
    }
    store_action a = test_action(1, "attempt", 1, "C3");
    CHECK_EQ_INT(store_append_action(st, "durablegam1", &a), STORE_OK);
    for (int i = 1; i <= 5; i++) {
        store_chat_message m = message(STORE_ROOM_PLAYERS, i, 2 - i % 2, "Bob", "gg");
        CHECK_EQ_INT(store_append_chat(st, "durablegam1", &m), STORE_OK);
    }
    CHECK_EQ_INT(store_put_name(st, "durablegam1", 2, "Bob"), STORE_OK);
    a = test_action(2, "pass", 2, "");
    CHECK_EQ_INT(store_append_action(st, "durablegam1", &a), STORE_OK); /* seq 2 is still free */
    store_close(st);

    st = test_store_open(dir, "games.db");
    if (!st) {
        CHECK(st != NULL);
        return;
    }
    store_game back;
    store_action *actions = NULL;
    int count = 0;
    CHECK_EQ_INT(store_load_game(st, "durablegam1", &back, &actions, &count), STORE_OK);
    CHECK_EQ_INT(count, 2);
    free(actions);
    store_game_free_fields(&back);
    int n = 0;
    CHECK_EQ_INT(store_chat_count(st, "durablegam1", STORE_ROOM_PLAYERS, &n), STORE_OK);
    CHECK_EQ_INT(n, 5);
    char names[2][STORE_NAME_BYTES];
    CHECK_EQ_INT(store_get_names(st, "durablegam1", names), STORE_OK);
    CHECK_EQ_STR(names[1], "Bob");
    store_close(st);
    test_rmtree(dir);
}
