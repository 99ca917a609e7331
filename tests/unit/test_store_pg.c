/* What only the PostgreSQL backend has: clear refusals (an unreachable
 * server, a wrong password, a database of a newer schema or of another
 * program), the URI form of the connection string, and two stores (two
 * servers) on one database, where the primary key on (game, seq) lets
 * exactly one of them append each action and the other hears
 * STORE_CONFLICT.
 *
 * They need a running server: tests/pg/with-postgres.mjs starts one and sets
 * PHANTOMGO_TEST_PG. Without it (the plain SQLite unit run) they return at
 * once; the unit-pg suite of tests/run-all.sh runs them for real. */
#include "harness.h"
#include "test_store_util.h"

#include <pthread.h>
#include <stdlib.h>

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
