/* What only the PostgreSQL backend has: clear refusals (an unreachable
 * server, a wrong password, a database of a newer schema or of another
 * program), the URI form of the connection string, the upgrade of a
 * version-1 database (before table talk), and two stores (two servers) on
 * one database, where the primary key on (game, seq) lets exactly one of
 * them append each action and the other hears STORE_CONFLICT, and where
 * each hears the other's news (store_watch) of every kind.
 *
 * They need a running server: tests/pg/with-postgres.mjs starts one and sets
 * PHANTOMGO_TEST_PG. Without it (the plain SQLite unit run) they return at
 * once; the unit-pg suite of tests/run-all.sh runs them for real. */
#include "harness.h"
#include "test_store_util.h"

#include "store/store_chat.h"
#include "store/store_admin.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#define TEST_PASSWORD "phantom-test" /* tests/pg/postgres.mjs sets it */

/* The server's TCP port, read from PHANTOMGO_TEST_PG's port=N. */
static int test_port(void) {
    const char *p = strstr(test_pg_base(), "port=");
    return p ? atoi(p + 5) : 0;
}

static int open_code(const char *conninfo, char *err, size_t errlen) {
    store *st = NULL;
    int code = store_open(&st, conninfo, TEST_SCHEMA_PATH, err, errlen);
    store_close(st);
    return code;
}

/* A fresh database; its connection string in out. */
static void fresh_database(const char *name, char *out, size_t cap) {
    char sql[96];
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s", name);
    test_pg_exec("postgres", sql);
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);
    test_pg_exec("postgres", sql);
    snprintf(out, cap, "%s dbname=%s", test_pg_base(), name);
}

TEST(store_pg_refuses_an_unreachable_server) {
    if (!test_pg_base()) return;
    char err[512];
    /* Port 1 on loopback: nothing listens, the connection is refused. */
    int code = open_code("host=127.0.0.1 port=1 dbname=phantomgo connect_timeout=2", err, sizeof err);
    CHECK_EQ_INT(code, STORE_UNAVAILABLE);
    CHECK(strstr(err, "cannot connect to PostgreSQL") != NULL);
    CHECK(strchr(err, '\n') == NULL);
}

TEST(store_pg_refuses_a_wrong_password) {
    if (!test_pg_base()) return;
    char conninfo[256], err[512];
    snprintf(conninfo, sizeof conninfo,
             "host=127.0.0.1 port=%d user=postgres password=not-the-password dbname=postgres", test_port());
    CHECK_EQ_INT(open_code(conninfo, err, sizeof err), STORE_ERROR);
    CHECK(strstr(err, "password authentication failed") != NULL);
    CHECK(strstr(err, "not-the-password") == NULL);
}

TEST(store_pg_opens_a_uri_and_reopens_idempotently) {
    if (!test_pg_base()) return;
    char base[256], uri[256], err[512];
    fresh_database("unit_uri", base, sizeof base);
    snprintf(uri, sizeof uri, "postgresql://postgres:%s@127.0.0.1:%d/unit_uri", TEST_PASSWORD, test_port());
    CHECK_EQ_INT(open_code(uri, err, sizeof err), STORE_OK);
    CHECK_EQ_INT(open_code(uri, err, sizeof err), STORE_OK);
    CHECK_EQ_INT(open_code(base, err, sizeof err), STORE_OK);
}

TEST(store_pg_refuses_a_newer_schema) {
    if (!test_pg_base()) return;
    char conninfo[256], err[512];
    fresh_database("unit_newer", conninfo, sizeof conninfo);
    CHECK_EQ_INT(open_code(conninfo, err, sizeof err), STORE_OK);
    CHECK(test_pg_exec("unit_newer", "UPDATE phantomgo_schema SET version = 99") == 0);
    CHECK_EQ_INT(open_code(conninfo, err, sizeof err), STORE_ERROR);
    CHECK(strstr(err, "schema version 99 is newer than this binary's") != NULL);
}

