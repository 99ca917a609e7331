/* Unit tests of the games module without a thread of its own: the registry
 * and one game over a real SQLite store in a temporary directory. Acting,
 * retries, replay after a reopen, listeners, claims, rematches (one store
 * transaction), the clock check the deadline timer calls, and the one
 * mapping of store statuses. */
#include "harness.h"
#include "test_games_util.h"
#include "test_store_util.h"

#include <stdlib.h>

#include "engine/vertex.h"
#include "games/game_internal.h"
#include "games/registry.h"

/* The registry with the options the server gives it (abandonment after
 * 600 s, the test clock allowed). */
static bool fixture_open(games_fixture *f) {
    if (!games_fixture_open(f)) return false;
    registry_set_options(f->gm, 600, true);
    return true;
}

/* Reopens the registry over the same store: every game is replayed. */
static void fixture_reopen(games_fixture *f) {
    char err[200];
    registry_close(f->gm);
    f->gm = NULL;
    CHECK_EQ_INT(registry_open(&f->gm, f->st, err, sizeof err), GAME_OK);
    registry_set_options(f->gm, 600, true);
}

static game_new hotseat(void) {
    game_new req;
    memset(&req, 0, sizeof req);
    req.mode = MODE_HOTSEAT;
    req.settings = settings_default();
    req.tc = time_control_none();
    return req;
}

static action attempt(int color, const char *vertex, int size) {
    action a = { .kind = ACT_ATTEMPT, .color = color, .point = NO_POINT };
    vertex_parse(vertex, size, &a.point);
    return a;
}

typedef struct counter {
    registry_listener l; /* first */
    int calls;
    char last[24];
    game_change record; /* the last one heard */
} counter;

static void count_change(registry_listener *l, game *g, const game_change *c) {
    counter *cnt = (counter *)l;
    cnt->calls++;
    snprintf(cnt->last, sizeof cnt->last, "%s", game_id(g));
    cnt->record = *c;
}

TEST(games_act_retry_and_replay) {
    games_fixture f;
    CHECK(fixture_open(&f));
    if (!f.gm) return;
    game_new req = hotseat();
    game_created c;
    CHECK_EQ_INT(registry_create(f.gm, &req, &c), GAME_OK);
    CHECK(c.token[BLACK][0] && c.token[WHITE][0] && !c.invite[0]);
    game *g;
    CHECK_EQ_INT(registry_get(f.gm, c.id, &g), GAME_OK);
    CHECK_EQ_INT(game_seat_of(g, c.token[BLACK]), BLACK);
    CHECK_EQ_INT(game_seat_of(g, c.token[WHITE]), WHITE);
    CHECK_EQ_INT(game_seat_of(g, "not-a-token"), 0);

    action a = attempt(BLACK, "E5", 9);
    char *answer, *first;
    CHECK_EQ_INT(game_act_copy(g, BLACK, 1, &a, &first), GAME_OK);
    CHECK(first && strstr(first, "\"event\":") && strstr(first, "\"clock\":"));
    char *again;
    CHECK_EQ_INT(game_act_copy(g, BLACK, 1, &a, &again), GAME_OK); /* a retry */
    CHECK_EQ_STR(again, first);
    free(again);
    CHECK_EQ_INT(game_act_copy(g, BLACK, 2, &a, &answer), GAME_NOT_YOUR_TURN);
    action w = attempt(WHITE, "C3", 9);
    CHECK_EQ_INT(game_act_copy(g, WHITE, 5, &w, &answer), GAME_STALE_SEQ);
    CHECK(answer == NULL);
    int seq = 0;
    char *black_view = game_view_copy(g, VIEWER_BLACK, &seq);
    CHECK_EQ_INT(seq, 1);
    game_release(g);

    fixture_reopen(&f); /* replayed from the log */
    CHECK_EQ_INT(registry_get(f.gm, c.id, &g), GAME_OK);
    CHECK_EQ_INT(game_act_copy(g, BLACK, 1, &a, &again), GAME_OK); /* the retry survives */
    CHECK_EQ_STR(again, first);
    char *replayed = game_view_copy(g, VIEWER_BLACK, NULL);
    /* Equal but for the clock's reading time. */
    CHECK(replayed && black_view &&
          !strncmp(replayed, black_view, (size_t)(strstr(black_view, "\"clock\":") - black_view)));
    game_release(g);
    free(first);
    free(again);
    free(black_view);
    free(replayed);
    games_fixture_close(&f);
}

