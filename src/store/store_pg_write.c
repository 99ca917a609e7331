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
#include "util/now.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const char *const pg_write_sql[PW_COUNT] = {
    [PW_INSERT_GAME] = "INSERT INTO games (id, created_at_ms, mode, settings_json, options_json,"
                       " black_hash, white_hash, invite_hash, invite_color, rematch_id,"
                       " time_control_json, public, started_at_ms)"
                       " VALUES ($1, $2::bigint, $3, $4, $5, $6::bytea, $7::bytea, $8::bytea, $9::integer,"
                       " $10, coalesce($11, '{\"type\":\"none\"}'), $12::boolean, nullif($13::bigint, 0))"
                       " ON CONFLICT (id) DO NOTHING",
    [PW_APPEND] = "INSERT INTO actions (game_id, seq, kind, color, vertex, at_ms)"
                  " SELECT $1, $2::integer, $3, $4::integer, $5, $6::bigint"
                  " WHERE EXISTS (SELECT 1 FROM games WHERE id = $1)"
                  " ON CONFLICT (game_id, seq) DO NOTHING",
    [PW_CLAIM] = "UPDATE games SET"
                 " black_hash = CASE $2::integer WHEN 1 THEN $3::bytea ELSE black_hash END,"
                 " white_hash = CASE $2::integer WHEN 2 THEN $3::bytea ELSE white_hash END,"
                 " invite_hash = NULL, invite_color = 0,"
                 " started_at_ms = coalesce(started_at_ms, $4::bigint)"
                 " WHERE id = $1 AND invite_hash IS NOT NULL AND invite_color = $2::integer"
                 " AND (CASE $2::integer WHEN 1 THEN black_hash ELSE white_hash END) IS NULL",
    [PW_REMATCH] = "UPDATE games SET rematch_id = $2"
                   " WHERE id = $1 AND (rematch_id IS NULL OR rematch_id = $2 OR EXISTS"
                   " (SELECT 1 FROM games AS r WHERE r.id = games.rematch_id"
                   " AND r.cancelled_at_ms IS NOT NULL))",
    [PW_PUT_NOTES] =
        "INSERT INTO notes (game_id, color, ghosts_json, updated_at_ms)"
        " SELECT $1, $2::integer, $3, $4::bigint WHERE EXISTS (SELECT 1 FROM games WHERE id = $1)"
        " ON CONFLICT (game_id, color) DO UPDATE"
        " SET ghosts_json = excluded.ghosts_json, updated_at_ms = excluded.updated_at_ms",
    [PW_GAME_EXISTS] = "SELECT 1 FROM games WHERE id = $1",
    [PW_PUT_NAME] = "INSERT INTO seat_names (game_id, color, name, updated_at_ms)"
                    " SELECT $1, $2::integer, $3, $4::bigint WHERE EXISTS (SELECT 1 FROM games WHERE id = $1)"
                    " ON CONFLICT (game_id, color) DO UPDATE"
                    " SET name = excluded.name, updated_at_ms = excluded.updated_at_ms",
    /* Removing a name nobody set changes nothing and is no error. */
    [PW_CLEAR_NAME] = "DELETE FROM seat_names WHERE game_id = $1 AND color = $2::integer",
    [PW_APPEND_CHAT] = "INSERT INTO chat (game_id, room, n, author, name, text, at_ms)"
                       " SELECT $1, $2::integer, $3::integer, $4::integer, $5, $6, $7::bigint"
                       " WHERE EXISTS (SELECT 1 FROM games WHERE id = $1)"
                       " ON CONFLICT (game_id, room, n) DO NOTHING",
    /* Only while the invite is unused (store_chat.h). */
    [PW_CANCEL] = "UPDATE games SET cancelled_at_ms = $2::bigint, invite_hash = NULL, invite_color = 0"
                  " WHERE id = $1 AND cancelled_at_ms IS NULL"
                  " AND invite_hash IS NOT NULL",
    /* Idempotency records: store_idempotency.c's statements, same parameters. */
    [PW_IDEM_RESERVE] = "INSERT INTO idempotency (id, owner, created_at_ms, answer, seed)"
                        " VALUES ($1, $2::bigint, $3::bigint, NULL, $6::bytea)"
                        " ON CONFLICT (id) DO UPDATE"
                        " SET owner = excluded.owner, created_at_ms = excluded.created_at_ms, answer = NULL,"
                        " seed = CASE WHEN idempotency.answer IS NULL"
                        " THEN idempotency.seed ELSE excluded.seed END"
                        " WHERE (idempotency.answer IS NULL AND idempotency.created_at_ms < $4::bigint)"
                        " OR idempotency.created_at_ms < $5::bigint",
    [PW_IDEM_FINISH] = "UPDATE idempotency SET answer = $3::bytea"
                       " WHERE id = $1 AND owner = $2::bigint AND answer IS NULL",
    [PW_IDEM_RELEASE] = "DELETE FROM idempotency WHERE id = $1 AND owner = $2::bigint AND answer IS NULL",
    [PW_IDEM_PURGE] = "DELETE FROM idempotency WHERE $1::text IS NOT NULL AND id IN"
                      " (SELECT id FROM idempotency WHERE created_at_ms < $2::bigint LIMIT 200)",
    /* Web Push (store_push.c): $1 is the game, NULL for the key. */
    [PW_PUSH_KEY] = "INSERT INTO push_key (id, private_key, public_key, created_at_ms)"
                    " SELECT 1, $2::bytea, $3::bytea, $4::bigint WHERE $1::text IS NULL"
                    " ON CONFLICT (id) DO NOTHING",
    [PW_PUSH_SUBSCRIBE] =
        "INSERT INTO push_subscriptions (game_id, color, endpoint, p256dh, auth, lang, created_at_ms)"
        " SELECT $1, $2::integer, $3, $4::bytea, $5::bytea, $6, $7::bigint"
        " WHERE EXISTS (SELECT 1 FROM games WHERE id = $1) AND (EXISTS (SELECT 1 FROM push_subscriptions"
        " WHERE game_id = $1 AND color = $2::integer AND endpoint = $3) OR (SELECT count(*)"
        " FROM push_subscriptions WHERE game_id = $1 AND color = $2::integer) < $8::integer)"
        " ON CONFLICT (game_id, color, endpoint) DO UPDATE"
        " SET p256dh = excluded.p256dh, auth = excluded.auth, lang = excluded.lang",
    [PW_PUSH_UNSUBSCRIBE] = "DELETE FROM push_subscriptions WHERE game_id = $1 AND color = $2::integer"
                            " AND ($3::text IS NULL OR endpoint = $3)",
    [PW_PUSH_ENQUEUE] =
        "INSERT INTO push_outbox (game_id, color, endpoint, notice, kind, payload, urgency, state,"
        " next_at_ms, created_at_ms)"
        " SELECT s.game_id, s.color, s.endpoint, $3::bigint, $4, $5, $6, $7::integer, $8::bigint, $8::bigint"
        " FROM push_subscriptions s WHERE s.game_id = $1 AND s.color = $2::integer AND NOT EXISTS"
        " (SELECT 1 FROM push_outbox o WHERE o.game_id = s.game_id AND o.color = s.color"
        " AND o.endpoint = s.endpoint AND o.notice >= $3::bigint)"
        " ON CONFLICT DO NOTHING",
    [PW_PUSH_CLAIM] = "UPDATE push_outbox SET next_at_ms = $3::bigint"
                      " WHERE id = $2::bigint AND game_id = $1 AND state = 0 AND next_at_ms <= $4::bigint",
    [PW_PUSH_FINISH] = "UPDATE push_outbox SET state = $3::integer, attempts = attempts + 1"
                       " WHERE id = $2::bigint AND game_id = $1",
    [PW_PUSH_RETRY] = "UPDATE push_outbox SET next_at_ms = $3::bigint, attempts = attempts + 1"
                      " WHERE id = $2::bigint AND game_id = $1 AND state = 0",
};

