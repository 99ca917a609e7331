/* Unit tests of the computer's queue (server/computer.c) with many games
 * at once: the budget-sharing rule itself, then the queue over a real
 * registry and SQLite store, driven by a scripted player instead of the
 * bot so that the order of turns and the share each got are exact. The
 * scripted player holds its first decision until the test has queued every
 * game, so the queue is known when each turn starts (no timing involved). */
#include "harness.h"
#include "test_games_util.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "engine/vertex.h"
#include "games/computer.h"
#include "games/registry.h"

TEST(computer_share_whole_budget_while_a_worker_is_free) {
    for (int workers = 1; workers <= 8; workers++)
        for (int waiting = 0; waiting <= workers; waiting++)
            CHECK_EQ_INT(computer_think_percent(workers, waiting), 100);
    CHECK_EQ_INT(computer_think_percent(0, 1), 100); /* no worker counts as one */
}

TEST(computer_share_divides_the_budget_with_a_floor) {
    CHECK_EQ_INT(computer_think_percent(2, 3), 67);
    CHECK_EQ_INT(computer_think_percent(2, 10), 20);
    CHECK_EQ_INT(computer_think_percent(1, 6), 17);
    CHECK_EQ_INT(computer_think_percent(2, 20), 10);
    CHECK_EQ_INT(computer_think_percent(2, 50), COMPUTER_THINK_FLOOR_PERCENT);
    CHECK_EQ_INT(computer_think_percent(1, 100000), COMPUTER_THINK_FLOOR_PERCENT);
}

/* Above the floor, the whole queue drains in at most one budget plus two
 * shares (rounding): ceil(waiting / workers) turns per worker, each at the
 * share. And a longer queue never gets a larger share. */
TEST(computer_share_drains_the_queue_in_about_one_budget) {
    for (int workers = 1; workers <= 8; workers++) {
        int before = 100;
        for (int waiting = 1; waiting <= 40 * workers; waiting++) {
            int p = computer_think_percent(workers, waiting);
            CHECK(p >= COMPUTER_THINK_FLOOR_PERCENT && p <= before);
            int rounds = (waiting + workers - 1) / workers;
            if (p > COMPUTER_THINK_FLOOR_PERCENT) CHECK(rounds * p <= 100 + 2 * p);
            before = p;
        }
    }
}

/* ---- the queue, with a scripted player ------------------------------------ */

enum { GAMES_AT_ONCE = 6, MAX_CALLS = 64 };

typedef struct script {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool open;                /* the first decision waits until this is true */
    int calls;                /* decisions asked for */
    char game[MAX_CALLS][24]; /* the game of each decision */
    int percent[MAX_CALLS];   /* the share each got */
} script;

/* Attempts the first of E5 (where the test's human plays first, so it is
 * illegal then), A1, B1, ... that is neither its stone nor tried this turn. */
static bool scripted_choose(void *ctx, const bot_request *rq, action *out) {
    script *s = ctx;
    pthread_mutex_lock(&s->lock);
    while (!s->open) pthread_cond_wait(&s->cond, &s->lock);
    if (s->calls < MAX_CALLS) {
        snprintf(s->game[s->calls], sizeof s->game[0], "%s", rq->game_id);
        s->percent[s->calls] = atomic_load(rq->share);
    }
    s->calls++;
    pthread_mutex_unlock(&s->lock);
    static const char *const order[] = { "E5", "A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "J1" };
    for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
        point p;
        if (!vertex_parse(order[i], rq->vw->settings.size, &p) || rq->vw->stone[p] == rq->color ||
            (rq->vw->mark[p] & VIEW_TRIED))
            continue;
        *out = (action){ .kind = ACT_ATTEMPT, .color = rq->color, .point = p };
        return true;
    }
    *out = (action){ .kind = ACT_PASS, .color = rq->color, .point = PASS_POINT };
    return true;
}

static void open_script(script *s) {
    pthread_mutex_lock(&s->lock);
    s->open = true;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
}

/* Waits (10 s at most: a safety, not a speed check) until the computer is
 * to move in none of the games. */
static bool all_answered(game **g, int n) {
    for (int tries = 0; tries < 10000; tries++) {
        bool due = false;
        for (int i = 0; i < n && !due; i++) {
            game_change c;
            game_change_now(g[i], &c);
            due = c.computer_due;
        }
        if (!due) return true;
        nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
    }
    return false;
}

static bool human_moves(game *g, const char *vertex) {
    int seq = 0;
    free(game_view_copy(g, VIEWER_BLACK, &seq));
    action a = { .kind = ACT_ATTEMPT, .color = BLACK, .point = NO_POINT };
    vertex_parse(vertex, 9, &a.point);
    game_status st = game_act(g, BLACK, seq + 1, &a, NULL);
    return st == GAME_OK;
}

