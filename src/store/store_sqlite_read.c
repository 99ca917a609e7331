/* The SQLite backend's reads: a small pool of read-only connections, each
 * with its statements prepared once, lent to one thread at a time. In WAL
 * mode they read beside the writer without waiting for it, and each read
 * transaction sees every commit that finished before it began, so a write
 * acknowledged to one thread is visible to the next read of any thread.
 * Lists of ids are copied out before the connection goes back, so the
 * public caller may call the store again from its callback. */
#include "store/store_chat.h"
#include "store/store_idempotency.h"
#include "store/store_push.h"
#include "store/store_rows.h"
#include "store/store_sqlite_db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const sqlite_read_sql[SR_COUNT] = {
    [SR_BEGIN] = "BEGIN",
    [SR_COMMIT] = "COMMIT",
    [SR_GAME] = "SELECT id, created_at_ms, mode, settings_json, options_json, black_hash, white_hash,"
                " invite_hash, invite_color, rematch_id, time_control_json, public,"
                " coalesce(started_at_ms, 0), coalesce(cancelled_at_ms, 0) FROM games WHERE id = ?1",
    [SR_ACTIONS] = "SELECT seq, kind, color, vertex, at_ms FROM actions WHERE game_id = ?1 ORDER BY seq",
    [SR_NOTES] = "SELECT n.ghosts_json FROM games g"
                 " LEFT JOIN notes n ON n.game_id = g.id AND n.color = ?2 WHERE g.id = ?1",
    [SR_LIST_ALL] = "SELECT id FROM games ORDER BY created_at_ms, id",
    [SR_LIST_RESUME] =
        "SELECT g.id FROM games g WHERE g.mode = 'computer' AND coalesce("
        " (SELECT a.kind FROM actions a WHERE a.game_id = g.id ORDER BY a.seq DESC LIMIT 1), '')"
        " NOT IN ('resign', 'timeout', 'forfeit') ORDER BY g.created_at_ms, g.id",
    [SR_LIST_CLOCKS] =
        "SELECT g.id FROM games g WHERE g.started_at_ms IS NOT NULL"
        " AND (json_extract(g.time_control_json, '$.type') <> 'none'"
        "      OR json_extract(g.time_control_json, '$.days_per_move') IS NOT NULL)"
        " AND coalesce((SELECT a.kind FROM actions a WHERE a.game_id = g.id ORDER BY a.seq DESC LIMIT 1), '')"
        " NOT IN ('resign', 'timeout', 'forfeit') ORDER BY g.created_at_ms, g.id",
    [SR_LIST_PUBLIC] =
        "SELECT g.id FROM games g WHERE g.public = 1 AND g.cancelled_at_ms IS NULL AND coalesce("
        " (SELECT a.kind FROM actions a WHERE a.game_id = g.id ORDER BY a.seq DESC LIMIT 1), '')"
        " NOT IN ('resign', 'timeout', 'forfeit') ORDER BY g.created_at_ms DESC, g.id",
    [SR_PING] = "SELECT count(*) FROM (SELECT 1 FROM games LIMIT 1)",
    /* Table talk. */
    [SR_NAMES] = "SELECT n.color, n.name FROM games g LEFT JOIN seat_names n ON n.game_id = g.id"
                 " WHERE g.id = ?1",
    [SR_CHAT_COUNT] = "SELECT coalesce(max(n), 0) FROM chat WHERE game_id = ?1 AND room = ?2",
    [SR_CHAT_READ] = "SELECT n, author, name, text, at_ms, removed_at_ms IS NOT NULL FROM chat"
                     " WHERE game_id = ?1 AND room = ?2 AND n > ?3 ORDER BY n LIMIT ?4",
    /* Idempotency-Key records. */
    [SR_IDEM_GET] = "SELECT created_at_ms, answer, seed FROM idempotency WHERE id = ?1",
    /* Web Push. */
    [SR_PUSH_KEY] = "SELECT private_key, public_key FROM push_key WHERE id = 1",
    [SR_PUSH_COUNT] = "SELECT count(*) FROM push_subscriptions WHERE game_id = ?1 AND color = ?2",
    [SR_PUSH_DUE] = "SELECT o.id, o.game_id, o.color, o.endpoint, o.kind, o.payload, o.urgency, o.attempts,"
                    " o.created_at_ms, s.p256dh, s.auth, s.lang"
                    " FROM push_outbox o JOIN push_subscriptions s"
                    " ON s.game_id = o.game_id AND s.color = o.color AND s.endpoint = o.endpoint"
                    " WHERE o.state = 0 AND o.next_at_ms <= ?1 ORDER BY o.next_at_ms, o.id LIMIT ?2",
    [SR_PUSH_NEXT] = "SELECT min(next_at_ms) FROM push_outbox WHERE state = 0",
    [SR_PUSH_GAMES] = "SELECT DISTINCT game_id FROM push_subscriptions",
};

