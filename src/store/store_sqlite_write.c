/* The SQLite backend's group commit: the writer thread hands over every
 * queued write at once (store_write.c) and this runs them in one BEGIN
 * IMMEDIATE ... COMMIT on the writer's connection (synchronous=FULL: one
 * fsync of the WAL for the whole batch), binding each statement from its
 * request's values.
 *
 * A request's own failure (duplicate seq, unknown game) is a failed single
 * statement, which SQLite undoes alone, so the batch goes on. A failure of
 * the batch itself (disk full, read-only, I/O error, a failed COMMIT) rolls
 * all of it back and replays the requests one transaction each, so one
 * doomed write never takes the others down and every caller hears the
 * truth about its own write. The next batch simply tries again, which is
 * how the store recovers once the fault clears. */
#include "store/store_idempotency.h"
#include "store/store_sqlite_db.h"

#include <stdio.h>
#include <string.h>

const char *const sqlite_write_sql[SW_COUNT] = {
    [SW_BEGIN] = "BEGIN IMMEDIATE",
    [SW_COMMIT] = "COMMIT",
    [SW_ROLLBACK] = "ROLLBACK",
    [ST_INSERT_GAME] = "INSERT INTO games (id, created_at_ms, mode, settings_json, options_json,"
                       " black_hash, white_hash, invite_hash, invite_color, rematch_id,"
                       " time_control_json, public, started_at_ms)"
                       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
                       " coalesce(?11, '{\"type\":\"none\"}'), ?12, nullif(?13, 0))",
    [ST_APPEND] = "INSERT INTO actions (game_id, seq, kind, color, vertex, at_ms)"
                  " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    /* ?2 is the colour claimed: only the free seat the invite is for. */
    [ST_CLAIM] = "UPDATE games SET"
                 " black_hash = CASE ?2 WHEN 1 THEN ?3 ELSE black_hash END,"
                 " white_hash = CASE ?2 WHEN 2 THEN ?3 ELSE white_hash END,"
                 " invite_hash = NULL, invite_color = 0,"
                 " started_at_ms = coalesce(started_at_ms, ?4)"
                 " WHERE id = ?1 AND invite_hash IS NOT NULL AND invite_color = ?2"
                 " AND (CASE ?2 WHEN 1 THEN black_hash ELSE white_hash END) IS NULL",
    [ST_REMATCH] = "UPDATE games SET rematch_id = ?2"
                   " WHERE id = ?1 AND (rematch_id IS NULL OR rematch_id = ?2 OR EXISTS"
                   " (SELECT 1 FROM games AS r WHERE r.id = games.rematch_id"
                   " AND r.cancelled_at_ms IS NOT NULL))",
    [ST_PUT_NOTES] = "INSERT INTO notes (game_id, color, ghosts_json, updated_at_ms) VALUES (?1, ?2, ?3, ?4)"
                     " ON CONFLICT (game_id, color) DO UPDATE"
                     " SET ghosts_json = excluded.ghosts_json, updated_at_ms = excluded.updated_at_ms",
    [SW_GAME_EXISTS] = "SELECT 1 FROM games WHERE id = ?1",
    [SW_SAVEPOINT] = "SAVEPOINT request",
    [SW_RELEASE] = "RELEASE request",
    [SW_ROLLBACK_TO] = "ROLLBACK TO request",
    /* Table talk (store_chat.c). */
    [ST_PUT_NAME] = "INSERT INTO seat_names (game_id, color, name, updated_at_ms) VALUES (?1, ?2, ?3, ?4)"
                    " ON CONFLICT (game_id, color) DO UPDATE"
                    " SET name = excluded.name, updated_at_ms = excluded.updated_at_ms",
    [ST_CLEAR_NAME] = "DELETE FROM seat_names WHERE game_id = ?1 AND color = ?2",
    [ST_APPEND_CHAT] = "INSERT INTO chat (game_id, room, n, author, name, text, at_ms)"
                       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    /* Only while the invite is unused: once the other seat is taken the
     * game belongs to two people and only resigning ends it. */
    [ST_CANCEL] = "UPDATE games SET cancelled_at_ms = ?2, invite_hash = NULL, invite_color = 0"
                  " WHERE id = ?1 AND cancelled_at_ms IS NULL AND invite_hash IS NOT NULL",
    /* Idempotency-Key records (store_idempotency.c). */
    /* ?2 owner, ?3 at_ms, ?4 stale_before, ?5 expired_before, ?6 seed.
     * Taking over a pending record keeps its seed; an expired one's is
     * replaced. */
    [ST_IDEM_RESERVE] =
        "INSERT INTO idempotency (id, owner, created_at_ms, answer, seed)"
        " VALUES (?1, ?2, ?3, NULL, ?6)"
        " ON CONFLICT (id) DO UPDATE"
        " SET owner = excluded.owner, created_at_ms = excluded.created_at_ms, answer = NULL,"
        " seed = CASE WHEN idempotency.answer IS NULL THEN idempotency.seed ELSE excluded.seed END"
        " WHERE (idempotency.answer IS NULL AND idempotency.created_at_ms < ?4)"
        " OR idempotency.created_at_ms < ?5",
    /* ?2 owner, ?3 the answer. */
    [ST_IDEM_FINISH] = "UPDATE idempotency SET answer = ?3 WHERE id = ?1 AND owner = ?2 AND answer IS NULL",
    /* ?2 owner. */
    [ST_IDEM_RELEASE] = "DELETE FROM idempotency WHERE id = ?1 AND owner = ?2 AND answer IS NULL",
    /* ?2 expired_before (?1 is unused). */
    [ST_IDEM_PURGE] = "DELETE FROM idempotency WHERE id IN"
                      " (SELECT id FROM idempotency WHERE created_at_ms < ?2 LIMIT 200)",
    /* Web Push (store_push.c). */
    [ST_PUSH_KEY] = "INSERT INTO push_key (id, private_key, public_key, created_at_ms)"
                    " VALUES (1, ?2, ?3, ?4) ON CONFLICT (id) DO NOTHING",
    /* Renewing an endpoint the seat holds is always allowed; a new one only
     * below the cap. No row inserted or updated: the cap (why_unchanged
     * answers STORE_CONFLICT for a game that exists). */
    [ST_PUSH_SUBSCRIBE] =
        "INSERT INTO push_subscriptions (game_id, color, endpoint, p256dh, auth, lang, created_at_ms)"
        " SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7"
        " WHERE EXISTS (SELECT 1 FROM push_subscriptions WHERE game_id = ?1 AND color = ?2 AND endpoint = ?3)"
        " OR (SELECT count(*) FROM push_subscriptions WHERE game_id = ?1 AND color = ?2) < ?8"
        " ON CONFLICT (game_id, color, endpoint) DO UPDATE"
        " SET p256dh = excluded.p256dh, auth = excluded.auth, lang = excluded.lang",
    [ST_PUSH_UNSUBSCRIBE] = "DELETE FROM push_subscriptions WHERE game_id = ?1 AND color = ?2"
                            " AND (?3 IS NULL OR endpoint = ?3)",
    [ST_PUSH_ENQUEUE] =
        "INSERT INTO push_outbox (game_id, color, endpoint, notice, kind, payload, urgency, state,"
        " next_at_ms, created_at_ms)"
        " SELECT s.game_id, s.color, s.endpoint, ?3, ?4, ?5, ?6, ?7, ?8, ?8 FROM push_subscriptions s"
        " WHERE s.game_id = ?1 AND s.color = ?2 AND NOT EXISTS (SELECT 1 FROM push_outbox o"
        " WHERE o.game_id = s.game_id AND o.color = s.color AND o.endpoint = s.endpoint AND o.notice >= ?3)"
        " ON CONFLICT DO NOTHING",
    [ST_PUSH_CLAIM] = "UPDATE push_outbox SET next_at_ms = ?3"
                      " WHERE id = ?2 AND state = 0 AND next_at_ms <= ?4",
    [ST_PUSH_FINISH] = "UPDATE push_outbox SET state = ?3, attempts = attempts + 1 WHERE id = ?2",
    [ST_PUSH_RETRY] = "UPDATE push_outbox SET next_at_ms = ?3, attempts = attempts + 1"
                      " WHERE id = ?2 AND state = 0",
};

