/* Idempotency records in the store (see store_idempotency.h), on both
 * backends, built like store_chat.c: the SQLite statements are this file's
 * own, prepared by store.c on the writer's and every reader's connection;
 * the PostgreSQL ones sit beside the backend's others (store_pg_write.c,
 * store_pg_read.c). Writes go through the group-commit writer
 * (store_submit_write, with ?1 the record's id), reads through the reader
 * pools. */
#include "store/store_idempotency.h"

#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"
#include "store/store_pg.h"

const char *const store_idem_write_sql[CW_PUSH_FIRST] = {
    /* ?2 owner, ?3 at_ms, ?4 stale_before, ?5 expired_before, ?6 seed.
     * Taking over a pending record keeps its seed; an expired one's is
     * replaced. */
    [CW_IDEM_RESERVE] =
        "INSERT INTO idempotency (id, owner, created_at_ms, answer, seed)"
        " VALUES (?1, ?2, ?3, NULL, ?6)"
        " ON CONFLICT (id) DO UPDATE"
        " SET owner = excluded.owner, created_at_ms = excluded.created_at_ms, answer = NULL,"
        " seed = CASE WHEN idempotency.answer IS NULL THEN idempotency.seed ELSE excluded.seed END"
        " WHERE (idempotency.answer IS NULL AND idempotency.created_at_ms < ?4)"
        " OR idempotency.created_at_ms < ?5",
    /* ?2 owner, ?3 the answer. */
    [CW_IDEM_FINISH] = "UPDATE idempotency SET answer = ?3 WHERE id = ?1 AND owner = ?2 AND answer IS NULL",
    /* ?2 owner. */
    [CW_IDEM_RELEASE] = "DELETE FROM idempotency WHERE id = ?1 AND owner = ?2 AND answer IS NULL",
    /* ?2 expired_before (?1 is unused). */
    [CW_IDEM_PURGE] = "DELETE FROM idempotency WHERE id IN"
                      " (SELECT id FROM idempotency WHERE created_at_ms < ?2 LIMIT 200)",
};
_Static_assert(STORE_IDEM_PURGE_MAX == 200, "the LIMIT of CW_IDEM_PURGE and its PostgreSQL twin");

const char *const store_idem_read_sql[CR_PUSH_FIRST] = {
    [CR_IDEM_GET] = "SELECT created_at_ms, answer, seed FROM idempotency WHERE id = ?1",
};

static bool id_ok(const char *id) { return id && strnlen(id, STORE_IDEM_ID_LEN + 1) == STORE_IDEM_ID_LEN; }

/* ---- writes ---- */

static int bind_reserve(sqlite3_stmt *s, const void *arg) {
    const store_idem_args *a = arg;
    int rc = sqlite3_bind_int64(s, 2, a->owner) | sqlite3_bind_int64(s, 3, a->at_ms) |
             sqlite3_bind_int64(s, 4, a->stale_before) | sqlite3_bind_int64(s, 5, a->expired_before);
    return rc | (a->seed ? sqlite3_bind_blob(s, 6, a->seed, (int)a->seed_len, SQLITE_STATIC)
                         : sqlite3_bind_null(s, 6));
}

int store_idem_reserve(store *st, const char *id, int64_t owner, int64_t at_ms, int64_t stale_before,
                       int64_t expired_before, const void *seed, size_t seed_len) {
    if (!id_ok(id) || (seed && (seed_len == 0 || seed_len > STORE_IDEM_SEED_MAX))) return STORE_ERROR;
    store_idem_args a = { .owner = owner,
                          .at_ms = at_ms,
                          .stale_before = stale_before,
                          .expired_before = expired_before,
                          .seed = seed,
                          .seed_len = seed_len };
    int rc = store_submit_write(st, CW_IDEM_RESERVE, id, bind_reserve, &a, true);
    /* Unchanged: the writer asks whether a game of that id exists, and
     * none does (ids differ in length), so a held key says NOT_FOUND. */
    return rc == STORE_NOT_FOUND ? STORE_CONFLICT : rc;
}

static int bind_finish(sqlite3_stmt *s, const void *arg) {
    const store_idem_args *a = arg;
    return sqlite3_bind_int64(s, 2, a->owner) |
           sqlite3_bind_blob(s, 3, a->answer, (int)a->answer_len, SQLITE_STATIC);
}

int store_idem_finish(store *st, const char *id, int64_t owner, const void *answer, size_t answer_len) {
    if (!id_ok(id) || !answer || answer_len == 0 || answer_len > STORE_IDEM_ANSWER_MAX) return STORE_ERROR;
    store_idem_args a = { .owner = owner, .answer = answer, .answer_len = answer_len };
    int rc = store_submit_write(st, CW_IDEM_FINISH, id, bind_finish, &a, true);
    return rc == STORE_NOT_FOUND ? STORE_CONFLICT : rc;
}

static int bind_owner(sqlite3_stmt *s, const void *arg) {
    return sqlite3_bind_int64(s, 2, ((const store_idem_args *)arg)->owner);
}

int store_idem_release(store *st, const char *id, int64_t owner) {
    if (!id_ok(id)) return STORE_ERROR;
    store_idem_args a = { .owner = owner };
    return store_submit_write(st, CW_IDEM_RELEASE, id, bind_owner, &a, false);
}

static int bind_purge(sqlite3_stmt *s, const void *arg) {
    return sqlite3_bind_int64(s, 2, ((const store_idem_args *)arg)->expired_before);
}

int store_idem_purge(store *st, int64_t expired_before) {
    store_idem_args a = { .expired_before = expired_before };
    /* The writer binds ?1 to an id; the purge names none. */
    return store_submit_write(st, CW_IDEM_PURGE, "purge", bind_purge, &a, false);
}

/* ---- reads ---- */

/* A BLOB column into *out (malloc'd; NULL for NULL); false when out of memory. */
static bool copy_blob(sqlite3_stmt *s, int col, uint8_t **out, size_t *len) {
    const void *blob = sqlite3_column_blob(s, col);
    int n = sqlite3_column_bytes(s, col);
    if (!blob || n <= 0) return true;
    if (!(*out = malloc((size_t)n))) return false;
    memcpy(*out, blob, (size_t)n);
    *len = (size_t)n;
    return true;
}

int store_idem_get(store *st, const char *id, store_idem_record *out) {
    if (!st || !id_ok(id) || !out) return STORE_ERROR;
    memset(out, 0, sizeof *out);
    if (st->pg) return pg_store_idem_get(st->pg, id, out);
    store_reader *r = store_reader_acquire(st);
    sqlite3_stmt *s = r->chat[CR_IDEM_GET];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s), code = STORE_OK;
    if (rc == SQLITE_ROW) {
        out->created_at_ms = sqlite3_column_int64(s, 0);
        if (!copy_blob(s, 1, &out->answer, &out->answer_len) || !copy_blob(s, 2, &out->seed, &out->seed_len))
            code = STORE_ERROR;
    } else {
        code = rc == SQLITE_DONE ? STORE_NOT_FOUND : store_code_of(rc);
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    store_reader_release(st, r);
    return code;
}

void store_idem_record_free(store_idem_record *rec) {
    free(rec->answer);
    free(rec->seed);
    rec->answer = rec->seed = NULL;
    rec->answer_len = rec->seed_len = 0;
}