/* Parameters of one statement, as text except the hashes (binary). */
enum { MAX_PARAMS = 13 };
typedef struct {
    const char *values[MAX_PARAMS];
    int lengths[MAX_PARAMS];
    int formats[MAX_PARAMS];
    char numbers[MAX_PARAMS][24];
    int count;
} params;

static void add_text(params *p, const char *text) {
    p->values[p->count] = text;
    p->formats[p->count++] = 0;
}

static void add_int(params *p, int64_t v) {
    snprintf(p->numbers[p->count], sizeof p->numbers[0], "%" PRId64, v);
    add_text(p, p->numbers[p->count]);
}

static bool is_zero(const uint8_t *bytes, size_t n) {
    uint8_t any = 0;
    for (size_t i = 0; i < n; i++) any |= bytes[i];
    return any == 0;
}

/* A 32-byte hash; all zero means none (NULL). */
static void add_hash(params *p, const uint8_t *hash) {
    if (is_zero(hash, 32)) {
        add_text(p, NULL);
        return;
    }
    p->values[p->count] = (const char *)hash;
    p->lengths[p->count] = 32;
    p->formats[p->count++] = 1;
}

/* Bytes of any length, sent binary. */
static void add_blob(params *p, const void *bytes, size_t len) {
    p->values[p->count] = bytes;
    p->lengths[p->count] = (int)len;
    p->formats[p->count++] = 1;
}

