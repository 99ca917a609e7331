/* Helpers shared by the store's unit tests: a real temporary directory per
 * test (removed afterwards), a store opened in it with the repository's
 * schema.sql, and ready-made rows. The tests run from the repository root,
 * as tests/run-all.sh and `make test-unit` do. */
#ifndef PG_TEST_STORE_UTIL_H
#define PG_TEST_STORE_UTIL_H

#include "store/store.h"

#include <stdbool.h>
#include <stddef.h>

#define TEST_SCHEMA_PATH "schema.sql"

/* mkdtemp under $TMPDIR or /tmp; the path is written into dir (cap >= 64).
 * Returns 0 on success. */
int test_tmpdir(char *dir, size_t cap);
/* Removes dir and everything under it. */
void test_rmtree(const char *dir);

/* PHANTOMGO_TEST_PG (a PostgreSQL connection string without dbname, set
 * by tests/pg/with-postgres.mjs), or NULL when the tests run on SQLite. */
const char *test_pg_base(void);
/* Runs sql in database dbname of that server; 0 on success. */
int test_pg_exec(const char *dbname, const char *sql);

/* Opens <dir>/<name> with schema.sql; NULL (and the message on stderr) on
 * failure. With PHANTOMGO_TEST_PG set, opens instead a PostgreSQL database
 * of its own for <dir>/<name> (created on first use), so the same tests
 * run on both backends. */
store *test_store_open(const char *dir, const char *name);

/* A store opened on a fresh temporary directory ("games.db" in it), for
 * one test: store_fixture_open is false (f->st NULL) when either fails;
 * store_fixture_close closes the store and removes the directory. */
typedef struct store_fixture {
    char dir[256];
    store *st;
} store_fixture;
bool store_fixture_open(store_fixture *f);
void store_fixture_close(store_fixture *f);

/* A game row with the given id, a 9x9 settings object and every other field
 * zero/empty; settings_json and options_json point at string literals. */
store_game test_game(const char *id, const char *mode);

/* An action of the given kind; vertex "" for non-attempts. */
store_action test_action(int seq, const char *kind, int color, const char *vertex);

#endif
