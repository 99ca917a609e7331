/* The PostgreSQL backend's group commit: the writer thread hands over every
 * queued write at once and this runs them in one transaction on the
 * writer's connection, so one commit (one WAL flush, and with a synchronous
 * standby one round trip to it) acknowledges them all.
 *
 * In PostgreSQL a failed statement aborts its whole transaction, so the
 * statements are written not to fail for the answers a caller expects:
 * a duplicate is ON CONFLICT DO NOTHING, an unknown game is a WHERE EXISTS,
 * and a write that changed nothing asks why (conflict or not found). A
 * statement that fails anyway (a CHECK on a bad value) rolls the batch back
 * and every request then runs in a transaction of its own, so one bad
 * write never takes the others down. A lost connection, a shutting-down or
 * read-only server answers STORE_UNAVAILABLE to the whole batch and drops
 * the connection; the next batch reconnects (finding a promoted standby
 * through a multi-host connection string). A COMMIT whose answer is lost is
 * UNAVAILABLE too: its outcome is unknown, so nothing is acknowledged, and
 * a retry of the same seq meets the primary key if it did commit. */
#include "store/store_pg.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const char *const pg_write_sql[PW_COUNT] = {
    [ST_INSERT_GAME] = "INSERT INTO games (id, created_at_ms, mode, settings_json, options_json,"
                       " black_hash, white_hash, invite_hash, invite_color, rematch_id,"
                       " time_control_json, public, started_at_ms)"
                       " VALUES ($1, $2::bigint, $3, $4, $5, $6::bytea, $7::bytea, $8::bytea, $9::integer,"
                       " $10, coalesce($11, '{\"type\":\"none\"}'), $12::boolean, nullif($13::bigint, 0))"
                       " ON CONFLICT (id) DO NOTHING",
    [ST_APPEND] = "INSERT INTO actions (game_id, seq, kind, color, vertex, at_ms)"
                  " SELECT $1, $2::integer, $3, $4::integer, $5, $6::bigint"
                  " WHERE EXISTS (SELECT 1 FROM games WHERE id = $1)"
                  " ON CONFLICT (game_id, seq) DO NOTHING",
    [ST_CLAIM] = "UPDATE games SET"
                 " black_hash = CASE $2::integer WHEN 1 THEN $3::bytea ELSE black_hash END,"
                 " white_hash = CASE $2::integer WHEN 2 THEN $3::bytea ELSE white_hash END,"
                 " invite_hash = NULL, invite_color = 0,"
                 " started_at_ms = coalesce(started_at_ms, $4::bigint)"
                 " WHERE id = $1 AND invite_hash IS NOT NULL AND invite_color = $2::integer"
                 " AND (CASE $2::integer WHEN 1 THEN black_hash ELSE white_hash END) IS NULL",
    [ST_REMATCH] = "UPDATE games SET rematch_id = $2"
                   " WHERE id = $1 AND (rematch_id IS NULL OR rematch_id = $2 OR EXISTS"
                   " (SELECT 1 FROM games AS r WHERE r.id = games.rematch_id"
                   " AND r.cancelled_at_ms IS NOT NULL))",
    [ST_PUT_NOTES] =
        "INSERT INTO notes (game_id, color, ghosts_json, updated_at_ms)"
        " SELECT $1, $2::integer, $3, $4::bigint WHERE EXISTS (SELECT 1 FROM games WHERE id = $1)"
        " ON CONFLICT (game_id, color) DO UPDATE"
        " SET ghosts_json = excluded.ghosts_json, updated_at_ms = excluded.updated_at_ms",
    [PW_GAME_EXISTS] = "SELECT 1 FROM games WHERE id = $1",
    [ST_PUT_NAME] = "INSERT INTO seat_names (game_id, color, name, updated_at_ms)"
                    " SELECT $1, $2::integer, $3, $4::bigint WHERE EXISTS (SELECT 1 FROM games WHERE id = $1)"
                    " ON CONFLICT (game_id, color) DO UPDATE"
                    " SET name = excluded.name, updated_at_ms = excluded.updated_at_ms",
    /* Removing a name nobody set changes nothing and is no error. */
    [ST_CLEAR_NAME] = "DELETE FROM seat_names WHERE game_id = $1 AND color = $2::integer",
    [ST_APPEND_CHAT] = "INSERT INTO chat (game_id, room, n, author, name, text, at_ms)"
                       " SELECT $1, $2::integer, $3::integer, $4::integer, $5, $6, $7::bigint"
                       " WHERE EXISTS (SELECT 1 FROM games WHERE id = $1)"
                       " ON CONFLICT (game_id, room, n) DO NOTHING",
    /* Only while the invite is unused (store_chat.h). */
    [ST_CANCEL] = "UPDATE games SET cancelled_at_ms = $2::bigint, invite_hash = NULL, invite_color = 0"
                  " WHERE id = $1 AND cancelled_at_ms IS NULL"
                  " AND invite_hash IS NOT NULL",
    /* Idempotency records: store_idempotency.c's statements, same parameters. */
    [ST_IDEM_RESERVE] = "INSERT INTO idempotency (id, owner, created_at_ms, answer, seed)"
                        " VALUES ($1, $2::bigint, $3::bigint, NULL, $6::bytea)"
                        " ON CONFLICT (id) DO UPDATE"
                        " SET owner = excluded.owner, created_at_ms = excluded.created_at_ms, answer = NULL,"
                        " seed = CASE WHEN idempotency.answer IS NULL"
                        " THEN idempotency.seed ELSE excluded.seed END"
                        " WHERE (idempotency.answer IS NULL AND idempotency.created_at_ms < $4::bigint)"
                        " OR idempotency.created_at_ms < $5::bigint",
    [ST_IDEM_FINISH] = "UPDATE idempotency SET answer = $3::bytea"
                       " WHERE id = $1 AND owner = $2::bigint AND answer IS NULL",
    [ST_IDEM_RELEASE] = "DELETE FROM idempotency WHERE id = $1 AND owner = $2::bigint AND answer IS NULL",
    [ST_IDEM_PURGE] = "DELETE FROM idempotency WHERE $1::text IS NOT NULL AND id IN"
                      " (SELECT id FROM idempotency WHERE created_at_ms < $2::bigint LIMIT 200)",
    /* Web Push (store_push.c): $1 is the game, NULL for the key. */
    [ST_PUSH_KEY] = "INSERT INTO push_key (id, private_key, public_key, created_at_ms)"
                    " SELECT 1, $2::bytea, $3::bytea, $4::bigint WHERE $1::text IS NULL"
                    " ON CONFLICT (id) DO NOTHING",
    [ST_PUSH_SUBSCRIBE] =
        "INSERT INTO push_subscriptions (game_id, color, endpoint, p256dh, auth, lang, created_at_ms)"
        " SELECT $1, $2::integer, $3, $4::bytea, $5::bytea, $6, $7::bigint"
        " WHERE EXISTS (SELECT 1 FROM games WHERE id = $1) AND (EXISTS (SELECT 1 FROM push_subscriptions"
        " WHERE game_id = $1 AND color = $2::integer AND endpoint = $3) OR (SELECT count(*)"
        " FROM push_subscriptions WHERE game_id = $1 AND color = $2::integer) < $8::integer)"
        " ON CONFLICT (game_id, color, endpoint) DO UPDATE"
        " SET p256dh = excluded.p256dh, auth = excluded.auth, lang = excluded.lang",
    [ST_PUSH_UNSUBSCRIBE] = "DELETE FROM push_subscriptions WHERE game_id = $1 AND color = $2::integer"
                            " AND ($3::text IS NULL OR endpoint = $3)",
    [ST_PUSH_ENQUEUE] =
        "INSERT INTO push_outbox (game_id, color, endpoint, notice, kind, payload, urgency, state,"
        " next_at_ms, created_at_ms)"
        " SELECT s.game_id, s.color, s.endpoint, $3::bigint, $4, $5, $6, $7::integer, $8::bigint, $8::bigint"
        " FROM push_subscriptions s WHERE s.game_id = $1 AND s.color = $2::integer AND NOT EXISTS"
        " (SELECT 1 FROM push_outbox o WHERE o.game_id = s.game_id AND o.color = s.color"
        " AND o.endpoint = s.endpoint AND o.notice >= $3::bigint)"
        " ON CONFLICT DO NOTHING",
    [ST_PUSH_CLAIM] = "UPDATE push_outbox SET next_at_ms = $3::bigint"
                      " WHERE id = $2::bigint AND game_id = $1 AND state = 0 AND next_at_ms <= $4::bigint",
    [ST_PUSH_FINISH] = "UPDATE push_outbox SET state = $3::integer, attempts = attempts + 1"
                       " WHERE id = $2::bigint AND game_id = $1",
    [ST_PUSH_RETRY] = "UPDATE push_outbox SET next_at_ms = $3::bigint, attempts = attempts + 1"
                      " WHERE id = $2::bigint AND game_id = $1 AND state = 0",
};