/* An idempotency record's write (store_idem_args, store_internal.h). */
static enum pg_write_stmt bind_idem(enum chat_write_stmt which, const store_idem_args *a, params *p) {
    switch (which) {
    case CW_IDEM_RESERVE:
        add_int(p, a->owner);
        add_int(p, a->at_ms);
        add_int(p, a->stale_before);
        add_int(p, a->expired_before);
        if (a->seed) add_blob(p, a->seed, a->seed_len);
        else add_text(p, NULL);
        return PW_IDEM_RESERVE;
    case CW_IDEM_FINISH:
        add_int(p, a->owner);
        add_blob(p, a->answer, a->answer_len);
        return PW_IDEM_FINISH;
    case CW_IDEM_RELEASE: add_int(p, a->owner); return PW_IDEM_RELEASE;
    case CW_IDEM_PURGE: add_int(p, a->expired_before); return PW_IDEM_PURGE;
    default: break;
    }
    return PW_GAME_EXISTS;
}

/* A Web Push write: its argument is typed by its statement (store_internal.h). */
static enum pg_write_stmt bind_push(const write_req *r, params *p) {
    const void *arg = r->u.other.arg;
    switch (r->u.other.which) {
    case CW_PUSH_KEY: {
        const store_push_key_args *a = arg;
        add_blob(p, a->priv, 32);
        add_blob(p, a->pub, 65);
        add_int(p, a->at_ms);
        return PW_PUSH_KEY;
    }
    case CW_PUSH_SUBSCRIBE: {
        const store_push_subscribe_args *a = arg;
        const store_push_sub *sub = a->sub;
        add_int(p, sub->color);
        add_text(p, sub->endpoint);
        add_blob(p, sub->p256dh, 65);
        add_blob(p, sub->auth, 16);
        add_text(p, sub->lang);
        add_int(p, a->at_ms);
        add_int(p, a->per_seat);
        return PW_PUSH_SUBSCRIBE;
    }
    case CW_PUSH_UNSUBSCRIBE: {
        const store_push_unsubscribe_args *a = arg;
        add_int(p, a->color);
        add_text(p, a->endpoint);
        return PW_PUSH_UNSUBSCRIBE;
    }
    case CW_PUSH_ENQUEUE: {
        const store_push_notice *n = arg;
        add_int(p, n->color);
        add_int(p, n->rank);
        add_text(p, n->kind);
        add_text(p, n->payload_json);
        add_text(p, n->high ? "high" : "normal");
        add_int(p, n->skipped ? STORE_PUSH_SKIPPED : STORE_PUSH_QUEUED);
        add_int(p, n->at_ms);
        return PW_PUSH_ENQUEUE;
    }
    case CW_PUSH_CLAIM:
    case CW_PUSH_FINISH:
    case CW_PUSH_RETRY: {
        const store_push_row_args *a = arg;
        add_int(p, a->id);
        add_int(p, a->a);
        if (r->u.other.which == CW_PUSH_CLAIM) add_int(p, a->b);
        return r->u.other.which == CW_PUSH_CLAIM ? PW_PUSH_CLAIM
               : r->u.other.which == CW_PUSH_FINISH ? PW_PUSH_FINISH
                                                    : PW_PUSH_RETRY;
    }
    default: break;
    }
    return PW_GAME_EXISTS;
}

/* A talk write: its argument is typed by its statement (store_internal.h). */
static enum pg_write_stmt bind_talk(const write_req *r, params *p) {
    const void *arg = r->u.other.arg;
    switch (r->u.other.which) {
    case CW_PUT_NAME:
    case CW_CLEAR_NAME: {
        const store_name_args *a = arg;
        add_int(p, a->color);
        if (r->u.other.which == CW_CLEAR_NAME) return PW_CLEAR_NAME;
        add_text(p, a->name);
        add_int(p, a->at_ms);
        return PW_PUT_NAME;
    }
    case CW_APPEND: {
        const store_chat_message *m = arg;
        add_int(p, m->room);
        add_int(p, m->n);
        add_int(p, m->author);
        add_text(p, m->name);
        add_text(p, m->text);
        add_int(p, m->at_ms);
        return PW_APPEND_CHAT;
    }
    case CW_CANCEL: add_int(p, *(const int64_t *)arg); return PW_CANCEL;
    case CW_IDEM_RESERVE:
    case CW_IDEM_FINISH:
    case CW_IDEM_RELEASE:
    case CW_IDEM_PURGE: return bind_idem(r->u.other.which, arg, p);
    case CW_PUSH_KEY:
    case CW_PUSH_SUBSCRIBE:
    case CW_PUSH_UNSUBSCRIBE:
    case CW_PUSH_ENQUEUE:
    case CW_PUSH_CLAIM:
    case CW_PUSH_FINISH:
    case CW_PUSH_RETRY: return bind_push(r, p);
    case CW_COUNT: break;
    }
    return PW_GAME_EXISTS;
}

