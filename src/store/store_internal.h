/* What the files of the store module share and nothing outside it sees: the
 * layout of the handle, the two connection kinds (the writer's and the
 * pooled readers'), the queued write request and the mapping of SQLite's
 * result codes to STORE_*.
 *
 * store.c opens and closes, store_write.c is the group-commit writer,
 * store_read.c the reads, store_chat.c names, chat and cancellation (its
 * SQLite statements are its own, its PostgreSQL ones the backend's; it
 * writes through store_submit_write). The public
 * functions check their arguments and then run on SQLite, or hand the call
 * to the PostgreSQL backend (store_pg.h) when the handle was opened on a
 * database server: the write queue and its thread are the same for both,
 * only the committing of a batch differs. */
#ifndef PG_STORE_INTERNAL_H
#define PG_STORE_INTERNAL_H

#include "store/store.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdbool.h>

/* The writer's prepared statements, indexed by enum write_stmt. */
enum write_stmt {
    WS_BEGIN,
    WS_COMMIT,
    WS_ROLLBACK,
    WS_INSERT_GAME,
    WS_APPEND,
    WS_CLAIM,
    WS_REMATCH,
    WS_PUT_NOTES,
    WS_GAME_EXISTS,
    WS_SAVEPOINT,
    WS_RELEASE,
    WS_ROLLBACK_TO,
    WS_COUNT
};

/* Each reader connection's prepared statements, indexed by enum read_stmt. */
enum read_stmt {
    RS_BEGIN,
    RS_COMMIT,
    RS_GAME,
    RS_ACTIONS,
    RS_NOTES,
    RS_LIST_ALL,
    RS_LIST_RESUME,
    RS_LIST_CLOCKS,
    RS_LIST_PUBLIC,
    RS_PING,
    RS_COUNT
};

/* The statements of the module's other files, on the writer's connection
 * and on each reader's, indexed by these: store_chat.c's first, then
 * store_idempotency.c's from CW_IDEM_FIRST and CR_IDEM_FIRST, then
 * store_push.c's from CW_PUSH_FIRST and CR_PUSH_FIRST. */
enum chat_write_stmt {
    CW_PUT_NAME,
    CW_CLEAR_NAME,
    CW_APPEND,
    CW_CANCEL,
    CW_IDEM_RESERVE, /* the first of store_idempotency.c's */
    CW_IDEM_FINISH,
    CW_IDEM_RELEASE,
    CW_IDEM_PURGE,
    CW_PUSH_KEY, /* the first of store_push.c's */
    CW_PUSH_SUBSCRIBE,
    CW_PUSH_UNSUBSCRIBE,
    CW_PUSH_ENQUEUE,
    CW_PUSH_CLAIM,
    CW_PUSH_FINISH,
    CW_PUSH_RETRY,
    CW_COUNT
};
enum chat_read_stmt {
    CR_NAMES,
    CR_COUNT_ROOM,
    CR_READ_ROOM,
    CR_IDEM_GET, /* the first of store_idempotency.c's */
    CR_PUSH_KEY, /* the first of store_push.c's */
    CR_PUSH_COUNT,
    CR_PUSH_DUE,
    CR_PUSH_NEXT,
    CR_PUSH_GAMES,
    CR_COUNT
};
#define CW_IDEM_FIRST CW_IDEM_RESERVE
#define CR_IDEM_FIRST CR_IDEM_GET
#define CW_PUSH_FIRST CW_PUSH_KEY
#define CR_PUSH_FIRST CR_PUSH_KEY

/* Read connections: enough that the server's handler threads rarely queue
 * for one (reads take microseconds), few enough to keep memory small. */
#define STORE_READERS 4

typedef struct pg_store pg_store;

/* The argument of a talk write (write_req.u.other.arg), by its statement:
 * CW_PUT_NAME and CW_CLEAR_NAME a store_name_args, CW_APPEND a
 * store_chat_message (store_chat.h), CW_CANCEL an int64_t (the moment).
 * SQLite binds it with the request's bind function; the PostgreSQL backend
 * reads it by this rule. */
typedef struct {
    int color;
    const char *name; /* NULL to remove */
    int64_t at_ms;
} store_name_args;

/* The argument of every CW_IDEM_* write (store_idempotency.c); ?1 is the
 * record's id. Each statement uses the fields its comment there names. */
typedef struct {
    int64_t owner;          /* the reserving request's random number */
    int64_t at_ms;          /* now */
    int64_t stale_before;   /* a pending record older than this is abandoned */
    int64_t expired_before; /* any record older than this is forgotten */
    const void *answer;     /* the sealed answer (CW_IDEM_FINISH) */
    size_t answer_len;
    const void *seed;       /* the sealed seed (CW_IDEM_RESERVE; NULL: none) */
    size_t seed_len;
} store_idem_args;
/* The arguments of store_push.c's writes, by statement: CW_PUSH_KEY a
 * store_push_key_args, CW_PUSH_SUBSCRIBE a store_push_subscribe_args,
 * CW_PUSH_UNSUBSCRIBE a store_push_unsubscribe_args, CW_PUSH_ENQUEUE a
 * store_push_notice (store_push.h), CW_PUSH_CLAIM/FINISH/RETRY a
 * store_push_row_args (id, then a: the lease end, the state, the next
 * attempt; b: the claim's now). */
typedef struct {
    const uint8_t *priv, *pub; /* 32 and 65 bytes */
    int64_t at_ms;
} store_push_key_args;
typedef struct {
    const void *sub; /* a store_push_sub */
    int64_t at_ms;
    int per_seat;
} store_push_subscribe_args;
typedef struct {
    int color;
    const char *endpoint; /* NULL: all of the seat's */
} store_push_unsubscribe_args;
typedef struct {
    int64_t id, a, b;
} store_push_row_args;

