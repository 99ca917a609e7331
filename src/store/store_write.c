/* The group-commit writer: one thread owns the write connection; every write
 * call queues a request that lives on the caller's stack and sleeps on its
 * own condition variable until the transaction containing it has committed.
 *
 * The writer takes everything queued, runs it in one BEGIN IMMEDIATE ...
 * COMMIT (synchronous=FULL: one fsync of the WAL for the whole batch) and
 * wakes each caller with its own result. A request's own failure (duplicate
 * seq, unknown game) is a failed single statement, which SQLite undoes
 * alone, so the batch goes on. A failure of the batch itself (disk full,
 * read-only, I/O error, a failed COMMIT) rolls all of it back and replays
 * the requests one transaction each, so one doomed write never takes the
 * others down and every caller hears the truth about its own write. The next
 * batch simply tries again, which is how the store recovers once the fault
 * clears. */
#include "store/store_internal.h"
#include "store/store_pg.h"
#include "util/now.h"

#include <stdio.h>
#include <string.h>

const char *const store_write_sql[WS_COUNT] = {
    [WS_BEGIN] = "BEGIN IMMEDIATE",
    [WS_COMMIT] = "COMMIT",
    [WS_ROLLBACK] = "ROLLBACK",
    [WS_INSERT_GAME] = "INSERT INTO games (id, created_at_ms, mode, settings_json, options_json,"
                       " black_hash, white_hash, invite_hash, invite_color, rematch_id,"
                       " time_control_json, public, started_at_ms)"
                       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
                       " coalesce(?11, '{\"type\":\"none\"}'), ?12, nullif(?13, 0))",
    [WS_APPEND] = "INSERT INTO actions (game_id, seq, kind, color, vertex, at_ms)"
                  " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    /* ?2 is the colour claimed: only the free seat the invite is for. */
    [WS_CLAIM] = "UPDATE games SET"
                 " black_hash = CASE ?2 WHEN 1 THEN ?3 ELSE black_hash END,"
                 " white_hash = CASE ?2 WHEN 2 THEN ?3 ELSE white_hash END,"
                 " invite_hash = NULL, invite_color = 0,"
                 " started_at_ms = coalesce(started_at_ms, ?4)"
                 " WHERE id = ?1 AND invite_hash IS NOT NULL AND invite_color = ?2"
                 " AND (CASE ?2 WHEN 1 THEN black_hash ELSE white_hash END) IS NULL",
    [WS_REMATCH] = "UPDATE games SET rematch_id = ?2"
                   " WHERE id = ?1 AND (rematch_id IS NULL OR rematch_id = ?2 OR EXISTS"
                   " (SELECT 1 FROM games AS r WHERE r.id = games.rematch_id"
                   " AND r.cancelled_at_ms IS NOT NULL))",
    [WS_PUT_NOTES] = "INSERT INTO notes (game_id, color, ghosts_json, updated_at_ms) VALUES (?1, ?2, ?3, ?4)"
                     " ON CONFLICT (game_id, color) DO UPDATE"
                     " SET ghosts_json = excluded.ghosts_json, updated_at_ms = excluded.updated_at_ms",
    [WS_GAME_EXISTS] = "SELECT 1 FROM games WHERE id = ?1",
    [WS_SAVEPOINT] = "SAVEPOINT request",
    [WS_RELEASE] = "RELEASE request",
    [WS_ROLLBACK_TO] = "ROLLBACK TO request",
};

/* ---- binding helpers: fixed-size fields must be NUL-terminated ---- */

static bool field_ok(const char *s, size_t cap) { return s && strnlen(s, cap) < cap; }

static bool is_zero(const uint8_t *bytes, size_t n) {
    uint8_t any = 0;
    for (size_t i = 0; i < n; i++) any |= bytes[i];
    return any == 0;
}

static int bind_hash(sqlite3_stmt *s, int index, const uint8_t *hash) {
    return is_zero(hash, 32) ? sqlite3_bind_null(s, index)
                             : sqlite3_bind_blob(s, index, hash, 32, SQLITE_STATIC);
}

static int bind_text_or_null(sqlite3_stmt *s, int index, const char *text) {
    return *text ? sqlite3_bind_text(s, index, text, -1, SQLITE_STATIC) : sqlite3_bind_null(s, index);
}