static enum pg_write_stmt bind_request(const write_req *r, params *p) {
    memset(p, 0, sizeof *p);
    add_text(p, r->game_id);
    switch (r->kind) {
    case W_INSERT_GAME: {
        const store_game *g = r->u.game;
        add_int(p, g->created_at_ms);
        add_text(p, g->mode);
        add_text(p, g->settings_json);
        add_text(p, g->options_json);
        add_hash(p, g->seat_hash[0]);
        add_hash(p, g->seat_hash[1]);
        add_hash(p, g->invite_hash);
        add_int(p, g->invite_color);
        add_text(p, *g->rematch_id ? g->rematch_id : NULL);
        add_text(p, g->time_control_json);
        add_text(p, g->is_public ? "true" : "false");
        add_int(p, g->started_at_ms);
        return PW_INSERT_GAME;
    }
    case W_APPEND: {
        const store_action *a = r->u.action;
        add_int(p, a->seq);
        add_text(p, a->kind);
        add_int(p, a->color);
        add_text(p, a->vertex);
        add_int(p, a->at_ms);
        return PW_APPEND;
    }
    case W_CLAIM:
        add_int(p, r->u.claim.color);
        add_hash(p, r->u.claim.hash);
        add_int(p, r->u.claim.at_ms);
        return PW_CLAIM;
    case W_REMATCH: add_text(p, r->u.rematch_id); return PW_REMATCH;
    case W_CREATE_REMATCH: break; /* two statements: see apply_create_rematch */
    case W_PUT_NOTES:
        add_int(p, r->u.notes.color);
        add_text(p, r->u.notes.json);
        add_int(p, now_wall_ms());
        return PW_PUT_NOTES;
    case W_OTHER: return bind_talk(r, p);
    }
    return PW_GAME_EXISTS;
}

static PGresult *exec_prepared(PGconn *conn, enum pg_write_stmt which, const params *p) {
    char name[16];
    snprintf(name, sizeof name, "w%d", (int)which);
    return PQexecPrepared(conn, name, p->count, p->values, p->lengths, p->formats, 0);
}

/* After a write that changed no row: the game is missing, or the row
 * refused the change (duplicate, seat taken, other rematch). */
static int why_unchanged(PGconn *conn, const char *game_id, bool *failed, bool *broken) {
    params p;
    memset(&p, 0, sizeof p);
    add_text(&p, game_id);
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

static int apply_request(PGconn *conn, const write_req *r, bool *failed, bool *broken);

/* Statements for which changing no row is no error: removing what is not
 * there, a key kept from another server, a notice already queued, a row
 * finished or retried that is gone with its subscription. */
static bool zero_rows_fine(enum pg_write_stmt which) {
    return which == PW_CLEAR_NAME || which == PW_IDEM_RELEASE || which == PW_IDEM_PURGE || which == PW_PUSH_KEY ||
           which == PW_PUSH_UNSUBSCRIBE || which == PW_PUSH_ENQUEUE || which == PW_PUSH_FINISH ||
           which == PW_PUSH_RETRY;
}

static bool run_command(PGconn *conn, const char *sql, bool *broken);

/* A rematch's new game and the old game's link to it, both or neither: a
 * savepoint undoes the insert when the link is refused. */
static int apply_create_rematch(PGconn *conn, const write_req *r, bool *failed, bool *broken) {
    if (!run_command(conn, "SAVEPOINT rematch", broken)) {
        *failed = true;
        return STORE_UNAVAILABLE;
    }
    write_req insert = { .kind = W_INSERT_GAME, .game_id = r->u.game->id, .u.game = r->u.game };
    write_req link = { .kind = W_REMATCH, .game_id = r->game_id, .u.rematch_id = r->u.game->id };
    int code = apply_request(conn, &insert, failed, broken);
    if (code == STORE_OK && !*failed) code = apply_request(conn, &link, failed, broken);
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

/* Runs r inside the open transaction. *failed: the statement failed (the
 * transaction is aborted); *broken: the connection must go. */
static int apply_request(PGconn *conn, const write_req *r, bool *failed, bool *broken) {
    *failed = *broken = false;
    if (r->kind == W_CREATE_REMATCH) return apply_create_rematch(conn, r, failed, broken);
    params p;
    enum pg_write_stmt which = bind_request(r, &p);
    PGresult *res = exec_prepared(conn, which, &p);
    int code;
    *failed = *broken = false;
    if (PQresultStatus(res) == PGRES_COMMAND_OK) {
        /* Removing what is not there is no error (as on SQLite). */
        bool changed = strcmp(PQcmdTuples(res), "0") != 0 || zero_rows_fine(which);
        code = changed ? STORE_OK : why_unchanged(conn, r->game_id, failed, broken);
    } else {
        *failed = true;
        code = pg_code_of(conn, res, broken);
    }
    PQclear(res);
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