TEST(games_listeners_hear_creation_changes_and_loads) {
    games_fixture f;
    CHECK(fixture_open(&f));
    if (!f.gm) return;
    counter cnt = { .l.changed = count_change };
    registry_listen(f.gm, &cnt.l);
    game_new req = hotseat();
    game_created c;
    CHECK_EQ_INT(registry_create(f.gm, &req, &c), GAME_OK);
    CHECK_EQ_INT(cnt.calls, 1);
    CHECK_EQ_STR(cnt.last, c.id);
    game *g;
    CHECK_EQ_INT(registry_get(f.gm, c.id, &g), GAME_OK);
    CHECK_EQ_INT(cnt.calls, 1); /* in memory: no news */
    game_change created = cnt.record;
    CHECK_EQ_INT(created.seq, 0);
    CHECK(!created.over && !created.cancelled && !created.computer_due && !created.lobby.listed);
    CHECK(created.deadline_ms == INT64_MAX); /* untimed */
    action a = attempt(BLACK, "D4", 9);
    CHECK_EQ_INT(game_act(g, BLACK, 1, &a, NULL), GAME_OK);
    CHECK_EQ_INT(cnt.calls, 2);
    /* Each notice is a newer record; an older one is no longer the latest,
     * and a look between notices bears the latest number. */
    CHECK_EQ_INT(cnt.record.seq, 1);
    CHECK(cnt.record.version > created.version);
    CHECK(!game_change_is_latest(g, &created) && game_change_is_latest(g, &cnt.record));
    game_change look;
    game_change_now(g, &look);
    CHECK_EQ_INT(look.version, cnt.record.version);
    CHECK(game_change_is_latest(g, &look));
    CHECK_EQ_INT(game_act(g, BLACK, 9, &a, NULL), GAME_STALE_SEQ);
    CHECK_EQ_INT(cnt.calls, 2); /* refused: nothing changed */
    game_release(g);
    registry_unlisten(f.gm, &cnt.l);

    fixture_reopen(&f);
    registry_listen(f.gm, &cnt.l);
    CHECK_EQ_INT(registry_get(f.gm, c.id, &g), GAME_OK); /* loaded: listeners catch up */
    CHECK_EQ_INT(cnt.calls, 3);
    game_release(g);
    counter listed = { .l.changed = count_change };
    CHECK_EQ_INT(registry_load_listed(f.gm, "all", &listed.l), STORE_OK);
    CHECK_EQ_INT(listed.calls, 1);
    CHECK_EQ_STR(listed.last, c.id);
    CHECK_EQ_INT(listed.record.seq, 1); /* replayed from the log */
    registry_unlisten(f.gm, &cnt.l);
    games_fixture_close(&f);
}

TEST(games_unknown_and_unreplayable_games) {
    games_fixture f;
    CHECK(fixture_open(&f));
    if (!f.gm) return;
    game *g;
    CHECK_EQ_INT(registry_get(f.gm, "nosuchgame1", &g), GAME_NOT_FOUND);
    CHECK_EQ_INT(registry_get(f.gm, "../etc", &g), GAME_NOT_FOUND);
    store_game row = test_game("brokengame1", "hotseat");
    CHECK_EQ_INT(store_insert_game(f.st, &row), STORE_OK);
    store_action bad = test_action(1, "attempt", WHITE, "E5"); /* white cannot start */
    CHECK_EQ_INT(store_append_action(f.st, "brokengame1", &bad), STORE_OK);
    CHECK_EQ_INT(registry_get(f.gm, "brokengame1", &g), GAME_ERROR);
    CHECK(g == NULL);
    games_fixture_close(&f);
}