/* Runs a statement without result rows (BEGIN/COMMIT); SQLite code. */
static int run_simple(sqlite3_stmt *s) {
    int rc = sqlite3_step(s);
    sqlite_stmt_done(s);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static void copy_text(char *dst, size_t cap, sqlite3_stmt *s, int col) {
    const unsigned char *t = sqlite3_column_text(s, col);
    snprintf(dst, cap, "%s", t ? (const char *)t : "");
}

static char *dup_text(sqlite3_stmt *s, int col) {
    const unsigned char *t = sqlite3_column_text(s, col);
    return strdup(t ? (const char *)t : "");
}

/* A row's columns as values for store_row_fill (store_rows.h); they point
 * into the statement until its next step or reset. */
static void column_values(sqlite3_stmt *s, const store_column *cols, int n, store_value *out) {
    for (int c = 0; c < n; c++) {
        switch (cols[c].kind) {
        case COL_HASH: {
            const void *blob = sqlite3_column_blob(s, c);
            out[c] = blob && sqlite3_column_bytes(s, c) == 32 ? sv_blob(blob, 32) : sv_null();
            break;
        }
        case COL_INT:
        case COL_INT64:
        case COL_FLAG: out[c] = sv_int(sqlite3_column_int64(s, c)); break;
        default: out[c] = sv_text((const char *)sqlite3_column_text(s, c)); break;
        }
    }
}

/* Copies a blob column of exactly n bytes; false for another length. */
static bool copy_bytes(uint8_t *dst, size_t n, sqlite3_stmt *s, int col) {
    if ((size_t)sqlite3_column_bytes(s, col) != n) return false;
    const void *b = sqlite3_column_blob(s, col);
    if (!b) return false;
    memcpy(dst, b, n);
    return true;
}

/* ---- games ---- */

static int read_game_row(sqlite_reader *r, const char *game_id, store_game *out) {
    sqlite3_stmt *s = r->stmt[SR_GAME];
    sqlite3_bind_text(s, 1, game_id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    int code = rc == SQLITE_ROW ? STORE_OK : rc == SQLITE_DONE ? STORE_NOT_FOUND : store_code_of(rc);
    if (code == STORE_OK) {
        store_value v[STORE_GAME_COLUMNS];
        column_values(s, store_game_columns, STORE_GAME_COLUMNS, v);
        if (!store_row_fill(store_game_columns, STORE_GAME_COLUMNS, v, out)) {
            store_game_free_fields(out);
            code = STORE_ERROR;
        }
    }
    sqlite_stmt_done(s);
    return code;
}

static int read_actions(sqlite_reader *r, const char *game_id, store_action **out, int *count) {
    sqlite3_stmt *s = r->stmt[SR_ACTIONS];
    sqlite3_bind_text(s, 1, game_id, -1, SQLITE_STATIC);
    store_action *list = NULL;
    int n = 0, cap = 0, rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            store_action *bigger = realloc(list, (size_t)cap * sizeof *list);
            if (!bigger) {
                rc = SQLITE_NOMEM;
                break;
            }
            list = bigger;
        }
        store_value v[STORE_ACTION_COLUMNS];
        column_values(s, store_action_columns, STORE_ACTION_COLUMNS, v);
        store_row_fill(store_action_columns, STORE_ACTION_COLUMNS, v, &list[n++]); /* nothing to allocate */
    }
    sqlite_stmt_done(s);
    if (rc != SQLITE_DONE) {
        free(list);
        return store_code_of(rc);
    }
    *out = list;
    *count = n;
    return STORE_OK;
}

