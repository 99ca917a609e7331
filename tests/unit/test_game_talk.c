/* Unit tests of a game's table talk (server/game_talk.c) over a real store:
 * who reads which room before and after the end (the whole table), that a
 * message wakes only the talk callback of watchers (never their update
 * callback, so a message changes no view), names in the views, the rooms'
 * numbering and its survival across a reopen, and cancelling. */
#include "harness.h"
#include "test_games_util.h"
#include "test_store_util.h"

#include <stdlib.h>

#include "games/registry.h"
#include "store/store_chat.h"

static game *new_game(games_fixture *f, game_mode mode, game_created *c) {
    game_new req;
    memset(&req, 0, sizeof req);
    req.mode = mode;
    req.settings = settings_default();
    req.tc = time_control_none();
    req.creator_color = BLACK;
    req.level = "easy";
    game *g = NULL;
    if (registry_create(f->gm, &req, c) != GAME_OK || registry_get(f->gm, c->id, &g) != GAME_OK) return NULL;
    return g;
}

TEST(game_talk_who_reads_which_room) {
    const viewer seats[] = { (viewer)BLACK, (viewer)WHITE };
    for (int over = 0; over <= 1; over++) {
        for (int i = 0; i < 2; i++) {
            CHECK(game_room_readable(MODE_ONLINE, seats[i], GAME_ROOM_PLAYERS, over));
            CHECK_EQ_INT(game_room_readable(MODE_ONLINE, seats[i], GAME_ROOM_SPECTATORS, over), over);
            CHECK(game_room_readable(MODE_HOTSEAT, seats[i], GAME_ROOM_PLAYERS, over));
            CHECK(!game_room_readable(MODE_HOTSEAT, seats[i], GAME_ROOM_SPECTATORS, over));
        }
        CHECK_EQ_INT(game_room_readable(MODE_ONLINE, VIEWER_SPECTATOR, GAME_ROOM_PLAYERS, over), over);
        CHECK(game_room_readable(MODE_ONLINE, VIEWER_SPECTATOR, GAME_ROOM_SPECTATORS, over));
        CHECK(!game_room_readable(MODE_COMPUTER, VIEWER_SPECTATOR, GAME_ROOM_SPECTATORS, over));
        CHECK(!game_room_readable(MODE_ONLINE, VIEWER_SPECTATOR, 3, over));
    }
}

typedef struct listening {
    game_watcher w; /* first */
    int updates, talks, last_room;
} listening;

static void on_update(game_watcher *w) { ((listening *)w)->updates++; }
static void on_talk(game_watcher *w, int room) {
    ((listening *)w)->talks++;
    ((listening *)w)->last_room = room;
}

