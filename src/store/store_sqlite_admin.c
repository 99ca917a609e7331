/* The SQLite backend's side of the operator's work (store_admin.c): a
 * read-write connection of its own, opened on first use, and one statement
 * at a time inside the transaction store_admin.c opens and ends. The
 * caller's admin_lock serializes every use. */
#include "store/store_sqlite_db.h"

#include <stdio.h>

#define ADMIN_BUSY_TIMEOUT_MS 10000

static int open_admin(sqlite_db *db) {
    int rc = sqlite3_open_v2(db->path, &db->admin, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_busy_timeout(db->admin, ADMIN_BUSY_TIMEOUT_MS);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db->admin, "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        fprintf(stderr, "store: the operator's connection: %s\n",
                db->admin ? sqlite3_errmsg(db->admin) : "no memory");
        sqlite3_close(db->admin);
        db->admin = NULL;
    }
    return rc == SQLITE_OK ? STORE_OK : store_code_of(rc);
}

static int exec_admin(sqlite_db *db, const char *sql) {
    int rc = sqlite3_exec(db->admin, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? STORE_OK : store_code_of(rc);
}

/* A transaction that writes takes the write lock at once (BEGIN IMMEDIATE,
 * so it never fails half-way on a stale snapshot); one that only reads
 * takes none, so it never waits for, nor delays, the group commit. */
int sqlite_admin_begin(sqlite_db *db, bool writes, bool *fresh) {
    *fresh = !db->admin;
    int code = db->admin ? STORE_OK : open_admin(db);
    return code == STORE_OK ? exec_admin(db, writes ? "BEGIN IMMEDIATE" : "BEGIN") : code;
}

/* One column as the backend holds it: integers as SV_INT, the rest text. */
static store_value column_value(sqlite3_stmt *s, int c) {
    switch (sqlite3_column_type(s, c)) {
    case SQLITE_NULL: return sv_null();
    case SQLITE_INTEGER: return sv_int(sqlite3_column_int64(s, c));
    default: return sv_text((const char *)sqlite3_column_text(s, c));
    }
}

enum { ADMIN_MAX_COLUMNS = 16 };

int sqlite_admin_run(sqlite_db *db, const store_sql *sql, const store_value *params, int nparams,
                     store_row_fn fn, void *ctx, int *changes) {
    sqlite3_stmt *s = NULL;
    int rc = sqlite3_prepare_v2(db->admin, sql->sql, -1, &s, NULL);
    if (rc == SQLITE_OK) rc = sqlite_bind_values(s, params, nparams);
    int ncols = s ? sqlite3_column_count(s) : 0;
    if (rc != SQLITE_OK || ncols > ADMIN_MAX_COLUMNS) {
        sqlite3_finalize(s);
        return STORE_ERROR;
    }
    int code = STORE_OK;
    store_value cols[ADMIN_MAX_COLUMNS];
    while (code == STORE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        for (int c = 0; c < ncols; c++) cols[c] = column_value(s, c);
        code = fn ? fn(cols, ncols, ctx) : STORE_OK;
    }
    if (code == STORE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
        code = sqlite_constraint_code(sqlite3_extended_errcode(db->admin));
    if (code == STORE_OK && changes) *changes = sqlite3_changes(db->admin);
    sqlite3_finalize(s);
    return code;
}

int sqlite_admin_end(sqlite_db *db, int code, bool *lost) {
    *lost = false; /* a file connection is not lost between statements */
    if (!db->admin) return code;
    if (code == STORE_OK) code = exec_admin(db, "COMMIT");
    if (code != STORE_OK && !sqlite3_get_autocommit(db->admin)) exec_admin(db, "ROLLBACK");
    return code;
}

void sqlite_admin_close(sqlite_db *db) {
    sqlite3_close(db->admin);
    db->admin = NULL;
}
