/* The store's one interface to a database, with two implementations: SQLite
 * (store_sqlite*.c) and PostgreSQL (store_pg*.c). Like SQLite's VFS, a
 * backend is a table of functions; store_open (store_open.c) asks each
 * backend in turn whether the location is its own, opens that one and keeps
 * its table and its state in the handle. Every public store_* function
 * checks its arguments, then calls through st->be with st->db; nothing else
 * in the module knows which database runs.
 *
 * Writes travel as requests through the group-commit queue (store_write.c)
 * and reach the backend as a batch (commit). A request names a statement
 * (enum store_stmt; each backend has its own SQL text for each) and carries
 * the statement's parameters as an array of typed values, built once by
 * the public function that queues it: the values of a row are described in
 * one place and both backends bind from them (value i is parameter i + 1:
 * ?N on SQLite, $N on PostgreSQL).
 *
 * Layering (checked by scripts/file-circles.py): the public files (store_read,
 * store_write, store_chat, store_idempotency, store_push, store_admin,
 * store_open) include this header; the backends include it and store.h; this
 * header includes only store.h, so it names the other public headers' types
 * by their struct tags alone. */
#ifndef PG_STORE_BACKEND_H
#define PG_STORE_BACKEND_H

#include "store/store.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store_chat_message; /* store_chat.h */
struct store_idem_record;  /* store_idempotency.h */
struct store_push_message; /* store_push.h */

/* The backend's own state (its connections, statements, pools), defined by
 * each backend for itself (store_sqlite_db.h, store_pg.h) and opaque to the
 * rest of the module. */
typedef struct store_db store_db;

/* Read connections of either backend: enough that the server's handler
 * threads rarely queue for one (reads take microseconds), few enough to
 * keep memory small. */
#define STORE_READERS 4

/* ---- values: one description of what a statement binds ---- */

typedef enum { SV_NULL, SV_INT, SV_BOOL, SV_TEXT, SV_BLOB } store_value_kind;

/* One parameter or one column. Text and blobs point into the caller's
 * memory, which outlives the statement. */
typedef struct {
    store_value_kind kind;
    int64_t i;     /* SV_INT, SV_BOOL (0 or 1) */
    const void *p; /* SV_TEXT (NUL-terminated), SV_BLOB */
    size_t len;    /* SV_BLOB */
} store_value;

static inline store_value sv_null(void) { return (store_value){ .kind = SV_NULL }; }
static inline store_value sv_int(int64_t i) { return (store_value){ .kind = SV_INT, .i = i }; }
static inline store_value sv_bool(bool b) { return (store_value){ .kind = SV_BOOL, .i = b ? 1 : 0 }; }
/* NULL text is SQL NULL. */
static inline store_value sv_text(const char *s) {
    return s ? (store_value){ .kind = SV_TEXT, .p = s } : sv_null();
}
static inline store_value sv_blob(const void *p, size_t len) {
    return (store_value){ .kind = SV_BLOB, .p = p, .len = len };
}

/* The most parameters of one write (the game row's 13). */
#define STORE_MAX_PARAMS 13

/* ---- writes ---- */

/* Every write statement of the store, in both backends' SQL tables
 * (store_sqlite_write.c, store_pg_write.c). Parameter 1 is the game (or
 * the Idempotency-Key record, or NULL where the comment says so). */
enum store_stmt {
    ST_INSERT_GAME,      /* the game row (store_rows.h) */
    ST_APPEND,           /* 1 the game, then the action row (store_rows.h) */
    ST_CLAIM,            /* 2 colour, 3 token hash, 4 started at */
    ST_REMATCH,          /* 2 the rematch's id */
    ST_PUT_NOTES,        /* 2 colour, 3 ghosts JSON, 4 now */
    ST_PUT_NAME,         /* store_chat.c: 2 colour, 3 name, 4 now */
    ST_CLEAR_NAME,       /* 2 colour */
    ST_APPEND_CHAT,      /* 2 room, 3 n, 4 author, 5 name, 6 text, 7 at */
    ST_CANCEL,           /* 2 at */
    ST_IDEM_RESERVE,     /* store_idempotency.c: 2 owner, 3 at, 4 stale before, 5 expired before, 6 seed */
    ST_IDEM_FINISH,      /* 2 owner, 3 answer */
    ST_IDEM_RELEASE,     /* 2 owner */
    ST_IDEM_PURGE,       /* 2 expired before (1 names no record) */
    ST_PUSH_KEY,         /* store_push.c: 1 NULL, 2 private, 3 public, 4 now */
    ST_PUSH_SUBSCRIBE,   /* 2 colour, 3 endpoint, 4 p256dh, 5 auth, 6 lang, 7 now, 8 cap per seat */
    ST_PUSH_UNSUBSCRIBE, /* 2 colour, 3 endpoint (NULL: all of the seat's) */
    ST_PUSH_ENQUEUE,     /* 2 colour, 3 rank, 4 kind, 5 payload, 6 urgency, 7 state, 8 at */
    ST_PUSH_CLAIM,       /* 2 row id, 3 lease end, 4 now */
    ST_PUSH_FINISH,      /* 2 row id, 3 state */
    ST_PUSH_RETRY,       /* 2 row id, 3 next attempt */
    ST_COUNT
};