/* A statement's parameters for libpq, from its values: text (integers
 * and booleans written out), blobs binary, NULL as NULL. */
typedef struct {
    const char *values[STORE_MAX_PARAMS];
    int lengths[STORE_MAX_PARAMS];
    int formats[STORE_MAX_PARAMS];
    char numbers[STORE_MAX_PARAMS][24];
    int count;
} params;

static void bind_values(params *p, const store_value *values, int count) {
    memset(p, 0, sizeof *p);
    p->count = count;
    for (int i = 0; i < count; i++) {
        const store_value *v = &values[i];
        switch (v->kind) {
        case SV_NULL: p->values[i] = NULL; break;
        case SV_INT:
            snprintf(p->numbers[i], sizeof p->numbers[i], "%" PRId64, v->i);
            p->values[i] = p->numbers[i];
            break;
        case SV_BOOL: p->values[i] = v->i ? "true" : "false"; break;
        case SV_TEXT: p->values[i] = v->p; break;
        case SV_BLOB:
            p->values[i] = v->p;
            p->lengths[i] = (int)v->len;
            p->formats[i] = 1;
            break;
        }
    }
}

static PGresult *exec_prepared(PGconn *conn, int which, const params *p) {
    char name[16];
    snprintf(name, sizeof name, "w%d", (int)which);
    return PQexecPrepared(conn, name, p->count, p->values, p->lengths, p->formats, 0);
}