TEST(store_pg_refuses_a_foreign_database) {
    if (!test_pg_base()) return;
    char conninfo[256], err[512];
    fresh_database("unit_foreign", conninfo, sizeof conninfo);
    CHECK(test_pg_exec("unit_foreign", "CREATE TABLE games (x integer)") == 0);
    CHECK_EQ_INT(open_code(conninfo, err, sizeof err), STORE_ERROR);
    CHECK(strstr(err, "not a Phantom Go database") != NULL);
}

TEST(store_pg_two_servers_append_each_seq_once) {
    if (!test_pg_base()) return;
    char conninfo[256], err[512];
    fresh_database("unit_two", conninfo, sizeof conninfo);
    store *a = NULL, *b = NULL;
    CHECK_EQ_INT(store_open(&a, conninfo, TEST_SCHEMA_PATH, err, sizeof err), STORE_OK);
    CHECK_EQ_INT(store_open(&b, conninfo, TEST_SCHEMA_PATH, err, sizeof err), STORE_OK);
    if (!a || !b) {
        store_close(a);
        store_close(b);
        return;
    }
    store_game g = test_game("twoservers1", "hotseat");
    CHECK_EQ_INT(store_insert_game(a, &g), STORE_OK);
    CHECK_EQ_INT(store_insert_game(b, &g), STORE_CONFLICT);
    store_action first = test_action(1, "attempt", 1, "D4");
    store_action other = test_action(1, "attempt", 1, "E5");
    CHECK_EQ_INT(store_append_action(a, g.id, &first), STORE_OK);
    CHECK_EQ_INT(store_append_action(b, g.id, &other), STORE_CONFLICT);
    store_action second = test_action(2, "pass", 2, "");
    CHECK_EQ_INT(store_append_action(b, g.id, &second), STORE_OK);
    CHECK_EQ_INT(store_append_action(a, g.id, &second), STORE_CONFLICT);
    store_game row;
    store_action *log = NULL;
    int n = 0;
    CHECK_EQ_INT(store_load_game(a, g.id, &row, &log, &n), STORE_OK);
    CHECK_EQ_INT(n, 2);
    if (n == 2) {
        CHECK_EQ_STR(log[0].vertex, "D4");
        CHECK_EQ_STR(log[1].kind, "pass");
    }
    free(log);
    store_game_free_fields(&row);
    store_close(a);
    store_close(b);
}

/* Many threads on two stores race for the same seqs of one game: every
 * seq is won exactly once, whichever store wins it. */
enum { RACERS = 8, RACE_SEQS = 40 };

struct racer {
    store *st;
    int wins;
};

static void *race(void *arg) {
    struct racer *r = arg;
    for (int seq = 1; seq <= RACE_SEQS; seq++) {
        store_action act = test_action(seq, "pass", 1 + seq % 2, "");
        if (store_append_action(r->st, "racedgame01", &act) == STORE_OK) r->wins++;
    }
    return NULL;
}

TEST(store_pg_racing_servers_never_apply_a_seq_twice) {
    if (!test_pg_base()) return;
    char conninfo[256], err[512];
    fresh_database("unit_race", conninfo, sizeof conninfo);
    store *st[2] = { NULL, NULL };
    for (int i = 0; i < 2; i++)
        CHECK_EQ_INT(store_open(&st[i], conninfo, TEST_SCHEMA_PATH, err, sizeof err), STORE_OK);
    if (!st[0] || !st[1]) {
        store_close(st[0]);
        store_close(st[1]);
        return;
    }
    store_game g = test_game("racedgame01", "hotseat");
    CHECK_EQ_INT(store_insert_game(st[0], &g), STORE_OK);
    struct racer racers[RACERS];
    pthread_t threads[RACERS];
    for (int i = 0; i < RACERS; i++) {
        racers[i] = (struct racer){ st[i % 2], 0 };
        pthread_create(&threads[i], NULL, race, &racers[i]);
    }
    int wins = 0;
    for (int i = 0; i < RACERS; i++) {
        pthread_join(threads[i], NULL);
        wins += racers[i].wins;
    }
    CHECK_EQ_INT(wins, RACE_SEQS);
    store_game row;
    store_action *log = NULL;
    int n = 0;
    CHECK_EQ_INT(store_load_game(st[1], g.id, &row, &log, &n), STORE_OK);
    CHECK_EQ_INT(n, RACE_SEQS);
    for (int i = 0; i < n; i++) CHECK_EQ_INT(log[i].seq, i + 1);
    free(log);
    store_game_free_fields(&row);
    store_close(st[0]);
    store_close(st[1]);
}

