/* The SQLite backend's state and what its files share (store_sqlite.c
 * opens and closes, store_sqlite_read.c reads, store_sqlite_write.c
 * commits the writer's batches, store_sqlite_admin.c runs the operator's
 * statements; store_sqlite_db.c holds the helpers below). Nothing outside
 * the backend sees this header: the rest of the module knows the backend
 * only by its table, store_sqlite_backend (store_backend.h). */
#ifndef PG_STORE_SQLITE_DB_H
#define PG_STORE_SQLITE_DB_H

#include "store/store_backend.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdbool.h>

/* The writer's own statements, after the ST_* ones (store_backend.h) in
 * one array: transactions, savepoints, and the existence test of a game. */
enum sqlite_write_stmt {
    SW_BEGIN = ST_COUNT,
    SW_COMMIT,
    SW_ROLLBACK,
    SW_GAME_EXISTS,
    SW_SAVEPOINT,
    SW_RELEASE,
    SW_ROLLBACK_TO,
    SW_COUNT
};

/* Each reader connection's statements. */
enum sqlite_read_stmt {
    SR_BEGIN,
    SR_COMMIT,
    SR_GAME,
    SR_ACTIONS,
    SR_NOTES,
    SR_LIST_ALL, /* the four of enum store_list, in its order */
    SR_LIST_RESUME,
    SR_LIST_CLOCKS,
    SR_LIST_PUBLIC,
    SR_PING,
    SR_NAMES,
    SR_CHAT_COUNT,
    SR_CHAT_READ,
    SR_IDEM_GET,
    SR_PUSH_KEY,
    SR_PUSH_COUNT,
    SR_PUSH_DUE,
    SR_PUSH_NEXT,
    SR_PUSH_GAMES,
    SR_COUNT
};

typedef struct {
    sqlite3 *db;
    sqlite3_stmt *stmt[SR_COUNT];
} sqlite_reader;

typedef struct store_db sqlite_db;
struct store_db {
    char *path;
    /* The writer's connection: the writer thread's once it runs. */
    sqlite3 *wdb;
    sqlite3_stmt *wstmt[SW_COUNT];
    /* Readers: a free list guarded by reader_lock. */
    sqlite_reader readers[STORE_READERS];
    int free_readers[STORE_READERS];
    int free_count;
    pthread_mutex_t reader_lock;
    pthread_cond_t reader_free;
    /* The operator's read-write connection, opened on first use. */
    sqlite3 *admin;
};

extern const char *const sqlite_write_sql[SW_COUNT]; /* store_sqlite_write.c */
extern const char *const sqlite_read_sql[SR_COUNT];  /* store_sqlite_read.c */

/* SQLite result code -> STORE_*: disk full, read-only, I/O errors, cannot
 * open, busy and locked are STORE_UNAVAILABLE (the caller answers 503 and
 * may retry); constraint codes are not handled here. */
int store_code_of(int sqlite_rc);
/* The STORE_* code of a failed statement, constraints included: a
 * duplicate is STORE_CONFLICT, a missing game STORE_NOT_FOUND, a CHECK or
 * NOT NULL the caller's bad value (STORE_ERROR). */
int sqlite_constraint_code(int extended_rc);

/* Binds values to parameters 1..count; SQLite's code. */
int sqlite_bind_values(sqlite3_stmt *s, const store_value *values, int count);
/* Resets a statement and clears its bindings. */
void sqlite_stmt_done(sqlite3_stmt *s);

/* Prepares every statement of `sql` into `out`; on failure finalizes what
 * it prepared and returns the SQLite code. */
int sqlite_prepare_all(sqlite3 *db, const char *const *sql, int count, sqlite3_stmt **out);
void sqlite_finalize_all(sqlite3_stmt **stmts, int count);

/* Lends a reader connection (waiting for a free one). */
sqlite_reader *sqlite_reader_acquire(sqlite_db *db);
void sqlite_reader_release(sqlite_db *db, sqlite_reader *r);

/* The backend's entries, by file. store_sqlite_write.c: */
void sqlite_commit(sqlite_db *db, write_req *batch);
/* store_sqlite_read.c: */
int sqlite_load_game(sqlite_db *db, const char *game_id, store_game *row, store_action **actions, int *count);
int sqlite_ping(sqlite_db *db);
int sqlite_get_notes(sqlite_db *db, const char *game_id, int color, char **ghosts_json);
int sqlite_list_ids(sqlite_db *db, enum store_list which, char (**ids)[24], int *count);
int sqlite_get_names(sqlite_db *db, const char *game_id, char names[2][STORE_BACKEND_NAME_BYTES]);
int sqlite_chat_count(sqlite_db *db, const char *game_id, int room, int *n);
int sqlite_read_chat(sqlite_db *db, const char *game_id, int room, int after_n, int limit,
                     struct store_chat_message *list, int *count);
int sqlite_idem_get(sqlite_db *db, const char *id, struct store_idem_record *out);
int sqlite_push_key_get(sqlite_db *db, uint8_t priv[32], uint8_t pub[65]);
int sqlite_push_count(sqlite_db *db, const char *game_id, int color, int *n);
int sqlite_push_game_ids(sqlite_db *db, char (**ids)[24], int *count);
int sqlite_push_due(sqlite_db *db, int64_t now_ms, int limit, struct store_push_message *list, int *count);
int sqlite_push_next_due(sqlite_db *db, int64_t *at_ms);
/* store_sqlite_admin.c: */
int sqlite_admin_begin(sqlite_db *db, bool writes, bool *fresh);
int sqlite_admin_run(sqlite_db *db, const store_sql *sql, const store_value *params, int nparams,
                     store_row_fn fn, void *ctx, int *changes);
int sqlite_admin_end(sqlite_db *db, int code, bool *lost);
void sqlite_admin_close(sqlite_db *db);

#endif