/* After a write that changed no row: the game is missing, or the row
 * refused the change (duplicate, seat taken, other rematch). */
static int why_unchanged(PGconn *conn, const store_value *game, bool *failed, bool *broken) {
    params p;
    bind_values(&p, game, 1);
    PGresult *res = exec_prepared(conn, PW_GAME_EXISTS, &p);
    int code;
    if (PQresultStatus(res) == PGRES_TUPLES_OK) {
        code = PQntuples(res) ? STORE_CONFLICT : STORE_NOT_FOUND;
    } else {
        *failed = true;
        code = pg_code_of(conn, res, broken);
    }
    PQclear(res);
    return code;
}

static bool run_command(PGconn *conn, const char *sql, bool *broken);

/* Runs one step inside the open transaction. *failed: the statement failed
 * (the transaction is aborted); *broken: the connection must go. */
static int apply_step(PGconn *conn, const store_step *step, bool *failed, bool *broken) {
    params p;
    bind_values(&p, step->values, step->count);
    PGresult *res = exec_prepared(conn, step->stmt, &p);
    int code;
    *failed = *broken = false;
    if (PQresultStatus(res) == PGRES_COMMAND_OK) {
        bool changed = strcmp(PQcmdTuples(res), "0") != 0 || !step->must_change;
        code = changed ? STORE_OK : why_unchanged(conn, step->values, failed, broken);
    } else {
        *failed = true;
        code = pg_code_of(conn, res, broken);
    }
    PQclear(res);
    return code;
}

/* A request of two steps (a rematch's new game and the old game's link to
 * it), both or neither: a savepoint undoes the first when the second is
 * refused. */