/* The rematch's new game and the old game's link: both or neither, also
 * when other writes share the batch; and the health check's ping. */
TEST(store_pg_create_rematch_is_all_or_nothing_and_ping_answers) {
    if (!test_pg_base()) return;
    char conninfo[256], err[512];
    fresh_database("unit_rematch", conninfo, sizeof conninfo);
    store *st = NULL;
    CHECK_EQ_INT(store_open(&st, conninfo, TEST_SCHEMA_PATH, err, sizeof err), STORE_OK);
    if (!st) return;
    CHECK_EQ_INT(store_ping(st), STORE_OK);
    store_game old = test_game("rematchold1", "online");
    store_game next = test_game("rematchnew1", "online");
    store_game other = test_game("rematchnew2", "online");
    CHECK_EQ_INT(store_insert_game(st, &old), STORE_OK);
    CHECK_EQ_INT(store_create_rematch(st, "nosuchgame1", &next), STORE_NOT_FOUND);
    store_game row;
    CHECK_EQ_INT(store_load_game(st, next.id, &row, NULL, NULL), STORE_NOT_FOUND);
    CHECK_EQ_INT(store_create_rematch(st, old.id, &next), STORE_OK);
    CHECK_EQ_INT(store_load_game(st, old.id, &row, NULL, NULL), STORE_OK);
    CHECK_EQ_STR(row.rematch_id, next.id);
    store_game_free_fields(&row);
    CHECK_EQ_INT(store_load_game(st, next.id, &row, NULL, NULL), STORE_OK);
    store_game_free_fields(&row);
    /* A second, different rematch is refused and leaves no game behind. */
    CHECK_EQ_INT(store_create_rematch(st, old.id, &other), STORE_CONFLICT);
    CHECK_EQ_INT(store_load_game(st, other.id, &row, NULL, NULL), STORE_NOT_FOUND);
    store_close(st);
}

/* Schema version 1 as it was (before table talk): the latest without what
 * the upgrade steps after it add, so the test climbs them all. */
static const char *const DOWN_TO_VERSION_1 =
    "DROP TABLE push_outbox; DROP TABLE push_subscriptions; DROP TABLE push_key;"
    "DROP TABLE reports; DROP TABLE sanctions; DROP TABLE admin_log;"
    "DROP TRIGGER games_created_notify ON games; DROP TRIGGER games_changed_notify ON games;"
    "DROP TABLE chat; DROP TABLE seat_names; DROP FUNCTION phantomgo_notify_game();"
    "ALTER TABLE games DROP COLUMN cancelled_at_ms; DROP TABLE idempotency;"
    "UPDATE phantomgo_schema SET version = 1";