static int bind_request(sqlite3_stmt *s, const write_req *r) {
    int rc = sqlite3_bind_text(s, 1, r->game_id, -1, SQLITE_STATIC);
    switch (r->kind) {
    case W_INSERT_GAME: {
        const store_game *g = r->u.game;
        rc |= sqlite3_bind_int64(s, 2, g->created_at_ms);
        rc |= sqlite3_bind_text(s, 3, g->mode, -1, SQLITE_STATIC);
        rc |= sqlite3_bind_text(s, 4, g->settings_json, -1, SQLITE_STATIC);
        rc |= sqlite3_bind_text(s, 5, g->options_json, -1, SQLITE_STATIC);
        rc |= bind_hash(s, 6, g->seat_hash[0]);
        rc |= bind_hash(s, 7, g->seat_hash[1]);
        rc |= bind_hash(s, 8, g->invite_hash);
        rc |= sqlite3_bind_int(s, 9, g->invite_color);
        rc |= bind_text_or_null(s, 10, g->rematch_id);
        rc |= g->time_control_json ? sqlite3_bind_text(s, 11, g->time_control_json, -1, SQLITE_STATIC)
                                   : sqlite3_bind_null(s, 11);
        rc |= sqlite3_bind_int(s, 12, g->is_public ? 1 : 0);
        rc |= sqlite3_bind_int64(s, 13, g->started_at_ms);
        break;
    }
    case W_APPEND: {
        const store_action *a = r->u.action;
        rc |= sqlite3_bind_int(s, 2, a->seq);
        rc |= sqlite3_bind_text(s, 3, a->kind, -1, SQLITE_STATIC);
        rc |= sqlite3_bind_int(s, 4, a->color);
        rc |= sqlite3_bind_text(s, 5, a->vertex, -1, SQLITE_STATIC);
        rc |= sqlite3_bind_int64(s, 6, a->at_ms);
        break;
    }
    case W_CLAIM:
        rc |= sqlite3_bind_int(s, 2, r->u.claim.color);
        rc |= sqlite3_bind_blob(s, 3, r->u.claim.hash, 32, SQLITE_STATIC);
        rc |= sqlite3_bind_int64(s, 4, r->u.claim.at_ms);
        break;
    case W_REMATCH: rc |= sqlite3_bind_text(s, 2, r->u.rematch_id, -1, SQLITE_STATIC); break;
    case W_CREATE_REMATCH: break; /* two statements: see apply_create_rematch */
    case W_PUT_NOTES:
        rc |= sqlite3_bind_int(s, 2, r->u.notes.color);
        rc |= sqlite3_bind_text(s, 3, r->u.notes.json, -1, SQLITE_STATIC);
        rc |= sqlite3_bind_int64(s, 4, now_wall_ms());
        break;
    case W_OTHER: rc |= r->u.other.bind(s, r->u.other.arg); break;
    }
    return rc;
}

/* ---- running one request inside the open transaction ---- */

static int run_stmt(sqlite3_stmt *s) {
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return rc;
}

static int txn(store *st, enum write_stmt which) {
    return run_stmt(st->wstmt[which]) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(st->wdb);
}

/* After an UPDATE that changed nothing: unknown game or refused change. */
static int why_unchanged(store *st, const char *game_id, int *sqlite_rc) {
    sqlite3_stmt *s = st->wstmt[WS_GAME_EXISTS];
    sqlite3_bind_text(s, 1, game_id, -1, SQLITE_STATIC);
    int rc = run_stmt(s);
    if (rc == SQLITE_ROW) return STORE_CONFLICT;
    if (rc == SQLITE_DONE) return STORE_NOT_FOUND;
    *sqlite_rc = rc;
    return store_code_of(rc);
}

static sqlite3_stmt *stmt_of(store *st, const write_req *r) {
    switch (r->kind) {
    case W_INSERT_GAME: return st->wstmt[WS_INSERT_GAME];
    case W_APPEND: return st->wstmt[WS_APPEND];
    case W_CLAIM: return st->wstmt[WS_CLAIM];
    case W_REMATCH: return st->wstmt[WS_REMATCH];
    case W_PUT_NOTES: return st->wstmt[WS_PUT_NOTES];
    case W_CREATE_REMATCH: break; /* two statements: apply_create_rematch */
    case W_OTHER: return st->wchat[r->u.other.which];
    }
    return NULL;
}

static int apply_request(store *st, const write_req *r, int *sqlite_rc);

/* A rematch: the new game's row and the old game's link to it, under one
 * savepoint inside the batch's transaction, so a failure of the second
 * undoes the first and nothing else of the batch. (The PostgreSQL backend
 * mirrors this as one transaction of its own.) */
static int apply_create_rematch(store *st, const write_req *r, int *sqlite_rc) {
    *sqlite_rc = txn(st, WS_SAVEPOINT);
    if (*sqlite_rc != SQLITE_OK) return store_code_of(*sqlite_rc);
    write_req insert = { .kind = W_INSERT_GAME, .game_id = r->u.game->id, .u.game = r->u.game };
    write_req link = { .kind = W_REMATCH, .game_id = r->game_id, .u.rematch_id = r->u.game->id };
    int rc = apply_request(st, &insert, sqlite_rc);
    if (rc == STORE_OK) rc = apply_request(st, &link, sqlite_rc);
    if (rc != STORE_OK && !sqlite3_get_autocommit(st->wdb)) txn(st, WS_ROLLBACK_TO);
    if (!sqlite3_get_autocommit(st->wdb)) txn(st, WS_RELEASE);
    return rc;
}