static int apply_request(PGconn *conn, const write_req *r, bool *failed, bool *broken) {
    *failed = *broken = false;
    if (r->nsteps == 1) return apply_step(conn, &r->steps[0], failed, broken);
    if (!run_command(conn, "SAVEPOINT rematch", broken)) {
        *failed = true;
        return STORE_UNAVAILABLE;
    }
    int code = STORE_OK;
    for (int i = 0; code == STORE_OK && !*failed && i < r->nsteps; i++)
        code = apply_step(conn, &r->steps[i], failed, broken);
    if (*failed || *broken) return code;
    bool cmd_broken;
    bool ok = run_command(
        conn, code == STORE_OK ? "RELEASE SAVEPOINT rematch" : "ROLLBACK TO SAVEPOINT rematch", &cmd_broken);
    if (!ok) {
        *failed = true;
        *broken = cmd_broken;
        return STORE_UNAVAILABLE;
    }
    return code;
}

static bool run_command(PGconn *conn, const char *sql, bool *broken) {
    PGresult *res = PQexec(conn, sql);
    bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
    *broken = false;
    if (!ok) pg_code_of(conn, res, broken);
    PQclear(res);
    return ok;
}

static void set_all(write_req *list, int code) {
    for (write_req *r = list; r; r = r->next) r->result = code;
}

/* LOST: the connection failed before COMMIT was sent, so nothing of the
 * batch is in the database; UNKNOWN: COMMIT was sent and its answer lost. */
enum batch_outcome { BATCH_COMMITTED, BATCH_ROLLED_BACK, BATCH_LOST, BATCH_UNKNOWN };

/* The whole list in one transaction. */
static enum batch_outcome run_batch(PGconn *conn, write_req *list) {
    bool broken;
    if (!run_command(conn, "BEGIN", &broken)) return broken ? BATCH_LOST : BATCH_ROLLED_BACK;
    for (write_req *r = list; r; r = r->next) {
        bool failed;
        r->result = apply_request(conn, r, &failed, &broken);
        if (broken) return BATCH_LOST;
        if (failed) {
            run_command(conn, "ROLLBACK", &broken);
            return broken ? BATCH_LOST : BATCH_ROLLED_BACK;
        }
    }
    if (run_command(conn, "COMMIT", &broken)) return BATCH_COMMITTED;
    if (broken) return BATCH_UNKNOWN;
    run_command(conn, "ROLLBACK", &broken); /* a refused COMMIT commits nothing */
    return BATCH_ROLLED_BACK;
}

/* After a rolled-back batch: each request in a transaction of its own, its
 * result its own. */
static bool run_each_alone(PGconn *conn, write_req *list) {
    for (write_req *r = list; r; r = r->next) {
        write_req *rest = r->next;
        r->next = NULL;
        enum batch_outcome outcome = run_batch(conn, r);
        r->next = rest;
        if (outcome == BATCH_LOST || outcome == BATCH_UNKNOWN) {
            set_all(r, STORE_UNAVAILABLE);
            return false;
        }
        if (outcome == BATCH_ROLLED_BACK && r->result == STORE_OK) r->result = STORE_ERROR;
    }
    return true;
}

void pg_store_commit(pg_store *pg, write_req *list) {
    char err[512];
    /* A connection that broke while idle is only found out by using it:
     * a batch that it lost before COMMIT is tried once more on a fresh
     * connection before it is refused. */
    for (int attempt = 0; attempt < 2; attempt++) {
        bool fresh = !pg->writer.conn;
        if (pg_link_ensure(pg, &pg->writer, "w", pg_write_sql, PW_COUNT, err, sizeof err) != STORE_OK) {
            fprintf(stderr, "store: %s\n", err);
            set_all(list, STORE_UNAVAILABLE);
            return;
        }
        enum batch_outcome outcome = run_batch(pg->writer.conn, list);
        if (outcome == BATCH_COMMITTED) return;
        if (outcome == BATCH_ROLLED_BACK) {
            if (!run_each_alone(pg->writer.conn, list)) pg_link_drop(&pg->writer);
            return;
        }
        fprintf(stderr, "store: the PostgreSQL connection failed: %s\n", PQerrorMessage(pg->writer.conn));
        pg_link_drop(&pg->writer);
        set_all(list, STORE_UNAVAILABLE);
        if (fresh || outcome == BATCH_UNKNOWN) return;
    }
}
