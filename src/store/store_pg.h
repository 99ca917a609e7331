/* The PostgreSQL backend's state and what its files share: store_pg.c
 * connects, creates and upgrades the schema; store_pg_read.c reads,
 * store_pg_write.c commits the writer's batches, store_pg_listen.c hears
 * other servers, store_pg_admin.c runs the operator's statements, and
 * store_pg_backend.c puts them in the backend's table (store_backend.h),
 * the only way the rest of the module reaches them.
 *
 * The public store_* functions check their arguments once for both
 * backends and then call these through the table. Writes reach the
 * backend through the shared write queue (store_write.c): the writer
 * thread hands each batch to pg_store_commit, which
 * runs it as one transaction on its own connection (group commit) and sets
 * every request's result. Reads use a small pool of connections. Every
 * connection is reopened on its next use after it broke, with the same
 * connection string, so libpq's multi-host form (host=a,b
 * target_session_attrs=read-write) finds a promoted standby by itself. */
#ifndef PG_STORE_PG_H
#define PG_STORE_PG_H

#include "store/store_backend.h"
#include "store/store_chat.h"
#include "store/store_idempotency.h"
#include "store/store_push.h"

#include <libpq-fe.h>

/* The writer's statements: the ST_* ones (store_backend.h), then its own. */
enum pg_write_stmt { PW_GAME_EXISTS = ST_COUNT, PW_COUNT };

/* One connection and whether its statements are prepared; conn is NULL
 * until first use and again after it broke. */
typedef struct {
    PGconn *conn;
} pg_link;

typedef struct store_db pg_store;
struct store_db {
    char *conninfo;
    /* The LISTEN thread of pg_store_watch (store_pg_listen.c). */
    pthread_t listener;
    bool listening;
    int stop_pipe[2];
    store_news news;
    pg_link writer; /* the writer thread's alone */
    pg_link readers[STORE_READERS];
    int free_readers[STORE_READERS];
    int free_count;
    pthread_mutex_t reader_lock;
    pthread_cond_t reader_free;
    /* The operator's connection (store_pg_admin.c); broken: its last
     * failure lost it. */
    pg_link admin;
    bool admin_broken;
};

/* Opens link's connection if it has none, preparing `count` statements
 * named <prefix><index> from sql. STORE_OK, or STORE_UNAVAILABLE with a
 * message in err (may be NULL). */
int pg_link_ensure(pg_store *pg, pg_link *link, const char *prefix, const char *const *sql, int count,
                   char *err, size_t errlen);
/* Drops link's connection (the next ensure reconnects). */
void pg_link_drop(pg_link *link);
/* The STORE_* code of a failed result; *broken is set when the connection
 * must be dropped (lost, shut down, read-only standby). */
int pg_code_of(PGconn *conn, const PGresult *res, bool *broken);

extern const char *const pg_write_sql[PW_COUNT];

/* True when location names a database server rather than a file: a
 * postgres:// or postgresql:// URI, or libpq's keyword=value form. */
bool pg_store_is_conninfo(const char *location);

/* Connects with conninfo, creates or upgrades the schema from
 * schema_pg_path (one transaction, under an advisory lock so servers
 * starting together do not race) and prepares the read pool. On failure
 * returns non-OK with a message in err (never the password) and *out NULL.
 * (store_pg_backend.c then connects the writer.) */
int pg_store_open(pg_store **out, const char *conninfo, const char *schema_pg_path, char *err, size_t errlen);
/* Closes every connection; the LISTEN thread must be stopped already. */
void pg_store_close(pg_store *pg);

/* Starts (news non-NULL) or stops the thread that LISTENs for what the
 * servers store (store_watch); pg_store_close stops it too. */
void pg_store_watch(pg_store *pg, const store_news *news);

/* Commits a batch of queued writes (called by the writer thread only). */
void pg_store_commit(pg_store *pg, write_req *list);

int pg_store_load_game(pg_store *pg, const char *game_id, store_game *out_row, store_action **out_actions,
                       int *out_count);
int pg_store_get_notes(pg_store *pg, const char *game_id, int color, char **out_ghosts_json);
int pg_store_ping(pg_store *pg);
/* Table talk's reads, as store_chat.h's (arguments checked there). */
int pg_store_get_names(pg_store *pg, const char *game_id, char names[2][STORE_NAME_BYTES]);
int pg_store_chat_count(pg_store *pg, const char *game_id, int room, int *out_n);
int pg_store_read_chat(pg_store *pg, const char *game_id, int room, int after_n, int limit,
                       store_chat_message *list, int *out_count);
/* store_idem_get's read (arguments checked there). */
int pg_store_idem_get(pg_store *pg, const char *id, store_idem_record *out);
/* Web Push's reads, as store_push.h's (arguments checked there; list holds
 * limit elements). */
int pg_store_push_key_get(pg_store *pg, uint8_t priv[32], uint8_t pub[65]);
int pg_store_push_count(pg_store *pg, const char *game_id, int color, int *out_n);
int pg_store_push_game_ids(pg_store *pg, char (**ids)[24], int *count);
int pg_store_push_due(pg_store *pg, int64_t now_ms, int limit, store_push_message *list, int *out_count);
int pg_store_push_next_due(pg_store *pg, int64_t *at_ms);
/* Fills *ids (malloc'd, fixed-size ids) for one of store_list_games' kinds. */
int pg_store_list_ids(pg_store *pg, enum store_list which, char (**ids)[24], int *count);

/* The operator's connection (store_pg_admin.c), as store_backend.h's admin_*. */
int pg_admin_begin(pg_store *pg, bool writes, bool *fresh);
int pg_admin_run(pg_store *pg, const store_sql *sql, const store_value *params, int nparams, store_row_fn fn,
                 void *ctx, int *changes);
int pg_admin_end(pg_store *pg, int code, bool *lost);
void pg_admin_close(pg_store *pg);

#endif