TEST(games_claim_join_and_lobby_facts) {
    games_fixture f;
    CHECK(fixture_open(&f));
    if (!f.gm) return;
    game_new req = hotseat();
    req.mode = MODE_ONLINE;
    req.public_game = true;
    req.creator_color = WHITE;
    game_created c;
    CHECK_EQ_INT(registry_create(f.gm, &req, &c), GAME_OK);
    CHECK(c.token[WHITE][0] && !c.token[BLACK][0] && c.invite[0]);
    game *g;
    CHECK_EQ_INT(registry_get(f.gm, c.id, &g), GAME_OK);
    game_lobby_facts facts;
    game_lobby_facts_of(g, &facts);
    CHECK(facts.listed);
    CHECK_EQ_INT(facts.free_color, BLACK);
    CHECK_EQ_INT(facts.started_ms, 0);
    int color = 0;
    char token[SECRET_TEXT_LEN + 1];
    CHECK_EQ_INT(game_claim(g, "wrong-invite", &color, token), GAME_BAD_INVITE);
    CHECK_EQ_INT(game_join(g, &color, token), GAME_OK); /* public: no invite needed */
    CHECK_EQ_INT(color, BLACK);
    CHECK_EQ_INT(game_seat_of(g, token), BLACK);
    CHECK_EQ_INT(game_claim(g, c.invite, &color, token), GAME_SEAT_TAKEN);
    game_lobby_facts_of(g, &facts);
    CHECK_EQ_INT(facts.free_color, 0);
    CHECK(facts.started_ms > 0);
    game_release(g);
    games_fixture_close(&f);
}

TEST(games_rematch_is_one_transaction) {
    games_fixture f;
    CHECK(fixture_open(&f));
    if (!f.gm) return;
    game_new req = hotseat();
    req.mode = MODE_ONLINE;
    req.creator_color = BLACK;
    game_created c;
    CHECK_EQ_INT(registry_create(f.gm, &req, &c), GAME_OK);
    game *g;
    CHECK_EQ_INT(registry_get(f.gm, c.id, &g), GAME_OK);
    int color;
    char white[SECRET_TEXT_LEN + 1];
    CHECK_EQ_INT(game_claim(g, c.invite, &color, white), GAME_OK);
    bool created;
    game_created r;
    CHECK_EQ_INT(registry_rematch(f.gm, g, BLACK, &created, &r), GAME_NOT_OVER);
    action resign = { .kind = ACT_RESIGN, .color = BLACK, .point = NO_POINT };
    CHECK_EQ_INT(game_act(g, BLACK, 1, &resign, NULL), GAME_OK);
    CHECK(game_is_over(g));

    CHECK_EQ_INT(registry_rematch(f.gm, g, BLACK, &created, &r), GAME_OK);
    CHECK(created);
    CHECK(r.token[WHITE][0] && !r.token[BLACK][0] && !r.invite[0]); /* colours swapped */
    store_game row;
    CHECK_EQ_INT(store_load_game(f.st, c.id, &row, NULL, NULL), STORE_OK);
    CHECK_EQ_STR(row.rematch_id, r.id);
    store_game_free_fields(&row);
    game_created joined;
    CHECK_EQ_INT(registry_rematch(f.gm, g, WHITE, &created, &joined), GAME_OK);
    CHECK(!created);
    CHECK_EQ_STR(joined.id, r.id);
    CHECK(joined.token[BLACK][0]);
    CHECK_EQ_INT(registry_rematch(f.gm, g, WHITE, &created, &joined), GAME_SEAT_TAKEN);
    game_release(g);

    /* The store refuses a second rematch of the same game as a whole: the
     * new row is not left behind. */
    store_game other = test_game("orphanrow01", "online");
    CHECK_EQ_INT(store_create_rematch(f.st, c.id, &other), STORE_CONFLICT);
    CHECK_EQ_INT(store_load_game(f.st, "orphanrow01", &row, NULL, NULL), STORE_NOT_FOUND);
    CHECK_EQ_INT(store_create_rematch(f.st, "nosuchgame1", &other), STORE_NOT_FOUND);
    CHECK_EQ_INT(store_load_game(f.st, "orphanrow01", &row, NULL, NULL), STORE_NOT_FOUND);
    games_fixture_close(&f);
}

