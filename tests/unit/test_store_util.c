/* See test_store_util.h. */
#include "test_store_util.h"

#include <ftw.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int test_tmpdir(char *dir, size_t cap) {
    const char *base = getenv("TMPDIR");
    snprintf(dir, cap, "%s/pgstore-XXXXXX", base && *base ? base : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void test_rmtree(const char *dir) { nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

const char *test_pg_base(void) {
    const char *base = getenv("PHANTOMGO_TEST_PG");
    return base && *base ? base : NULL;
}

int test_pg_exec(const char *dbname, const char *sql) {
    char conninfo[1024];
    snprintf(conninfo, sizeof conninfo, "%s dbname=%s", test_pg_base(), dbname);
    PGconn *conn = PQconnectdb(conninfo);
    int ok = PQstatus(conn) == CONNECTION_OK;
    if (ok) {
        PGresult *res = PQexec(conn, sql);
        ok = PQresultStatus(res) == PGRES_COMMAND_OK || PQresultStatus(res) == PGRES_TUPLES_OK;
        if (!ok) fprintf(stderr, "    %s: %s", sql, PQresultErrorMessage(res));
        PQclear(res);
    } else {
        fprintf(stderr, "    %s", PQerrorMessage(conn));
    }
    PQfinish(conn);
    return ok ? 0 : -1;
}

/* A database per (dir, name), so every test starts empty and a reopen of
 * the same name finds its rows, as with files. */
static void pg_location(const char *dir, const char *name, char *out, size_t cap) {
    char key[512];
    snprintf(key, sizeof key, "%s/%s", dir, name);
    unsigned long h = 5381;
    for (const char *p = key; *p; p++) h = h * 33 + (unsigned char)*p;
    char db[32], sql[64];
    snprintf(db, sizeof db, "unit_%lx", h & 0xffffffffffUL);
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", db);
    /* Creating an existing database is an error: create it only once. */
    static char made[64][32];
    static int made_count;
    int known = 0;
    for (int i = 0; i < made_count; i++) known |= !strcmp(made[i], db);
    if (!known) {
        test_pg_exec("postgres", sql);
        if (made_count < 64) snprintf(made[made_count++], sizeof made[0], "%s", db);
    }
    snprintf(out, cap, "%s dbname=%s", test_pg_base(), db);
}

store *test_store_open(const char *dir, const char *name) {
    char path[1024], err[256];
    if (test_pg_base()) pg_location(dir, name, path, sizeof path);
    else snprintf(path, sizeof path, "%s/%s", dir, name);
    store *st = NULL;
    int code = store_open(&st, path, TEST_SCHEMA_PATH, err, sizeof err);
    if (code != STORE_OK) fprintf(stderr, "    store_open(%s): %s (%s)\n", path, store_strerror(code), err);
    return st;
}

store_game test_game(const char *id, const char *mode) {
    store_game g;
    memset(&g, 0, sizeof g);
    snprintf(g.id, sizeof g.id, "%s", id);
    snprintf(g.mode, sizeof g.mode, "%s", mode);
    g.created_at_ms = 1700000000000;
    g.settings_json = (char *)"{\"size\":9,\"komi\":7.5}";
    g.options_json = (char *)"{}";
    return g;
}

store_action test_action(int seq, const char *kind, int color, const char *vertex) {
    store_action a;
    memset(&a, 0, sizeof a);
    a.seq = seq;
    snprintf(a.kind, sizeof a.kind, "%s", kind);
    a.color = color;
    snprintf(a.vertex, sizeof a.vertex, "%s", vertex);
    a.at_ms = 1700000000000 + seq;
    return a;
}

bool store_fixture_open(store_fixture *f) {
    f->st = NULL;
    if (test_tmpdir(f->dir, sizeof f->dir) != 0) return false;
    f->st = test_store_open(f->dir, "games.db");
    if (!f->st) test_rmtree(f->dir);
    return f->st != NULL;
}

void store_fixture_close(store_fixture *f) {
    store_close(f->st);
    f->st = NULL;
    test_rmtree(f->dir);
}