/* The "computer" object of the human's view: its think_percent and busy. */
static void pace_of(game *g, int *percent, bool *busy) {
    char *text = game_view_copy(g, VIEWER_BLACK, NULL);
    cJSON *v = text ? cJSON_Parse(text) : NULL;
    free(text);
    const cJSON *pace = cJSON_GetObjectItemCaseSensitive(v, "computer");
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(pace, "think_percent");
    *percent = cJSON_IsNumber(p) ? p->valueint : -1;
    *busy = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pace, "busy"));
    cJSON_Delete(v);
}

/* One worker, six games whose humans move while it holds the first: each
 * turn gets workers / waiting of the budget, the one already thinking
 * too, first come first served, and a turn with an illegal attempt stays
 * with the worker (its decisions are consecutive), so no game waits for
 * another's turn twice. The views say which turns were shared; a turn on
 * an idle server is not. */
TEST(computer_queue_is_fair_and_shares_the_budget) {
    games_fixture f;
    CHECK(games_fixture_open(&f));
    if (!f.gm) return;
    script s = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };
    games_bot bot = { scripted_choose, &s, 1, true };
    computer *cq = computer_start(f.gm, &bot);
    CHECK(cq != NULL);
    game *g[GAMES_AT_ONCE] = { 0 };
    for (int i = 0; cq && i < GAMES_AT_ONCE; i++) {
        game_new req = { .mode = MODE_COMPUTER,
                         .settings = settings_default(),
                         .tc = time_control_none(),
                         .creator_color = BLACK,
                         .level = "easy" };
        game_created c;
        CHECK_EQ_INT(registry_create(f.gm, &req, &c), GAME_OK);
        CHECK_EQ_INT(registry_get(f.gm, c.id, &g[i]), GAME_OK);
        CHECK(g[i] && human_moves(g[i], "E5"));
    }
    open_script(&s);
    CHECK(cq && all_answered(g, GAMES_AT_ONCE));

    /* Each game: an illegal attempt at E5, then a move at A1, back to back. */
    CHECK_EQ_INT(s.calls, 2 * GAMES_AT_ONCE);
    /* The first turn began alone (100 %) and was cut as five queued behind
     * it (to 1/6); then 5, 4, .. turns waited when each began. */
    static const int share[GAMES_AT_ONCE] = { 17, 20, 25, 34, 50, 100 };
    for (int i = 0; i < GAMES_AT_ONCE && s.calls == 2 * GAMES_AT_ONCE; i++) {
        CHECK_EQ_STR(s.game[2 * i], game_id(g[i]));
        CHECK_EQ_STR(s.game[2 * i + 1], game_id(g[i]));
        CHECK_EQ_INT(s.percent[2 * i], share[i]);
        CHECK_EQ_INT(s.percent[2 * i + 1], share[i]);
        int percent;
        bool busy;
        pace_of(g[i], &percent, &busy);
        CHECK_EQ_INT(percent, share[i]);
        CHECK(busy == (share[i] < 100));
    }

    /* Idle again: the next turn of a game that was shared gets it all. */
    CHECK(human_moves(g[1], "D4"));
    CHECK(all_answered(g, GAMES_AT_ONCE));
    CHECK_EQ_INT(s.percent[s.calls - 1], 100);
    int percent;
    bool busy;
    pace_of(g[1], &percent, &busy);
    CHECK_EQ_INT(percent, 100);
    CHECK(!busy);

    computer_stop(cq);
    for (int i = 0; i < GAMES_AT_ONCE; i++)
        if (g[i]) game_release(g[i]);
    games_fixture_close(&f);
}

/* The switch the benchmark compares with: sharing off, every turn whole. */
TEST(computer_queue_without_sharing_gives_every_turn_its_budget) {
    games_fixture f;
    CHECK(games_fixture_open(&f));
    if (!f.gm) return;
    script s = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };
    games_bot bot = { scripted_choose, &s, 1, false };
    computer *cq = computer_start(f.gm, &bot);
    CHECK(cq != NULL);
    game *g[3] = { 0 };
    for (int i = 0; cq && i < 3; i++) {
        game_new req = { .mode = MODE_COMPUTER,
                         .settings = settings_default(),
                         .tc = time_control_none(),
                         .creator_color = BLACK,
                         .level = "strong" };
        game_created c;
        CHECK_EQ_INT(registry_create(f.gm, &req, &c), GAME_OK);
        CHECK_EQ_INT(registry_get(f.gm, c.id, &g[i]), GAME_OK);
        CHECK(g[i] && human_moves(g[i], "E5"));
    }
    open_script(&s);
    CHECK(cq && all_answered(g, 3));
    CHECK_EQ_INT(s.calls, 6);
    for (int i = 0; i < s.calls && i < MAX_CALLS; i++) CHECK_EQ_INT(s.percent[i], 100);
    computer_stop(cq);
    for (int i = 0; i < 3; i++)
        if (g[i]) game_release(g[i]);
    games_fixture_close(&f);
}