/* Runs r's statement; returns its STORE_* result and leaves the SQLite code
 * of a non-constraint failure in *sqlite_rc (SQLITE_OK otherwise). */
static int apply_request(store *st, const write_req *r, int *sqlite_rc) {
    if (r->kind == W_CREATE_REMATCH) return apply_create_rematch(st, r, sqlite_rc);
    sqlite3_stmt *s = stmt_of(st, r);
    *sqlite_rc = SQLITE_OK;
    if (bind_request(s, r) != SQLITE_OK) {
        sqlite3_clear_bindings(s);
        return STORE_ERROR;
    }
    int rc = run_stmt(s);
    if (rc == SQLITE_DONE) {
        bool updates =
            r->kind == W_CLAIM || r->kind == W_REMATCH || (r->kind == W_OTHER && r->u.other.update);
        if (updates && sqlite3_changes(st->wdb) == 0) return why_unchanged(st, r->game_id, sqlite_rc);
        return STORE_OK;
    }
    switch (rc) {
    case SQLITE_CONSTRAINT_PRIMARYKEY:
    case SQLITE_CONSTRAINT_UNIQUE: return STORE_CONFLICT;
    case SQLITE_CONSTRAINT_FOREIGNKEY: return STORE_NOT_FOUND;
    case SQLITE_CONSTRAINT_CHECK:
    case SQLITE_CONSTRAINT_NOTNULL: return STORE_ERROR; /* a bad value in this request only */
    default: *sqlite_rc = rc; return store_code_of(rc);
    }
}

/* ---- transactions ---- */

static void rollback_if_open(store *st) {
    if (!sqlite3_get_autocommit(st->wdb)) txn(st, WS_ROLLBACK);
}

/* A request failure that leaves the transaction unusable: SQLite rolled it
 * back already, or the disk/file itself is failing. */
static bool breaks_transaction(store *st, int sqlite_rc) {
    return sqlite_rc != SQLITE_OK &&
           (sqlite3_get_autocommit(st->wdb) || store_code_of(sqlite_rc) == STORE_UNAVAILABLE);
}

/* Every request of the list in one transaction; false (all rolled back) if
 * the transaction itself failed. */
static bool run_batch(store *st, write_req *list, int *sqlite_rc) {
    *sqlite_rc = txn(st, WS_BEGIN);
    if (*sqlite_rc != SQLITE_OK) {
        rollback_if_open(st);
        return false;
    }
    for (write_req *r = list; r; r = r->next) {
        r->result = apply_request(st, r, sqlite_rc);
        if (breaks_transaction(st, *sqlite_rc)) {
            rollback_if_open(st);
            return false;
        }
    }
    *sqlite_rc = txn(st, WS_COMMIT);
    if (*sqlite_rc != SQLITE_OK) {
        rollback_if_open(st);
        return false;
    }
    return true;
}

/* The fallback after a failed batch: one transaction per request. */
static void run_each_alone(store *st, write_req *list) {
    for (write_req *r = list; r; r = r->next) {
        write_req *rest = r->next;
        r->next = NULL;
        int sqlite_rc;
        if (!run_batch(st, r, &sqlite_rc))
            r->result = store_code_of(sqlite_rc) == STORE_OK ? STORE_ERROR : store_code_of(sqlite_rc);
        r->next = rest;
    }
}

static void commit_requests(store *st, write_req *list) {
    int sqlite_rc;
    if (run_batch(st, list, &sqlite_rc)) return;
    fprintf(stderr, "store: a group commit failed (%s); retrying its writes one by one\n",
            sqlite3_errstr(sqlite_rc));
    run_each_alone(st, list);
}

/* ---- the writer thread and the queue ---- */

static void *writer_main(void *arg) {
    store *st = arg;
    pthread_mutex_lock(&st->queue_lock);
    for (;;) {
        while (!st->queue_head && !st->stopping) pthread_cond_wait(&st->queue_nonempty, &st->queue_lock);
        if (!st->queue_head) break;
        write_req *batch = st->queue_head;
        st->queue_head = st->queue_tail = NULL;
        pthread_mutex_unlock(&st->queue_lock);

        if (st->pg) pg_store_commit(st->pg, batch);
        else commit_requests(st, batch);

        pthread_mutex_lock(&st->queue_lock);
        for (write_req *r = batch, *next; r; r = next) {
            next = r->next; /* r may vanish once done is seen */
            r->done = true;
            pthread_cond_signal(&r->cond);
        }
    }
    pthread_mutex_unlock(&st->queue_lock);
    return NULL;
}