TEST(games_clock_check_ends_a_game_out_of_time) {
    games_fixture f;
    CHECK(fixture_open(&f));
    if (!f.gm) return;
    game_new req = hotseat();
    req.tc.kind = TC_ABSOLUTE;
    req.tc.main_s = 60;
    game_created c;
    CHECK_EQ_INT(registry_create(f.gm, &req, &c), GAME_OK);
    game *g;
    CHECK_EQ_INT(registry_get(f.gm, c.id, &g), GAME_OK);
    int64_t due = game_deadline(g);
    CHECK(due > registry_now_ms(f.gm) && due <= registry_now_ms(f.gm) + 60 * 1000);
    game_change look;
    game_change_now(g, &look); /* the record's deadline is the game's */
    CHECK(look.deadline_ms == due);
    CHECK_EQ_INT(game_check_clock(g), 0);
    CHECK(registry_advance_clock(f.gm, 61 * 1000));
    CHECK_EQ_INT(game_check_clock(g), 1);
    CHECK(game_is_over(g));
    CHECK(game_deadline(g) == INT64_MAX);
    action a = attempt(BLACK, "E5", 9);
    CHECK_EQ_INT(game_act(g, BLACK, 2, &a, NULL), GAME_GAME_OVER);
    game_release(g);
    games_fixture_close(&f);
}

TEST(games_one_mapping_of_store_statuses) {
    CHECK_EQ_INT(game_status_of_store(STORE_OK), GAME_OK);
    CHECK_EQ_INT(game_status_of_store(STORE_NOT_FOUND), GAME_NOT_FOUND);
    CHECK_EQ_INT(game_status_of_store(STORE_CONFLICT), GAME_SEAT_TAKEN);
    CHECK_EQ_INT(game_status_of_store(STORE_UNAVAILABLE), GAME_UNAVAILABLE);
    CHECK_EQ_INT(game_status_of_store(STORE_ERROR), GAME_ERROR);
    CHECK_EQ_INT(game_status_of_store(12345), GAME_ERROR);
}

TEST(store_ping_answers) {
    char dir[256];
    CHECK(test_tmpdir(dir, sizeof dir) == 0);
    store *st = test_store_open(dir, "ping.db");
    CHECK(st != NULL);
    CHECK_EQ_INT(store_ping(st), STORE_OK);
    CHECK_EQ_INT(store_ping(NULL), STORE_ERROR);
    store_close(st);
    test_rmtree(dir);
}

/* The clock a game keeps current as events arrive equals the one folded
 * from the whole log, after every kind of event, after a failed turn's
 * illegal tries, and after the game is replayed from the store. */
static bool kept_clock_is_folded(game *g) {
    game_clock kept, folded;
    pthread_mutex_lock(&g->lock);
    game_clock_now(g, &kept);
    game_clock_fold(g, g->ref, referee_event_count(g->ref), &folded);
    pthread_mutex_unlock(&g->lock);
    return !memcmp(&kept, &folded, sizeof kept);
}

TEST(games_clock_kept_current_equals_the_fold) {
    games_fixture f;
    CHECK(fixture_open(&f));
    if (!f.gm) return;
    game_new req = hotseat();
    req.tc.kind = TC_BYOYOMI;
    req.tc.main_s = 30;
    req.tc.periods = 3;
    req.tc.period_s = 10;
    game_created c;
    CHECK_EQ_INT(registry_create(f.gm, &req, &c), GAME_OK);
    game *g;
    CHECK_EQ_INT(registry_get(f.gm, c.id, &g), GAME_OK);
    CHECK(kept_clock_is_folded(g));
    /* seq 3 is Black's illegal try on White's hidden stone: Black keeps the turn. */
    static const struct { int color; const char *vertex; } turns[] = {
        { BLACK, "E5" }, { WHITE, "C3" }, { BLACK, "C3" }, { BLACK, "G7" }, { WHITE, "pass" }, { BLACK, "D4" },
    };
    for (int i = 0; i < 6; i++) {
        CHECK(registry_advance_clock(f.gm, 7000 + 1000 * i));
        action a = strcmp(turns[i].vertex, "pass") ? attempt(turns[i].color, turns[i].vertex, 9)
                                                   : (action){ .kind = ACT_PASS, .color = turns[i].color };
        CHECK_EQ_INT(game_act(g, turns[i].color, i + 1, &a, NULL), GAME_OK);
        CHECK(kept_clock_is_folded(g));
    }
    game_release(g);
    fixture_reopen(&f);
    CHECK_EQ_INT(registry_get(f.gm, c.id, &g), GAME_OK);
    CHECK(kept_clock_is_folded(g));
    CHECK(game_deadline(g) != INT64_MAX);
    game_release(g);
    games_fixture_close(&f);
}
