/* The SQLite backend's helpers, shared by its files and calling none of
 * them: result codes, binding an array of values, preparing statements,
 * and lending the pooled reader connections. */
#include "store/store_sqlite_db.h"

int store_code_of(int sqlite_rc) {
    switch (sqlite_rc & 0xff) {
    case SQLITE_OK:
    case SQLITE_ROW:
    case SQLITE_DONE: return STORE_OK;
    case SQLITE_FULL:
    case SQLITE_READONLY:
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_PERM: return STORE_UNAVAILABLE;
    default: return STORE_ERROR;
    }
}

int sqlite_constraint_code(int extended_rc) {
    switch (extended_rc) {
    case SQLITE_CONSTRAINT_PRIMARYKEY:
    case SQLITE_CONSTRAINT_UNIQUE: return STORE_CONFLICT;
    case SQLITE_CONSTRAINT_FOREIGNKEY: return STORE_NOT_FOUND;
    case SQLITE_CONSTRAINT_CHECK:
    case SQLITE_CONSTRAINT_NOTNULL: return STORE_ERROR;
    default: return store_code_of(extended_rc);
    }
}

int sqlite_bind_values(sqlite3_stmt *s, const store_value *values, int count) {
    int rc = SQLITE_OK;
    for (int i = 0; rc == SQLITE_OK && i < count; i++) {
        const store_value *v = &values[i];
        switch (v->kind) {
        case SV_NULL: rc = sqlite3_bind_null(s, i + 1); break;
        case SV_INT:
        case SV_BOOL: rc = sqlite3_bind_int64(s, i + 1, v->i); break;
        case SV_TEXT: rc = sqlite3_bind_text(s, i + 1, v->p, -1, SQLITE_STATIC); break;
        case SV_BLOB: rc = sqlite3_bind_blob(s, i + 1, v->p, (int)v->len, SQLITE_STATIC); break;
        }
    }
    return rc;
}

void sqlite_stmt_done(sqlite3_stmt *s) {
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
}

int sqlite_prepare_all(sqlite3 *db, const char *const *sql, int count, sqlite3_stmt **out) {
    for (int i = 0; i < count; i++) {
        int rc = sqlite3_prepare_v3(db, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &out[i], NULL);
        if (rc != SQLITE_OK) {
            sqlite_finalize_all(out, i);
            return rc;
        }
    }
    return SQLITE_OK;
}

void sqlite_finalize_all(sqlite3_stmt **stmts, int count) {
    for (int i = 0; i < count; i++) {
        sqlite3_finalize(stmts[i]);
        stmts[i] = NULL;
    }
}

sqlite_reader *sqlite_reader_acquire(sqlite_db *db) {
    pthread_mutex_lock(&db->reader_lock);
    while (db->free_count == 0) pthread_cond_wait(&db->reader_free, &db->reader_lock);
    sqlite_reader *r = &db->readers[db->free_readers[--db->free_count]];
    pthread_mutex_unlock(&db->reader_lock);
    return r;
}

void sqlite_reader_release(sqlite_db *db, sqlite_reader *r) {
    pthread_mutex_lock(&db->reader_lock);
    db->free_readers[db->free_count++] = (int)(r - db->readers);
    pthread_cond_signal(&db->reader_free);
    pthread_mutex_unlock(&db->reader_lock);
}
