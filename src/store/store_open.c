/* Opening and closing the store: the backend chooser. Like SQLite's VFS
 * list, the backends are asked in order whether the location is theirs
 * (PostgreSQL takes connection strings, SQLite any other path); the one
 * that is opens it, and the handle keeps its table of functions (st->be)
 * and its state (st->db) for every later call. This is the only place that
 * names a backend; nothing after it asks which one runs.
 *
 * Then the group-commit writer starts (store_write.c); closing stops it
 * first, so every queued write is committed before the backend closes. */
#include "store/store_admin.h"
#include "store/store_backend.h"
#include "store/store_schema.h"

#include <stdlib.h>
#include <string.h>

/* In the order they are asked: SQLite accepts whatever PostgreSQL did not. */
static const store_backend *const backends[] = { &store_pg_backend, &store_sqlite_backend };

static const store_backend *backend_for(const char *location) {
    for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++)
        if (backends[i]->accepts(location)) return backends[i];
    return NULL;
}

bool store_is_server(const char *db_location) {
    return db_location && backend_for(db_location) == &store_pg_backend;
}

static store *store_new(const store_backend *be) {
    store *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    st->be = be;
    pthread_mutex_init(&st->queue_lock, NULL);
    pthread_cond_init(&st->queue_nonempty, NULL);
    pthread_mutex_init(&st->admin_lock, NULL);
    return st;
}

int store_open(store **out, const char *db_path, const char *schema_path, char *err, size_t errlen) {
    *out = NULL;
    if (err && errlen) err[0] = '\0';
    if (!db_path || !*db_path || !schema_path)
        return store_fail(err, errlen, STORE_ERROR, "store_open", "missing database or schema path");
    const store_backend *be = backend_for(db_path);
    if (!be) return store_fail(err, errlen, STORE_ERROR, db_path, "no backend takes this location");
    store *st = store_new(be);
    if (!st) return store_fail(err, errlen, STORE_ERROR, "store_open", "out of memory");
    int code = be->open(&st->db, db_path, schema_path, err, errlen);
    if (code == STORE_OK && store_writer_start(st) != 0)
        code = store_fail(err, errlen, STORE_ERROR, "store_open", "cannot start the writer thread");
    if (code != STORE_OK) {
        store_close(st);
        return code;
    }
    *out = st;
    return STORE_OK;
}

void store_watch(store *st, const store_news *news) {
    if (st && st->be->watch) st->be->watch(st->db, news);
}

void store_close(store *st) {
    if (!st) return;
    store_writer_stop(st);
    store_admin_close(st);
    if (st->db) st->be->close(st->db);
    pthread_mutex_destroy(&st->admin_lock);
    pthread_cond_destroy(&st->queue_nonempty);
    pthread_mutex_destroy(&st->queue_lock);
    free(st);
}