TEST(store_pg_upgrades_a_version_1_database_keeping_its_games) {
    if (!test_pg_base()) return;
    char conninfo[256], err[512];
    fresh_database("unit_upgrade", conninfo, sizeof conninfo);
    store *st = NULL;
    CHECK_EQ_INT(store_open(&st, conninfo, TEST_SCHEMA_PATH, err, sizeof err), STORE_OK);
    if (!st) return;
    store_game g = test_game("upgraded001", "online");
    store_action a = test_action(1, "attempt", 1, "E5");
    CHECK_EQ_INT(store_insert_game(st, &g), STORE_OK);
    CHECK_EQ_INT(store_append_action(st, g.id, &a), STORE_OK);
    store_close(st);
    CHECK(test_pg_exec("unit_upgrade", DOWN_TO_VERSION_1) == 0);

    st = NULL;
    CHECK_EQ_INT(store_open(&st, conninfo, TEST_SCHEMA_PATH, err, sizeof err), STORE_OK);
    if (!st) return;
    store_game row;
    store_action *acts = NULL;
    int n = 0;
    CHECK_EQ_INT(store_load_game(st, g.id, &row, &acts, &n), STORE_OK);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT((int)row.cancelled_at_ms, 0);
    store_game_free_fields(&row);
    free(acts);
    CHECK_EQ_INT(store_put_name(st, g.id, 1, "Алиса"), STORE_OK);
    store_chat_message m = { .room = STORE_ROOM_PLAYERS, .n = 1, .author = 1, .at_ms = 1 };
    snprintf(m.text, sizeof m.text, "%s", "안녕하세요");
    CHECK_EQ_INT(store_append_chat(st, g.id, &m), STORE_OK);
    char names[2][STORE_NAME_BYTES];
    CHECK_EQ_INT(store_get_names(st, g.id, names), STORE_OK);
    CHECK_EQ_STR(names[0], "Алиса");
    store_close(st);
    /* The upgraded database is what a new one is: a second open finds
     * the latest version and changes nothing. */
    CHECK_EQ_INT(open_code(conninfo, err, sizeof err), STORE_OK);
}

/* What one store heard through store_watch. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    char log[2048];
} heard;

static void hear(heard *h, const char *line) {
    pthread_mutex_lock(&h->lock);
    size_t len = strlen(h->log);
    snprintf(h->log + len, sizeof h->log - len, "%s;", line);
    pthread_cond_broadcast(&h->cond);
    pthread_mutex_unlock(&h->lock);
}

static void heard_action(void *ctx, const char *id, int seq) {
    char line[64];
    snprintf(line, sizeof line, "action %s %d", id, seq);
    hear(ctx, line);
}

static void heard_row(void *ctx, const char *id) {
    char line[64];
    snprintf(line, sizeof line, "row %s", id);
    hear(ctx, line);
}

static void heard_names(void *ctx, const char *id) {
    char line[64];
    snprintf(line, sizeof line, "names %s", id);
    hear(ctx, line);
}

static void heard_chat(void *ctx, const char *id, int room, int n) {
    char line[64];
    snprintf(line, sizeof line, "chat %s %d %d", id, room, n);
    hear(ctx, line);
}

static void heard_unchat(void *ctx, const char *id, int room, int n) {
    char line[64];
    snprintf(line, sizeof line, "unchat %s %d %d", id, room, n);
    hear(ctx, line);
}

static void heard_created(void *ctx, const char *id) {
    char line[64];
    snprintf(line, sizeof line, "created %s", id);
    hear(ctx, line);
}

static void heard_lost(void *ctx) { hear(ctx, "lost"); }

/* Waits up to 5 s for `line;` to be heard. */
static bool wait_heard(heard *h, const char *line) {
    char want[80];
    snprintf(want, sizeof want, "%s;", line);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 5;
    pthread_mutex_lock(&h->lock);
    bool found;
    while (!(found = strstr(h->log, want) != NULL))
        if (pthread_cond_timedwait(&h->cond, &h->lock, &until) != 0) break;
    found = strstr(h->log, want) != NULL;
    pthread_mutex_unlock(&h->lock);
    if (!found) fprintf(stderr, "    not heard: %s (heard: %s)\n", line, h->log);
    return found;
}