_Static_assert(STORE_IDEM_PURGE_MAX == 200, "the LIMIT of ST_IDEM_PURGE here and in store_pg_write.c");

/* ---- running one request inside the open transaction ---- */

static int run_stmt(sqlite3_stmt *s) {
    int rc = sqlite3_step(s);
    sqlite_stmt_done(s);
    return rc;
}

static int txn(sqlite_db *db, enum sqlite_write_stmt which) {
    return run_stmt(db->wstmt[which]) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(db->wdb);
}

/* After a statement that changed nothing: unknown game or refused change. */
static int why_unchanged(sqlite_db *db, const store_value *game, int *sqlite_rc) {
    sqlite3_stmt *s = db->wstmt[SW_GAME_EXISTS];
    if (sqlite_bind_values(s, game, 1) != SQLITE_OK) {
        sqlite_stmt_done(s);
        return STORE_ERROR;
    }
    int rc = run_stmt(s);
    if (rc == SQLITE_ROW) return STORE_CONFLICT;
    if (rc == SQLITE_DONE) return STORE_NOT_FOUND;
    *sqlite_rc = rc;
    return store_code_of(rc);
}

/* Runs one step; returns its STORE_* result and leaves the SQLite code of
 * a non-constraint failure in *sqlite_rc (SQLITE_OK otherwise). */
