/* The operator's part of the store (store_admin.h) on a real database
 * (SQLite, or PostgreSQL in the unit-pg suite): reports of a message,
 * listed newest first with the message; a removal leaves a tombstone that
 * keeps the room's numbering and closes its reports; mutes and bans read
 * back until they expire; hiding takes a game out of the lobby walk; the
 * admin log; and erasing a seat's or everyone's talk. Everything survives a
 * reopen. */
#include "harness.h"
#include "test_store_util.h"

#include <stdlib.h>

#include "store/store_admin.h"

static store_chat_message said(int room, int n, int author, const char *text) {
    store_chat_message m;
    memset(&m, 0, sizeof m);
    m.room = room;
    m.n = n;
    m.author = author;
    snprintf(m.name, sizeof m.name, "%s", author ? "Seat" : "");
    snprintf(m.text, sizeof m.text, "%s", text);
    m.at_ms = 1700000000000 + n;
    return m;
}

static store *with_talk(char *dir, size_t cap, const char *id) {
    if (test_tmpdir(dir, cap) != 0) return NULL;
    store *st = test_store_open(dir, "games.db");
    if (!st) return NULL;
    store_game g = test_game(id, "online");
    g.is_public = 1;
    store_chat_message m[] = { said(1, 1, 1, "black speaks"), said(1, 2, 2, "white speaks"),
                               said(1, 3, 1, "black again"), said(2, 1, 0, "a spectator") };
    bool ok = store_insert_game(st, &g) == STORE_OK && store_put_name(st, id, 1, "Ann") == STORE_OK &&
              store_put_name(st, id, 2, "Bo") == STORE_OK;
    for (size_t i = 0; ok && i < sizeof m / sizeof m[0]; i++)
        ok = store_append_chat(st, id, &m[i]) == STORE_OK;
    if (!ok) {
        store_close(st);
        return NULL;
    }
    return st;
}

static int count_one(void *ctx, const char *id) {
    (void)id;
    ++*(int *)ctx;
    return 0;
}

static void read_room(store *st, const char *id, int room, store_chat_message **list, int *count) {
    CHECK_EQ_INT(store_read_chat(st, id, room, 0, 100, list, count), STORE_OK);
}

TEST(store_admin_reports_and_removal_keep_the_numbering) {
    char dir[256];
    store *st = with_talk(dir, sizeof dir, "admingame01");
    CHECK(st != NULL);
    if (!st) return;
    CHECK_EQ_INT(store_add_report(st, "admingame01", 1, 2, "black", "rude", 10), STORE_OK);
    CHECK_EQ_INT(store_add_report(st, "admingame01", 2, 1, "spectator", "", 20), STORE_OK);
    CHECK_EQ_INT(store_add_report(st, "admingame01", 1, 9, "black", "", 30), STORE_NOT_FOUND);
    CHECK_EQ_INT(store_add_report(st, "nosuchgame1", 1, 1, "black", "", 30), STORE_NOT_FOUND);
    store_report *reports = NULL;
    int count = 0;
    CHECK_EQ_INT(store_open_reports(st, 10, &reports, &count), STORE_OK);
    CHECK_EQ_INT(count, 2);
    if (count == 2) {
        CHECK_EQ_STR(reports[0].reporter, "spectator"); /* newest first */
        CHECK_EQ_STR(reports[0].message.text, "a spectator");
        CHECK_EQ_STR(reports[1].reason, "rude");
        CHECK_EQ_INT(reports[1].message.author, 2);
    }
    free(reports);

    CHECK_EQ_INT(store_remove_chat(st, "admingame01", 1, 2, 40), STORE_OK);
    CHECK_EQ_INT(store_remove_chat(st, "admingame01", 1, 2, 41), STORE_CONFLICT);
    CHECK_EQ_INT(store_remove_chat(st, "admingame01", 1, 7, 41), STORE_NOT_FOUND);
    CHECK_EQ_INT(store_add_report(st, "admingame01", 1, 2, "black", "", 50), STORE_NOT_FOUND);
    CHECK_EQ_INT(store_open_reports(st, 10, &reports, &count), STORE_OK);
    CHECK_EQ_INT(count, 1); /* the removal closed its report */
    free(reports);
    store_close(st);

    st = test_store_open(dir, "games.db");
    CHECK(st != NULL);
    if (!st) return;
    store_chat_message *list = NULL;
    read_room(st, "admingame01", 1, &list, &count);
    CHECK_EQ_INT(count, 3);
    if (count == 3) {
        CHECK(list[1].removed && !list[1].text[0] && !list[1].name[0] && list[1].n == 2);
        CHECK(!list[0].removed && !strcmp(list[0].text, "black speaks"));
    }
    free(list);
    int last = 0;
    CHECK_EQ_INT(store_chat_count(st, "admingame01", 1, &last), STORE_OK);
    CHECK_EQ_INT(last, 3);
    store_close(st);
    test_rmtree(dir);
}