TEST(store_pg_a_server_hears_every_kind_of_news_of_another) {
    if (!test_pg_base()) return;
    char conninfo[256], err[512];
    fresh_database("unit_news", conninfo, sizeof conninfo);
    store *a = NULL, *b = NULL;
    CHECK_EQ_INT(store_open(&a, conninfo, TEST_SCHEMA_PATH, err, sizeof err), STORE_OK);
    CHECK_EQ_INT(store_open(&b, conninfo, TEST_SCHEMA_PATH, err, sizeof err), STORE_OK);
    if (!a || !b) {
        store_close(a);
        store_close(b);
        return;
    }
    heard h = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, "" };
    store_news news = { .action = heard_action,
                        .row = heard_row,
                        .names = heard_names,
                        .chat = heard_chat,
                        .unchat = heard_unchat,
                        .created = heard_created,
                        .lost = heard_lost,
                        .ctx = &h };
    store_watch(b, &news);
    /* The listener connects on its own thread: a first action proves it
     * listens before the news that matter. */
    store_game quiet = test_game("quietgame01", "online");
    CHECK_EQ_INT(store_insert_game(a, &quiet), STORE_OK);
    for (int seq = 1; seq <= 50 && !strstr(h.log, "action"); seq++) {
        store_action first = test_action(seq, "pass", seq % 2 ? 1 : 2, "");
        CHECK_EQ_INT(store_append_action(a, quiet.id, &first), STORE_OK);
        struct timespec pause = { 0, 100 * 1000 * 1000 };
        nanosleep(&pause, NULL);
    }

    store_game pub = test_game("publicnews1", "online");
    pub.is_public = 1;
    pub.invite_hash[0] = 7;
    pub.invite_color = 2;
    CHECK_EQ_INT(store_insert_game(a, &pub), STORE_OK);
    CHECK(wait_heard(&h, "created publicnews1"));
    CHECK(strstr(h.log, "created quietgame01") == NULL); /* a private game is nobody's news */
    CHECK_EQ_INT(store_put_name(a, pub.id, 1, "Ann"), STORE_OK);
    CHECK(wait_heard(&h, "names publicnews1"));
    store_chat_message m = { .room = STORE_ROOM_SPECTATORS, .n = 1, .author = 0, .at_ms = 1 };
    snprintf(m.text, sizeof m.text, "%s", "a guess about a hidden stone");
    CHECK_EQ_INT(store_append_chat(a, pub.id, &m), STORE_OK);
    CHECK(wait_heard(&h, "chat publicnews1 2 1"));
    CHECK(strstr(h.log, "hidden stone") == NULL); /* news never carries what was said */
    CHECK_EQ_INT(store_remove_chat(a, pub.id, STORE_ROOM_SPECTATORS, 1, 2), STORE_OK);
    CHECK(wait_heard(&h, "unchat publicnews1 2 1"));
    uint8_t token[32] = { 9 };
    CHECK_EQ_INT(store_claim_seat(a, pub.id, 2, token, 1700000000000), STORE_OK);
    CHECK(wait_heard(&h, "row publicnews1"));
    store_action move = test_action(1, "attempt", 1, "C3");
    CHECK_EQ_INT(store_append_action(a, pub.id, &move), STORE_OK);
    CHECK(wait_heard(&h, "action publicnews1 1"));
    CHECK(strstr(h.log, "lost") == NULL);

    /* The listening connection cut (as by a database restart): once it
     * listens again, the receiver hears that news may have been lost,
     * and then hears news again. */
    CHECK(test_pg_exec("unit_news", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                                    " WHERE datname = 'unit_news' AND query LIKE 'LISTEN%'") == 0);
    CHECK(wait_heard(&h, "lost"));
    CHECK_EQ_INT(store_put_name(a, pub.id, 2, "Bo"), STORE_OK);
    CHECK(wait_heard(&h, "lost;names publicnews1"));

    store_watch(b, NULL);
    store_close(a);
    store_close(b);
}