/* Binds a store_submit_write statement's parameters after ?1 (SQLite's code). */
typedef int (*store_bind_fn)(sqlite3_stmt *s, const void *arg);

/* One queued write: it lives on the caller's stack until done is set. */
/* W_OTHER: a statement of another file of the module (store_submit_write). */
enum write_kind { W_INSERT_GAME, W_APPEND, W_CLAIM, W_REMATCH, W_PUT_NOTES, W_CREATE_REMATCH, W_OTHER };

typedef struct write_req write_req;
struct write_req {
    enum write_kind kind;
    const char *game_id;
    union {
        const store_game *game; /* also the new row of W_CREATE_REMATCH */
        const store_action *action;
        struct {
            int color;
            const uint8_t *hash;
            int64_t at_ms;
        } claim;
        const char *rematch_id;
        struct {
            int color;
            const char *json;
        } notes;
        struct {
            enum chat_write_stmt which;
            store_bind_fn bind;
            const void *arg;
            bool update;
        } other;
    } u;
    int result;
    bool done;
    pthread_cond_t cond;
    write_req *next;
};

typedef struct {
    sqlite3 *db;
    sqlite3_stmt *stmt[RS_COUNT];
    sqlite3_stmt *chat[CR_COUNT];
} store_reader;

struct store {
    char *path;
    /* Set when the store lives on PostgreSQL: every SQLite field below
     * stays unused, and the writer thread commits through pg. */
    pg_store *pg;

    /* Writer: the connection belongs to the writer thread once it runs. */
    sqlite3 *wdb;
    sqlite3_stmt *wstmt[WS_COUNT];
    sqlite3_stmt *wchat[CW_COUNT];
    pthread_t writer;
    bool writer_running;
    pthread_mutex_t queue_lock;
    pthread_cond_t queue_nonempty;
    write_req *queue_head, *queue_tail;
    bool stopping;

    /* Readers: a free list guarded by reader_lock. */
    store_reader readers[STORE_READERS];
    int free_readers[STORE_READERS];
    int free_count;
    pthread_mutex_t reader_lock;
    pthread_cond_t reader_free;

    /* The operator's connection (store_admin.c), opened on first use;
     * admin_lock serializes its users. */
    struct admin_link *admin;
    pthread_mutex_t admin_lock;
};

/* SQLite result code -> STORE_*: disk full, read-only, I/O errors, cannot
 * open, busy and locked are STORE_UNAVAILABLE (the caller answers 503 and
 * may retry); constraint codes are not handled here. */
int store_code_of(int sqlite_rc);

/* The one rule of schema versions, for both backends: a database at
 * version `found` may be opened by a binary that knows versions up to
 * `supported` (its upgrade steps bring it forward) when
 * 1 <= found <= supported. STORE_OK then; otherwise STORE_ERROR with the
 * reason in err ("database: schema version 9 is newer than this
 * binary's 3: run a newer phantomgo"). A new, empty database is the
 * caller's to create before asking. */
int store_schema_judge(int found, int supported, char *err, size_t errlen);
/* The text of a schema file (schema.sql, schema_pg.sql), at most 1 MiB,
 * NUL-terminated; the caller frees it. NULL with err set when unreadable. */
char *store_read_schema_file(const char *path, char *err, size_t errlen);

/* Prepares every statement of `sql` into `out`; on failure finalizes what it
 * prepared and returns the SQLite code. */
int store_prepare_all(sqlite3 *db, const char *const *sql, int count, sqlite3_stmt **out);
void store_finalize_all(sqlite3_stmt **stmts, int count);

/* store_write.c: statements, thread start/stop. */
extern const char *const store_write_sql[WS_COUNT];
int store_writer_start(store *st);
void store_writer_stop(store *st);

/* A write of another file of the module, through the group-commit writer:
 * statement `which` of wchat, with ?1 bound to game_id and the rest by
 * bind(s, arg) (SQLite's code). `update`: a statement that changed no row
 * means an unknown game (STORE_NOT_FOUND) or a refused change
 * (STORE_CONFLICT). Blocks until committed, like every write. */
/* game_id may be NULL for a statement that names no game (?1 is then
 * bound to NULL). */
int store_submit_write(store *st, enum chat_write_stmt which, const char *game_id, store_bind_fn bind,
                       const void *arg, bool update);

/* store_read.c: statements, and lending a reader connection. */
extern const char *const store_read_sql[RS_COUNT];
store_reader *store_reader_acquire(store *st);
void store_reader_release(store *st, store_reader *r);

/* store_chat.c: statements [0, CW_IDEM_FIRST) and [0, CR_IDEM_FIRST). */
extern const char *const store_chat_write_sql[CW_IDEM_FIRST];
extern const char *const store_chat_read_sql[CR_IDEM_FIRST];
/* store_idempotency.c: statements [CW_IDEM_FIRST, CW_PUSH_FIRST) and
 * [CR_IDEM_FIRST, CR_PUSH_FIRST), at their own indexes. */
extern const char *const store_idem_write_sql[CW_PUSH_FIRST];
extern const char *const store_idem_read_sql[CR_PUSH_FIRST];
/* store_push.c: statements [CW_PUSH_FIRST, CW_COUNT) and [CR_PUSH_FIRST,
 * CR_COUNT), from 0. */
extern const char *const store_push_write_sql[CW_COUNT - CW_PUSH_FIRST];
extern const char *const store_push_read_sql[CR_COUNT - CR_PUSH_FIRST];

#endif