/* The row and its log in one read transaction, so they match. */
int sqlite_load_game(sqlite_db *db, const char *game_id, store_game *row, store_action **actions,
                     int *count) {
    sqlite_reader *r = sqlite_reader_acquire(db);
    int rc = run_simple(r->stmt[SR_BEGIN]);
    int code = rc == SQLITE_OK ? read_game_row(r, game_id, row) : store_code_of(rc);
    if (code == STORE_OK && actions) {
        code = read_actions(r, game_id, actions, count);
        if (code != STORE_OK) store_game_free_fields(row);
    }
    if (rc == SQLITE_OK) run_simple(r->stmt[SR_COMMIT]);
    sqlite_reader_release(db, r);
    return code;
}

/* A read of the games table: it reaches the file, so a missing, locked or
 * unreadable database answers STORE_UNAVAILABLE. */
int sqlite_ping(sqlite_db *db) {
    sqlite_reader *r = sqlite_reader_acquire(db);
    sqlite3_stmt *s = r->stmt[SR_PING];
    int rc = sqlite3_step(s);
    sqlite_stmt_done(s);
    sqlite_reader_release(db, r);
    return rc == SQLITE_ROW ? STORE_OK : store_code_of(rc);
}

int sqlite_get_notes(sqlite_db *db, const char *game_id, int color, char **ghosts_json) {
    sqlite_reader *r = sqlite_reader_acquire(db);
    sqlite3_stmt *s = r->stmt[SR_NOTES];
    sqlite3_bind_text(s, 1, game_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, color);
    int rc = sqlite3_step(s);
    int code = rc == SQLITE_ROW ? STORE_OK : rc == SQLITE_DONE ? STORE_NOT_FOUND : store_code_of(rc);
    if (code == STORE_OK && sqlite3_column_type(s, 0) != SQLITE_NULL) {
        *ghosts_json = dup_text(s, 0);
        if (!*ghosts_json) code = STORE_ERROR;
    }
    sqlite_stmt_done(s);
    sqlite_reader_release(db, r);
    return code;
}

/* The first column of every row of statement `which`, as one malloc'd
 * array of fixed-size ids. */
static int collect_ids(sqlite_db *db, enum sqlite_read_stmt which, char (**ids)[24], int *count) {
    sqlite_reader *r = sqlite_reader_acquire(db);
    sqlite3_stmt *s = r->stmt[which];
    int cap = 0, rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (*count == cap) {
            cap = cap ? cap * 2 : 64;
            char(*bigger)[24] = realloc(*ids, (size_t)cap * sizeof **ids);
            if (!bigger) {
                rc = SQLITE_NOMEM;
                break;
            }
            *ids = bigger;
        }
        copy_text((*ids)[(*count)++], sizeof **ids, s, 0);
    }
    sqlite_stmt_done(s);
    sqlite_reader_release(db, r);
    return rc == SQLITE_DONE ? STORE_OK : rc == SQLITE_NOMEM ? STORE_ERROR : store_code_of(rc);
}

int sqlite_list_ids(sqlite_db *db, enum store_list which, char (**ids)[24], int *count) {
    static const enum sqlite_read_stmt stmt[SL_COUNT] = {
        [SL_ALL] = SR_LIST_ALL,
        [SL_COMPUTER_TO_RESUME] = SR_LIST_RESUME,
        [SL_CLOCK_TO_RESUME] = SR_LIST_CLOCKS,
        [SL_PUBLIC_TO_LIST] = SR_LIST_PUBLIC,
    };
    return collect_ids(db, stmt[which], ids, count);
}