TEST(game_talk_messages_wake_talk_only_and_are_numbered_per_room) {
    games_fixture f;
    if (!games_fixture_open(&f)) {
        CHECK(!"fixture");
        return;
    }
    game_created c;
    game *g = new_game(&f, MODE_ONLINE, &c);
    if (!g) {
        CHECK(g != NULL);
        games_fixture_close(&f);
        return;
    }
    listening l = { .w = { .notify = on_update, .talk = on_talk } };
    game_watch(g, &l.w);
    char *before = game_view_copy(g, (viewer)BLACK, NULL);
    strbuf m = { 0 };
    CHECK_EQ_INT(game_say(g, VIEWER_SPECTATOR, "kib", "D4?", &m), GAME_OK);
    char *text = strbuf_take(&m, NULL);
    CHECK(text && strstr(text, "\"room\":\"spectators\",\"n\":1,\"from\":\"spectator\",\"name\":\"kib\""));
    free(text);
    CHECK_EQ_INT(game_say(g, (viewer)BLACK, NULL, "hello", &m), GAME_OK);
    text = strbuf_take(&m, NULL);
    CHECK(text && strstr(text, "\"room\":\"players\",\"n\":1,\"from\":\"black\",\"name\":null"));
    free(text);
    CHECK_EQ_INT(l.talks, 2);
    CHECK_EQ_INT(l.last_room, GAME_ROOM_PLAYERS);
    CHECK_EQ_INT(l.updates, 0); /* talk changes no view */
    char *after = game_view_copy(g, (viewer)BLACK, NULL);
    char *cut_b = before ? strstr(before, "\"clock\"") : NULL,
         *cut_a = after ? strstr(after, "\"clock\"") : NULL;
    if (cut_b) *cut_b = '\0';
    if (cut_a) *cut_a = '\0';
    CHECK(before && after && strcmp(before, after) == 0);
    free(before);
    free(after);
    CHECK_EQ_INT(game_chat_last(g, GAME_ROOM_PLAYERS), 1);
    CHECK_EQ_INT(game_chat_last(g, GAME_ROOM_SPECTATORS), 1);

    CHECK_EQ_INT(game_rename(g, BLACK, "Alice"), GAME_OK);
    CHECK_EQ_INT(l.updates, 1); /* a name is part of the view */
    text = game_view_copy(g, VIEWER_SPECTATOR, NULL);
    CHECK(
        text &&
        strstr(text, "\"black\":{\"taken\":true,\"computer\":false,\"connected\":false,\"name\":\"Alice\"}"));
    free(text);
    game_unwatch(g, &l.w);
    game_release(g);

    char err[200]; /* a reopen replays names and numbering */
    registry_close(f.gm);
    CHECK_EQ_INT(registry_open(&f.gm, f.st, err, sizeof err), GAME_OK);
    CHECK_EQ_INT(registry_get(f.gm, c.id, &g), GAME_OK);
    CHECK_EQ_INT(game_say(g, (viewer)BLACK, NULL, "again", &m), GAME_OK);
    text = strbuf_take(&m, NULL);
    CHECK(text && strstr(text, "\"n\":2,\"from\":\"black\",\"name\":\"Alice\""));
    free(text);
    strbuf room = { 0 };
    CHECK_EQ_INT(game_chat_room_text(g, GAME_ROOM_PLAYERS, 0, 10, &room), GAME_OK);
    text = strbuf_take(&room, NULL);
    CHECK(text && strstr(text, "\"last\":2"));
    free(text);
    game_release(g);
    games_fixture_close(&f);
}

TEST(game_talk_closed_rooms_and_cancelling) {
    games_fixture f;
    if (!games_fixture_open(&f)) {
        CHECK(!"fixture");
        return;
    }
    game_created c;
    game *hot = new_game(&f, MODE_HOTSEAT, &c);
    strbuf m = { 0 };
    CHECK_EQ_INT(game_say(hot, VIEWER_SPECTATOR, NULL, "hi", &m), GAME_CHAT_CLOSED);
    CHECK(m.len == 0); /* refused: nothing said */
    CHECK_EQ_INT(game_cancel(hot, BLACK), GAME_SEAT_TAKEN);
    game_release(hot);

    game *g = new_game(&f, MODE_ONLINE, &c);
    if (!g) {
        CHECK(g != NULL);
        games_fixture_close(&f);
        return;
    }
    CHECK(!game_cancelled(g));
    CHECK_EQ_INT(game_cancel(g, BLACK), GAME_OK);
    CHECK(game_cancelled(g));
    CHECK_EQ_INT(game_cancel(g, BLACK), GAME_CANCELLED);
    int color = 0;
    char token[SECRET_TEXT_LEN + 1];
    CHECK_EQ_INT(game_claim(g, c.invite, &color, token), GAME_CANCELLED);
    CHECK_EQ_INT(game_say(g, (viewer)BLACK, NULL, "anyone?", &m), GAME_CANCELLED);
    action pass = { .kind = ACT_PASS, .color = BLACK, .point = NO_POINT };
    CHECK_EQ_INT(game_act(g, BLACK, 1, &pass, NULL), GAME_CANCELLED);
    char *text = game_view_copy(g, VIEWER_SPECTATOR, NULL);
    CHECK(text && strstr(text, "\"cancelled\":true"));
    free(text);
    game_release(g);
    games_fixture_close(&f);
}

