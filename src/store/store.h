/* Durable storage of games: their settings, seats and action log, in one
 * SQLite file (the default) or in a PostgreSQL database shared by several
 * servers. This is the only module that includes sqlite3.h or libpq-fe.h;
 * nothing above it knows which of the two it runs on.
 *
 * Shape: one writer thread owns the write connection and does group commit:
 * every write call enqueues a request and blocks until the transaction that
 * contains it has committed (synchronous=FULL), so STORE_OK means durable.
 * Writes of many games share one commit; each caller still gets its own
 * result. Reads use a separate pool of read-only connections (WAL lets them
 * run beside the writer). The handle is thread-safe.
 *
 * On PostgreSQL the promise is the same: one transaction per batch of
 * writes, committed before any of its callers hears STORE_OK. The database's
 * primary key on (game, seq) refuses a second action with the same number
 * even from another server: STORE_CONFLICT from store_append_action means
 * the log has moved on without this caller (reload the game and answer from
 * the log). STORE_UNAVAILABLE means the database could not be reached or
 * the commit's outcome is unknown; nothing was acknowledged.
 *
 * The action log is the truth: the server rebuilds a game by replaying its
 * actions through the referee. */
#ifndef PG_STORE_H
#define PG_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct store store;

enum {
    STORE_OK = 0,
    STORE_NOT_FOUND,   /* no such game (or, for reads, no such row) */
    STORE_CONFLICT,    /* duplicate id/seq, invite already used */
    STORE_UNAVAILABLE, /* disk full, read-only, I/O error: answer 503; nothing was written */
    STORE_ERROR        /* anything else (bad argument, out of memory, corrupt file) */
};

/* Opens the database at db_path. A PostgreSQL connection string
 * (postgresql://..., or libpq's keyword=value form such as
 * "host=a,b dbname=phantomgo target_session_attrs=read-write") opens the
 * PostgreSQL backend: it creates or upgrades the schema from schema_pg.sql,
 * found beside schema_path, and fails with a message for an unreachable
 * server (STORE_UNAVAILABLE), refused credentials or a database of a newer
 * schema version (STORE_ERROR). Any other db_path is an SQLite file.
 *
 * SQLite: opens the database at db_path, creating the file (mode 0600) and its
 * directory (one level, as ./data) if missing; applies
 * schema_path (schema.sql) and the migrations tracked in PRAGMA user_version,
 * sets WAL, synchronous=FULL, foreign_keys=ON and a busy timeout, and starts
 * the writer thread. schema_path is the schema.sql file, read only when the
 * database is new (user_version 0); an existing database is brought up to
 * date by the migrations compiled into store_sqlite.c. On failure returns non-OK,
 * writes a message into err and leaves *out NULL. */
int store_open(store **out, const char *db_path, const char *schema_path, char *err, size_t errlen);

/* True when db_location names a database server (see store_open), not a
 * file: the caller must not create directories for it. */
bool store_is_server(const char *db_location);

/* Flushes every pending write, stops the writer, closes all connections and
 * frees the handle. NULL is allowed. No call may be in flight. */
void store_close(store *st);

/* What store_backup copied. */
typedef struct store_backup_info {
    int pages;       /* database pages copied */
    long long bytes; /* size of the copy */
} store_backup_info;

/* Copies the SQLite database at db_path, while a server may be writing it,
 * into to_path (store_backup.c): a consistent snapshot holding every
 * transaction committed before it began, checked with PRAGMA
 * integrity_check, written under to_path.partial, fsynced and renamed, so
 * to_path is either whole or untouched whatever happens. Refuses a
 * PostgreSQL connection string (pg_dump does that job) and a to_path that
 * is the database itself. On failure err says why. */
int store_backup(const char *db_path, const char *to_path, store_backup_info *info, char *err, size_t errlen);

/* Returns a constant, human-readable name of a STORE_* code. */
const char *store_strerror(int code);

typedef struct {
    char id[24]; /* game id, [a-z0-9], 10-20 chars */
    int64_t created_at_ms;
    char *settings_json;      /* owned by the row: the engine settings as JSON */
    char mode[16];            /* "online" | "hotseat" | "computer" */
    char *options_json;       /* owned: mode options, e.g. {"level":..,"computer":"white"} */
    uint8_t seat_hash[2][32]; /* [0]=black [1]=white: SHA-256 of the seat token; all-zero = no seat yet */
    uint8_t invite_hash[32];  /* SHA-256 of the one-time invite secret; all-zero = none/used */
    int invite_color;         /* 1 black, 2 white, 0 none */
    char rematch_id[24];      /* "" when none */
    char *time_control_json;  /* owned: {"type":"none"} etc. (docs/API.md); NULL on
                                 insert means untimed, {"type":"none"} */
    int is_public;            /* 1: listed in the open-games lobby */
    int64_t started_at_ms;    /* when the clock started (both seats taken); 0: not yet */
    int64_t cancelled_at_ms;  /* when the creator cancelled it (store_chat.h); 0: not.
                                 Read only: store_insert_game ignores it */
} store_game;

/* Frees settings_json, options_json and time_control_json and sets them
 * to NULL. */
void store_game_free_fields(store_game *g);

typedef struct {
    int seq;        /* 1,2,3... per game, = the referee's event seq */
    char kind[12];  /* "attempt" | "pass" | "resign" | "timeout" | "forfeit" */
    int color;      /* 1 black, 2 white */
    char vertex[8]; /* "D4" for attempts, "" otherwise */
    int64_t at_ms;  /* server clock when accepted */
} store_action;