/* ---- table talk ---- */

static bool color_ok(int color) { return color == 1 || color == 2; }

int sqlite_get_names(sqlite_db *db, const char *game_id, char names[2][STORE_BACKEND_NAME_BYTES]) {
    sqlite_reader *r = sqlite_reader_acquire(db);
    sqlite3_stmt *s = r->stmt[SR_NAMES];
    sqlite3_bind_text(s, 1, game_id, -1, SQLITE_STATIC);
    int rc, rows = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        rows++;
        int color = sqlite3_column_int(s, 0); /* NULL (0) when the game has no names */
        if (color_ok(color)) copy_text(names[color - 1], STORE_BACKEND_NAME_BYTES, s, 1);
    }
    sqlite_stmt_done(s);
    sqlite_reader_release(db, r);
    if (rc != SQLITE_DONE) return store_code_of(rc);
    return rows ? STORE_OK : STORE_NOT_FOUND;
}

int sqlite_chat_count(sqlite_db *db, const char *game_id, int room, int *n) {
    sqlite_reader *r = sqlite_reader_acquire(db);
    sqlite3_stmt *s = r->stmt[SR_CHAT_COUNT];
    sqlite3_bind_text(s, 1, game_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, room);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) *n = sqlite3_column_int(s, 0);
    sqlite_stmt_done(s);
    sqlite_reader_release(db, r);
    return rc == SQLITE_ROW ? STORE_OK : store_code_of(rc);
}

static void read_message(sqlite3_stmt *s, int room, store_chat_message *m) {
    m->room = room;
    m->n = sqlite3_column_int(s, 0);
    m->author = sqlite3_column_int(s, 1);
    copy_text(m->name, sizeof m->name, s, 2);
    copy_text(m->text, sizeof m->text, s, 3);
    m->at_ms = sqlite3_column_int64(s, 4);
    m->removed = sqlite3_column_int(s, 5) != 0;
}

int sqlite_read_chat(sqlite_db *db, const char *game_id, int room, int after_n, int limit,
                     store_chat_message *list, int *count) {
    sqlite_reader *r = sqlite_reader_acquire(db);
    sqlite3_stmt *s = r->stmt[SR_CHAT_READ];
    sqlite3_bind_text(s, 1, game_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, room);
    sqlite3_bind_int(s, 3, after_n);
    sqlite3_bind_int(s, 4, limit);
    int rc = SQLITE_DONE, n = 0;
    while (n < limit && (rc = sqlite3_step(s)) == SQLITE_ROW) read_message(s, room, &list[n++]);
    if (n == limit) rc = SQLITE_DONE;
    sqlite_stmt_done(s);
    sqlite_reader_release(db, r);
    *count = n;
    return rc == SQLITE_DONE ? STORE_OK : store_code_of(rc);
}

/* ---- Idempotency-Key records ---- */

/* A BLOB column into *out (malloc'd; NULL for NULL); false when out of memory. */
static bool dup_blob(sqlite3_stmt *s, int col, uint8_t **out, size_t *len) {
    const void *blob = sqlite3_column_blob(s, col);
    int n = sqlite3_column_bytes(s, col);
    if (!blob || n <= 0) return true;
    if (!(*out = malloc((size_t)n))) return false;
    memcpy(*out, blob, (size_t)n);
    *len = (size_t)n;
    return true;
}

int sqlite_idem_get(sqlite_db *db, const char *id, store_idem_record *out) {
    sqlite_reader *r = sqlite_reader_acquire(db);
    sqlite3_stmt *s = r->stmt[SR_IDEM_GET];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s), code = STORE_OK;
    if (rc == SQLITE_ROW) {
        out->created_at_ms = sqlite3_column_int64(s, 0);
        if (!dup_blob(s, 1, &out->answer, &out->answer_len) || !dup_blob(s, 2, &out->seed, &out->seed_len))
            code = STORE_ERROR;
    } else {
        code = rc == SQLITE_DONE ? STORE_NOT_FOUND : store_code_of(rc);
    }
    sqlite_stmt_done(s);
    sqlite_reader_release(db, r);
    return code;
}