/* One statement of a request. must_change: a statement that changes no row
 * was refused; the backend then asks whether game values[0] exists and
 * answers STORE_CONFLICT or STORE_NOT_FOUND (store_write.c says which
 * statements, for both backends). */
typedef struct {
    enum store_stmt stmt;
    const store_value *values;
    int count;
    bool must_change;
} store_step;

/* One queued write: it lives on the caller's stack until done is set. Two
 * steps (a rematch: the new game and the old game's link to it) commit both
 * or neither, under a savepoint inside the batch's transaction. */
typedef struct write_req write_req;
struct write_req {
    store_step steps[2];
    int nsteps;
    int result; /* STORE_*, set by the backend's commit */
    bool done;
    pthread_cond_t cond;
    write_req *next;
};

/* ---- reads ---- */

/* store_list_games' kinds, in both backends' SQL tables. */
enum store_list { SL_ALL, SL_COMPUTER_TO_RESUME, SL_CLOCK_TO_RESUME, SL_PUBLIC_TO_LIST, SL_COUNT };

/* The operator's statements (store_admin.c): one SQL text for both, with
 * ?N parameters (PostgreSQL's backend turns them into $N), or a second
 * text where PostgreSQL's differs. Each row comes as an array of columns,
 * SV_INT or SV_TEXT or SV_NULL as the backend found them. */
typedef struct {
    const char *sql;
    const char *sql_pg; /* NULL: sql */
} store_sql;
typedef int (*store_row_fn)(const store_value *cols, int ncols, void *ctx);

/* STORE_NAME_BYTES of store_chat.h (asserted equal there). */
#define STORE_BACKEND_NAME_BYTES 129

/* ---- the table ---- */

/* Arguments are checked by the public functions before any of these runs;
 * outputs are zeroed by them too. Every function returns STORE_*. */
typedef struct store_backend {
    const char *name;
    /* True when location is this backend's (a file, a connection string). */
    bool (*accepts)(const char *location);
    /* Opens location, creating or upgrading the schema (schema_path is
     * schema.sql; PostgreSQL's schema_pg.sql sits beside it). */
    int (*open)(store_db **out, const char *location, const char *schema_path, char *err, size_t errlen);
    void (*close)(store_db *db);
    /* What other servers store (NULL: no news here); news NULL stops it. */
    void (*watch)(store_db *db, const store_news *news);

    /* The writer thread's: one transaction for the batch, each request's
     * result set. */
    void (*commit)(store_db *db, write_req *batch);

    int (*load_game)(store_db *db, const char *game_id, store_game *row, store_action **actions, int *count);
    int (*ping)(store_db *db);
    int (*get_notes)(store_db *db, const char *game_id, int color, char **ghosts_json);
    /* *ids: malloc'd, the caller frees. */
    int (*list_ids)(store_db *db, enum store_list which, char (**ids)[24], int *count);
    int (*get_names)(store_db *db, const char *game_id, char names[2][STORE_BACKEND_NAME_BYTES]);
    int (*chat_count)(store_db *db, const char *game_id, int room, int *n);
    /* At most limit (>= 1) messages into list (limit elements). */
    int (*read_chat)(store_db *db, const char *game_id, int room, int after_n, int limit,
                     struct store_chat_message *list, int *count);
    int (*idem_get)(store_db *db, const char *id, struct store_idem_record *out);
    int (*push_key_get)(store_db *db, uint8_t priv[32], uint8_t pub[65]);
    int (*push_count)(store_db *db, const char *game_id, int color, int *n);
    int (*push_game_ids)(store_db *db, char (**ids)[24], int *count);
    int (*push_due)(store_db *db, int64_t now_ms, int limit, struct store_push_message *list, int *count);
    int (*push_next_due)(store_db *db, int64_t *at_ms);

    /* The operator's connection (serialized by the caller's admin_lock):
     * admin_begin opens it if need be (*fresh: just opened) and begins a
     * transaction that takes the write lock at once when `writes`;
     * admin_end commits (code STORE_OK) or rolls back and answers the
     * final code, *lost when the connection died (dropped: the next begin
     * reconnects). */
    int (*admin_begin)(store_db *db, bool writes, bool *fresh);
    int (*admin_run)(store_db *db, const store_sql *sql, const store_value *params, int nparams,
                     store_row_fn fn, void *ctx, int *changes);
    int (*admin_end)(store_db *db, int code, bool *lost);
    void (*admin_close)(store_db *db);
} store_backend;

extern const store_backend store_sqlite_backend; /* store_sqlite.c */
extern const store_backend store_pg_backend;     /* store_pg_backend.c */

/* The handle: the backend, its state, and what the public files share. */
struct store {
    const store_backend *be;
    store_db *db;

    /* The group-commit queue (store_write.c). */
    pthread_t writer;
    bool writer_running;
    pthread_mutex_t queue_lock;
    pthread_cond_t queue_nonempty;
    write_req *queue_head, *queue_tail;
    bool stopping;

    /* Serializes the operator's connection (store_admin.c). */
    pthread_mutex_t admin_lock;
};

/* store_write.c: the writer thread, and a write of another public file
 * (store_chat.c, store_idempotency.c, store_push.c) through it: statement
 * `stmt` with values (values[0] the game, or NULL). Blocks until committed,
 * like every write. */
int store_writer_start(store *st);
void store_writer_stop(store *st);
int store_submit(store *st, enum store_stmt stmt, const store_value *values, int count);

#endif