/* Writes. Each is DURABLE when it returns STORE_OK. A write that fails
 * leaves nothing of itself behind, and never takes other callers' writes
 * down with it (a failed batch is retried one write at a time).
 *
 * store_insert_game:    STORE_CONFLICT if the id exists. settings_json and
 *                       options_json must be non-NULL ("{}" when empty).
 * store_append_action:  STORE_NOT_FOUND for an unknown game, STORE_CONFLICT
 *                       if (game, seq) exists.
 * store_claim_seat:     atomically sets seat `color`'s hash, clears the
 *                       invite and, if it was not set yet, started_at_ms
 *                       (the game's clock starts with its second player).
 *                       STORE_NOT_FOUND for an unknown game;
 *                       STORE_CONFLICT if there is no invite any more, the
 *                       invite is for the other colour, or the seat is taken.
 * store_set_rematch:    STORE_NOT_FOUND for an unknown game; STORE_CONFLICT
 *                       if a different rematch id is already set (setting the
 *                       same one again is OK; a cancelled one, its offer
 *                       withdrawn or declined, may be replaced: SQLite only
 *                       until PostgreSQL stores cancellations).
 * store_put_notes:      creates or replaces seat `color`'s notes (the
 *                       player's ghost stones, JSON). STORE_NOT_FOUND for an
 *                       unknown game.
 * store_create_rematch: one transaction: inserts `rematch` (as
 *                       store_insert_game) and sets game_id's rematch_id to
 *                       its id (as store_set_rematch); either both or
 *                       neither. STORE_CONFLICT if the new id exists or
 *                       game_id has a different rematch already;
 *                       STORE_NOT_FOUND for an unknown game_id. */
int store_insert_game(store *st, const store_game *g);
int store_append_action(store *st, const char *game_id, const store_action *a);
int store_claim_seat(store *st, const char *game_id, int color, const uint8_t token_hash[32],
                     int64_t started_at_ms);
int store_set_rematch(store *st, const char *game_id, const char *rematch_id);
int store_put_notes(store *st, const char *game_id, int color, const char *ghosts_json);
int store_create_rematch(store *st, const char *game_id, const store_game *rematch);

/* News of what any server sharing the database stored (this one
 * included), delivered on a thread of the store after each commit, so a
 * server can refresh the games it holds that another one changed. Only the
 * PostgreSQL backend has other servers (LISTEN/NOTIFY); on SQLite nothing
 * is delivered. News is a hint, not a log: it names the game and what
 * kind of thing changed, never what was said or played (the receiver reads
 * that from the store), and some may be lost while the database is
 * unreachable. Each callback may be NULL and must return quickly.
 *   action:  action seq of game_id was stored;
 *   row:     game_id's row changed (a seat taken, a cancel, a rematch);
 *   names:   a seat's name of game_id was set or removed;
 *   chat:    message n of room `room` (store_chat.h) of game_id was stored;
 *   created: public game game_id was created (the lobby's news);
 *   lost:    the news stopped for a while (the database was unreachable)
 *            and runs again: some may have been lost. */
typedef struct {
    void (*action)(void *ctx, const char *game_id, int seq);
    void (*row)(void *ctx, const char *game_id);
    void (*names)(void *ctx, const char *game_id);
    void (*chat)(void *ctx, const char *game_id, int room, int n);
    /* unchat: message n of `room` of game_id became a tombstone (store_admin.h) */
    void (*unchat)(void *ctx, const char *game_id, int room, int n);
    void (*created)(void *ctx, const char *game_id);
    void (*lost)(void *ctx);
    void *ctx;
} store_news;
/* Starts delivering news to a copy of *news; NULL stops it (call so
 * before store_close frees what ctx points to). */
void store_watch(store *st, const store_news *news);

/* Reads (any thread). They see every write that returned STORE_OK before
 * they started. STORE_UNAVAILABLE when the file cannot be read.
 *
 * store_load_game:  fills *out_row (free with store_game_free_fields) and,
 *                   if out_actions is not NULL, a malloc'd array of the
 *                   game's actions in seq order (caller frees; NULL when
 *                   the count is 0). STORE_NOT_FOUND for an unknown game.
 * store_get_notes:  *out_ghosts_json is a malloc'd copy, or NULL (with
 *                   STORE_OK) when that seat has saved none.
 *                   STORE_NOT_FOUND for an unknown game.
 * store_list_games: calls each(ctx, id) per game, oldest first; a non-zero
 *                   return from each stops the walk and is returned.
 *                   "all": every game. The others list games whose log
 *                   does not end with a resign, timeout or forfeit (games
 *                   ended by two passes or a capture are included: the
 *                   caller replays and skips those):
 *                   "computer_to_resume": in computer mode;
 *                   "clock_to_resume": with a time limit (any time control
 *                   but {"type":"none"} without days_per_move) and a clock
 *                   started;
 *                   "public_to_list": public (lobby) and not cancelled,
 *                   newest first.
 * store_ping:       STORE_OK if the database answers a read of its games
 *                   table (the health check). */
int store_load_game(store *st, const char *game_id, store_game *out_row, store_action **out_actions,
                    int *out_count);
int store_get_notes(store *st, const char *game_id, int color, char **out_ghosts_json);
int store_list_games(store *st, const char *where_kind, int (*each)(void *ctx, const char *game_id),
                     void *ctx);
int store_ping(store *st);

#endif