/* ---- Web Push ---- */

int sqlite_push_key_get(sqlite_db *db, uint8_t priv[32], uint8_t pub[65]) {
    sqlite_reader *r = sqlite_reader_acquire(db);
    sqlite3_stmt *s = r->stmt[SR_PUSH_KEY];
    int rc = sqlite3_step(s), code;
    if (rc == SQLITE_ROW)
        code = copy_bytes(priv, 32, s, 0) && copy_bytes(pub, 65, s, 1) ? STORE_OK : STORE_ERROR;
    else code = rc == SQLITE_DONE ? STORE_NOT_FOUND : store_code_of(rc);
    sqlite_stmt_done(s);
    sqlite_reader_release(db, r);
    return code;
}

int sqlite_push_count(sqlite_db *db, const char *game_id, int color, int *n) {
    sqlite_reader *r = sqlite_reader_acquire(db);
    sqlite3_stmt *s = r->stmt[SR_PUSH_COUNT];
    sqlite3_bind_text(s, 1, game_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, color);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) *n = sqlite3_column_int(s, 0);
    sqlite_stmt_done(s);
    sqlite_reader_release(db, r);
    return rc == SQLITE_ROW ? STORE_OK : store_code_of(rc);
}

int sqlite_push_game_ids(sqlite_db *db, char (**ids)[24], int *count) {
    return collect_ids(db, SR_PUSH_GAMES, ids, count);
}

/* One row of SR_PUSH_DUE into m; false for a row the schema should have
 * refused (a key of the wrong length) or out of memory. */
static bool read_push_message(sqlite3_stmt *s, store_push_message *m) {
    memset(m, 0, sizeof *m);
    m->id = sqlite3_column_int64(s, 0);
    copy_text(m->game_id, sizeof m->game_id, s, 1);
    m->color = sqlite3_column_int(s, 2);
    copy_text(m->endpoint, sizeof m->endpoint, s, 3);
    copy_text(m->kind, sizeof m->kind, s, 4);
    const unsigned char *payload = sqlite3_column_text(s, 5);
    m->payload_json = strdup(payload ? (const char *)payload : "{}");
    const unsigned char *urgency = sqlite3_column_text(s, 6);
    m->high = urgency && !strcmp((const char *)urgency, "high");
    m->attempts = sqlite3_column_int(s, 7);
    m->created_at_ms = sqlite3_column_int64(s, 8);
    copy_text(m->lang, sizeof m->lang, s, 11);
    return m->payload_json && copy_bytes(m->p256dh, 65, s, 9) && copy_bytes(m->auth, 16, s, 10);
}

int sqlite_push_due(sqlite_db *db, int64_t now_ms, int limit, store_push_message *list, int *count) {
    sqlite_reader *r = sqlite_reader_acquire(db);
    sqlite3_stmt *s = r->stmt[SR_PUSH_DUE];
    sqlite3_bind_int64(s, 1, now_ms);
    sqlite3_bind_int(s, 2, limit);
    int rc = SQLITE_DONE, n = 0;
    bool ok = true;
    while (ok && n < limit && (rc = sqlite3_step(s)) == SQLITE_ROW) ok = read_push_message(s, &list[n++]);
    if (n == limit) rc = SQLITE_DONE;
    sqlite_stmt_done(s);
    sqlite_reader_release(db, r);
    *count = n;
    return !ok ? STORE_ERROR : rc == SQLITE_DONE ? STORE_OK : store_code_of(rc);
}

int sqlite_push_next_due(sqlite_db *db, int64_t *at_ms) {
    sqlite_reader *r = sqlite_reader_acquire(db);
    sqlite3_stmt *s = r->stmt[SR_PUSH_NEXT];
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL) *at_ms = sqlite3_column_int64(s, 0);
    sqlite_stmt_done(s);
    sqlite_reader_release(db, r);
    return rc == SQLITE_ROW ? STORE_OK : store_code_of(rc);
}