/* Another server sharing the database (here: the store written behind the
 * registry's back) took the next number of a room: the copy's message is
 * refused by the store and numbered again from the store's count. News of
 * a message (game_chat_heard) raises the count and wakes the talk
 * callback once; old or repeated news wakes nobody. */
TEST(game_talk_a_number_taken_elsewhere_is_taken_again_and_news_wakes_once) {
    games_fixture f;
    if (!games_fixture_open(&f)) {
        CHECK(!"fixture");
        return;
    }
    game_created c;
    game *g = new_game(&f, MODE_ONLINE, &c);
    if (!g) {
        CHECK(g != NULL);
        games_fixture_close(&f);
        return;
    }
    listening l = { .w = { .notify = on_update, .talk = on_talk } };
    game_watch(g, &l.w);
    store_chat_message elsewhere = { .room = STORE_ROOM_PLAYERS, .n = 1, .author = 2, .at_ms = 1 };
    snprintf(elsewhere.text, sizeof elsewhere.text, "%s", "from the other server");
    CHECK_EQ_INT(store_append_chat(f.st, c.id, &elsewhere), STORE_OK);
    strbuf m = { 0 };
    CHECK_EQ_INT(game_say(g, (viewer)BLACK, NULL, "mine", &m), GAME_OK);
    char *text = strbuf_take(&m, NULL);
    CHECK(text && strstr(text, "\"n\":2,\"from\":\"black\""));
    free(text);
    CHECK_EQ_INT(game_chat_last(g, GAME_ROOM_PLAYERS), 2);
    int talks = l.talks;
    game_chat_heard(g, GAME_ROOM_PLAYERS, 2); /* our own message's news */
    CHECK_EQ_INT(l.talks, talks);
    game_chat_heard(g, GAME_ROOM_SPECTATORS, 3);
    CHECK_EQ_INT(l.talks, talks + 1);
    CHECK_EQ_INT(l.last_room, GAME_ROOM_SPECTATORS);
    CHECK_EQ_INT(game_chat_last(g, GAME_ROOM_SPECTATORS), 3);
    game_chat_heard(g, GAME_ROOM_SPECTATORS, 3);
    game_chat_heard(g, 7, 9); /* no such room */
    CHECK_EQ_INT(l.talks, talks + 1);
    CHECK_EQ_INT(l.updates, 0);
    game_unwatch(g, &l.w);
    game_release(g);
    games_fixture_close(&f);
}

/* A copy whose row and names another server changed (the store written
 * behind its back): game_names_heard and game_refresh read them afresh and
 * tell the watchers once; a refresh that finds nothing new tells nobody. */
TEST(game_talk_a_copy_refreshed_from_the_store_tells_only_what_changed) {
    games_fixture f;
    if (!games_fixture_open(&f)) {
        CHECK(!"fixture");
        return;
    }
    game_created c;
    game *g = new_game(&f, MODE_ONLINE, &c);
    if (!g) {
        CHECK(g != NULL);
        games_fixture_close(&f);
        return;
    }
    listening l = { .w = { .notify = on_update, .talk = on_talk } };
    game_watch(g, &l.w);
    game_refresh(g);
    game_names_heard(g);
    CHECK_EQ_INT(l.updates, 0);
    CHECK_EQ_INT(store_put_name(f.st, c.id, WHITE, "Bo"), STORE_OK);
    game_names_heard(g);
    CHECK_EQ_INT(l.updates, 1);
    game_names_heard(g);
    CHECK_EQ_INT(l.updates, 1);
    game_lobby_facts facts;
    game_lobby_facts_of(g, &facts);
    CHECK_EQ_STR(facts.names[WHITE], "Bo");
    CHECK(!game_cancelled(g));
    CHECK_EQ_INT(store_cancel_game(f.st, c.id, 1700000000000), STORE_OK);
    game_refresh(g);
    CHECK_EQ_INT(l.updates, 2);
    CHECK(game_cancelled(g));
    game_refresh(g);
    CHECK_EQ_INT(l.updates, 2);
    game_unwatch(g, &l.w);
    game_release(g);
    games_fixture_close(&f);
}