TEST(store_admin_sanctions_hide_and_log) {
    char dir[256];
    store *st = with_talk(dir, sizeof dir, "admingame02");
    CHECK(st != NULL);
    if (!st) return;
    store_sanction mute = { .what = STORE_BAN_CHAT, .seat = 2, .at_ms = 100, .until_ms = 200 };
    snprintf(mute.game_id, sizeof mute.game_id, "admingame02");
    store_sanction ban = {
        .ban = true, .what = STORE_BAN_CREATE | STORE_BAN_JOIN, .at_ms = 150, .until_ms = 1000
    };
    snprintf(ban.network, sizeof ban.network, "2001:db8::/48");
    store_sanction bad = { .what = STORE_BAN_CHAT, .at_ms = 1, .until_ms = 2 }; /* no target */
    CHECK_EQ_INT(store_add_sanction(st, &mute), STORE_OK);
    CHECK_EQ_INT(store_add_sanction(st, &ban), STORE_OK);
    CHECK_EQ_INT(store_add_sanction(st, &bad), STORE_ERROR);
    store_sanction *list = NULL;
    int count = 0;
    CHECK_EQ_INT(store_active_sanctions(st, 120, &list, &count), STORE_OK);
    CHECK_EQ_INT(count, 2);
    if (count == 2) {
        CHECK(list[0].ban && !strcmp(list[0].network, "2001:db8::/48") && list[0].what == 3);
        CHECK(!list[1].ban && list[1].seat == 2 && !strcmp(list[1].game_id, "admingame02"));
    }
    free(list);
    CHECK_EQ_INT(store_active_sanctions(st, 200, &list, &count), STORE_OK);
    CHECK_EQ_INT(count, 1); /* the mute ran out */
    free(list);

    int n = 0;
    CHECK_EQ_INT(store_list_games(st, "public_to_list", count_one, &n), STORE_OK);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(store_hide_game(st, "admingame02"), STORE_OK);
    CHECK_EQ_INT(store_hide_game(st, "nosuchgame1"), STORE_NOT_FOUND);
    n = 0;
    CHECK_EQ_INT(store_list_games(st, "public_to_list", count_one, &n), STORE_OK);
    CHECK_EQ_INT(n, 0);

    CHECK_EQ_INT(store_log_admin(st, 5, "hide", "admingame02", "{}"), STORE_OK);
    CHECK_EQ_INT(store_log_admin(st, 6, "mute", "admingame02/white", "{\"minutes\":5}"), STORE_OK);
    store_log_entry *log = NULL;
    CHECK_EQ_INT(store_read_admin_log(st, 10, &log, &count), STORE_OK);
    CHECK_EQ_INT(count, 2);
    if (count == 2) {
        CHECK_EQ_STR(log[0].action, "mute");
        CHECK_EQ_STR(log[0].detail, "{\"minutes\":5}");
        CHECK_EQ_STR(log[1].target, "admingame02");
    }
    store_admin_free_log(log, count);
    store_close(st);
    test_rmtree(dir);
}

TEST(store_admin_erases_a_seats_or_everyones_talk) {
    char dir[256];
    store *st = with_talk(dir, sizeof dir, "admingame03");
    CHECK(st != NULL);
    if (!st) return;
    int removed[8], count = 0, players = 0;
    CHECK_EQ_INT(store_add_report(st, "admingame03", 1, 3, "white", "", 1), STORE_OK);
    CHECK_EQ_INT(store_erase_talk(st, "admingame03", 1, 50, removed, 8, &count, &players), STORE_OK);
    CHECK_EQ_INT(count, 2);
    CHECK_EQ_INT(players, 2);
    CHECK(removed[0] == 1 && removed[1] == 3);
    char names[2][STORE_NAME_BYTES];
    CHECK_EQ_INT(store_get_names(st, "admingame03", names), STORE_OK);
    CHECK(!names[0][0] && !strcmp(names[1], "Bo"));
    store_report *reports = NULL;
    int open = 0;
    CHECK_EQ_INT(store_open_reports(st, 10, &reports, &open), STORE_OK);
    CHECK_EQ_INT(open, 0);
    free(reports);

    char(*ids)[24] = malloc(10 * sizeof *ids);
    int found = 0;
    CHECK_EQ_INT(store_talk_older_than(st, 1, "", 10, ids, &found), STORE_OK);
    CHECK_EQ_INT(found, 0); /* created after the cutoff */
    CHECK_EQ_INT(store_talk_older_than(st, INT64_MAX, "", 10, ids, &found), STORE_OK);
    CHECK_EQ_INT(found, 1);
    CHECK_EQ_INT(store_erase_talk(st, "admingame03", 0, 60, removed, 8, &count, &players), STORE_OK);
    CHECK_EQ_INT(count, 2); /* white's message and the spectator's */
    CHECK_EQ_INT(players, 1);
    CHECK_EQ_INT(store_talk_older_than(st, INT64_MAX, "", 10, ids, &found), STORE_OK);
    CHECK_EQ_INT(found, 0); /* nothing left to erase */
    free(ids);
    CHECK_EQ_INT(store_get_names(st, "admingame03", names), STORE_OK);
    CHECK(!names[0][0] && !names[1][0]);
    CHECK_EQ_INT(store_erase_talk(st, "nosuchgame1", 0, 60, removed, 8, &count, NULL), STORE_NOT_FOUND);
    store_close(st);
    test_rmtree(dir);
}