static int apply_step(sqlite_db *db, const store_step *step, int *sqlite_rc) {
    sqlite3_stmt *s = db->wstmt[step->stmt];
    *sqlite_rc = SQLITE_OK;
    if (sqlite_bind_values(s, step->values, step->count) != SQLITE_OK) {
        sqlite_stmt_done(s);
        return STORE_ERROR;
    }
    int rc = run_stmt(s);
    if (rc == SQLITE_DONE) {
        if (step->must_change && sqlite3_changes(db->wdb) == 0)
            return why_unchanged(db, step->values, sqlite_rc);
        return STORE_OK;
    }
    switch (rc) {
    case SQLITE_CONSTRAINT_PRIMARYKEY:
    case SQLITE_CONSTRAINT_UNIQUE:
    case SQLITE_CONSTRAINT_FOREIGNKEY:
    case SQLITE_CONSTRAINT_CHECK:
    case SQLITE_CONSTRAINT_NOTNULL: return sqlite_constraint_code(rc); /* this request only */
    default: *sqlite_rc = rc; return store_code_of(rc);
    }
}

/* A request of two steps (a rematch: the new game's row and the old
 * game's link to it) under one savepoint inside the batch's transaction,
 * so a failure of the second undoes the first and nothing else of the
 * batch. */
static int apply_request(sqlite_db *db, const write_req *r, int *sqlite_rc) {
    if (r->nsteps == 1) return apply_step(db, &r->steps[0], sqlite_rc);
    *sqlite_rc = txn(db, SW_SAVEPOINT);
    if (*sqlite_rc != SQLITE_OK) return store_code_of(*sqlite_rc);
    int code = STORE_OK;
    for (int i = 0; code == STORE_OK && i < r->nsteps; i++) code = apply_step(db, &r->steps[i], sqlite_rc);
    if (code != STORE_OK && !sqlite3_get_autocommit(db->wdb)) txn(db, SW_ROLLBACK_TO);
    if (!sqlite3_get_autocommit(db->wdb)) txn(db, SW_RELEASE);
    return code;
}

/* ---- transactions ---- */

static void rollback_if_open(sqlite_db *db) {
    if (!sqlite3_get_autocommit(db->wdb)) txn(db, SW_ROLLBACK);
}

/* A request failure that leaves the transaction unusable: SQLite rolled it
 * back already, or the disk/file itself is failing. */
static bool breaks_transaction(sqlite_db *db, int sqlite_rc) {
    return sqlite_rc != SQLITE_OK &&
           (sqlite3_get_autocommit(db->wdb) || store_code_of(sqlite_rc) == STORE_UNAVAILABLE);
}

/* Every request of the list in one transaction; false (all rolled back) if
 * the transaction itself failed. */
static bool run_batch(sqlite_db *db, write_req *list, int *sqlite_rc) {
    *sqlite_rc = txn(db, SW_BEGIN);
    if (*sqlite_rc != SQLITE_OK) {
        rollback_if_open(db);
        return false;
    }
    for (write_req *r = list; r; r = r->next) {
        r->result = apply_request(db, r, sqlite_rc);
        if (breaks_transaction(db, *sqlite_rc)) {
            rollback_if_open(db);
            return false;
        }
    }
    *sqlite_rc = txn(db, SW_COMMIT);
    if (*sqlite_rc != SQLITE_OK) {
        rollback_if_open(db);
        return false;
    }
    return true;
}

/* The fallback after a failed batch: one transaction per request. */
static void run_each_alone(sqlite_db *db, write_req *list) {
    for (write_req *r = list; r; r = r->next) {
        write_req *rest = r->next;
        r->next = NULL;
        int sqlite_rc;
        if (!run_batch(db, r, &sqlite_rc))
            r->result = store_code_of(sqlite_rc) == STORE_OK ? STORE_ERROR : store_code_of(sqlite_rc);
        r->next = rest;
    }
}

void sqlite_commit(sqlite_db *db, write_req *list) {
    int sqlite_rc;
    if (run_batch(db, list, &sqlite_rc)) return;
    fprintf(stderr, "store: a group commit failed (%s); retrying its writes one by one\n",
            sqlite3_errstr(sqlite_rc));
    run_each_alone(db, list);
}