int store_writer_start(store *st) {
    if (pthread_create(&st->writer, NULL, writer_main, st) != 0) return -1;
    st->writer_running = true;
    return 0;
}

void store_writer_stop(store *st) {
    if (!st->writer_running) return;
    pthread_mutex_lock(&st->queue_lock);
    st->stopping = true;
    pthread_cond_signal(&st->queue_nonempty);
    pthread_mutex_unlock(&st->queue_lock);
    pthread_join(st->writer, NULL);
    st->writer_running = false;
}

/* Queues r and sleeps until the writer has committed (or failed) it. */
static int submit(store *st, write_req *r) {
    r->done = false;
    r->next = NULL;
    r->result = STORE_ERROR;
    pthread_cond_init(&r->cond, NULL);
    pthread_mutex_lock(&st->queue_lock);
    if (st->queue_tail) st->queue_tail->next = r;
    else st->queue_head = r;
    st->queue_tail = r;
    pthread_cond_signal(&st->queue_nonempty);
    while (!r->done) pthread_cond_wait(&r->cond, &st->queue_lock);
    pthread_mutex_unlock(&st->queue_lock);
    pthread_cond_destroy(&r->cond);
    return r->result;
}

static bool game_id_ok(const char *id) { return field_ok(id, sizeof((store_game *)0)->id) && *id; }

static bool color_ok(int color) { return color == 1 || color == 2; }

/* ---- the public writes ---- */

int store_insert_game(store *st, const store_game *g) {
    if (!st || !g || !game_id_ok(g->id) || !field_ok(g->mode, sizeof g->mode) || !g->settings_json ||
        !g->options_json || !field_ok(g->rematch_id, sizeof g->rematch_id))
        return STORE_ERROR;
    write_req r = { .kind = W_INSERT_GAME, .game_id = g->id, .u.game = g };
    return submit(st, &r);
}

int store_append_action(store *st, const char *game_id, const store_action *a) {
    if (!st || !game_id_ok(game_id) || !a || !field_ok(a->kind, sizeof a->kind) ||
        !field_ok(a->vertex, sizeof a->vertex) || !color_ok(a->color))
        return STORE_ERROR;
    write_req r = { .kind = W_APPEND, .game_id = game_id, .u.action = a };
    return submit(st, &r);
}

int store_claim_seat(store *st, const char *game_id, int color, const uint8_t token_hash[32],
                     int64_t started_at_ms) {
    if (!st || !game_id_ok(game_id) || !color_ok(color) || !token_hash || is_zero(token_hash, 32) ||
        started_at_ms <= 0)
        return STORE_ERROR;
    write_req r = { .kind = W_CLAIM,
                    .game_id = game_id,
                    .u.claim = { .color = color, .hash = token_hash, .at_ms = started_at_ms } };
    return submit(st, &r);
}

int store_set_rematch(store *st, const char *game_id, const char *rematch_id) {
    if (!st || !game_id_ok(game_id) || !game_id_ok(rematch_id)) return STORE_ERROR;
    write_req r = { .kind = W_REMATCH, .game_id = game_id, .u.rematch_id = rematch_id };
    return submit(st, &r);
}

int store_create_rematch(store *st, const char *game_id, const store_game *rematch) {
    if (!st || !game_id_ok(game_id) || !rematch || !game_id_ok(rematch->id) ||
        !field_ok(rematch->mode, sizeof rematch->mode) || !rematch->settings_json || !rematch->options_json ||
        !field_ok(rematch->rematch_id, sizeof rematch->rematch_id))
        return STORE_ERROR;
    write_req r = { .kind = W_CREATE_REMATCH, .game_id = game_id, .u.game = rematch };
    return submit(st, &r);
}

int store_put_notes(store *st, const char *game_id, int color, const char *ghosts_json) {
    if (!st || !game_id_ok(game_id) || !color_ok(color) || !ghosts_json) return STORE_ERROR;
    write_req r = { .kind = W_PUT_NOTES,
                    .game_id = game_id,
                    .u.notes = { .color = color, .json = ghosts_json } };
    return submit(st, &r);
}

int store_submit_write(store *st, enum chat_write_stmt which, const char *game_id, store_bind_fn bind,
                       const void *arg, bool update) {
    if (!st || (game_id && !game_id_ok(game_id)) || (unsigned)which >= CW_COUNT || !bind) return STORE_ERROR;
    write_req r = { .kind = W_OTHER,
                    .game_id = game_id,
                    .u.other = { .which = which, .bind = bind, .arg = arg, .update = update } };
    return submit(st, &r);
}
