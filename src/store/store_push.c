/* Web Push in the store (see store_push.h): the statements are this
 * file's own, prepared by store.c after store_chat.c's on the writer's and
 * every reader's connection; writes go through the group-commit writer
 * (store_submit_write), reads through the reader pool. The PostgreSQL
 * statements sit beside the backend's others (store_pg_write.c,
 * store_pg_read.c), as table talk's do. */
#include "store/store_push.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"
#include "store/store_pg.h"
#include "util/now.h"

const char *const store_push_write_sql[CW_COUNT - CW_PUSH_FIRST] = {
    [CW_PUSH_KEY - CW_PUSH_FIRST] = "INSERT INTO push_key (id, private_key, public_key, created_at_ms)"
                                    " VALUES (1, ?2, ?3, ?4) ON CONFLICT (id) DO NOTHING",
    /* Renewing an endpoint the seat holds is always allowed; a new one only
     * below the cap. No row inserted or updated: the cap (why_unchanged
     * answers STORE_CONFLICT for a game that exists). */
    [CW_PUSH_SUBSCRIBE - CW_PUSH_FIRST] =
        "INSERT INTO push_subscriptions (game_id, color, endpoint, p256dh, auth, lang, created_at_ms)"
        " SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7"
        " WHERE EXISTS (SELECT 1 FROM push_subscriptions WHERE game_id = ?1 AND color = ?2 AND endpoint = ?3)"
        " OR (SELECT count(*) FROM push_subscriptions WHERE game_id = ?1 AND color = ?2) < ?8"
        " ON CONFLICT (game_id, color, endpoint) DO UPDATE"
        " SET p256dh = excluded.p256dh, auth = excluded.auth, lang = excluded.lang",
    [CW_PUSH_UNSUBSCRIBE - CW_PUSH_FIRST] = "DELETE FROM push_subscriptions WHERE game_id = ?1 AND color = ?2"
                                            " AND (?3 IS NULL OR endpoint = ?3)",
    [CW_PUSH_ENQUEUE - CW_PUSH_FIRST] =
        "INSERT INTO push_outbox (game_id, color, endpoint, notice, kind, payload, urgency, state,"
        " next_at_ms, created_at_ms)"
        " SELECT s.game_id, s.color, s.endpoint, ?3, ?4, ?5, ?6, ?7, ?8, ?8 FROM push_subscriptions s"
        " WHERE s.game_id = ?1 AND s.color = ?2 AND NOT EXISTS (SELECT 1 FROM push_outbox o"
        " WHERE o.game_id = s.game_id AND o.color = s.color AND o.endpoint = s.endpoint AND o.notice >= ?3)"
        " ON CONFLICT DO NOTHING",
    [CW_PUSH_CLAIM - CW_PUSH_FIRST] = "UPDATE push_outbox SET next_at_ms = ?3"
                                      " WHERE id = ?2 AND state = 0 AND next_at_ms <= ?4",
    [CW_PUSH_FINISH - CW_PUSH_FIRST] = "UPDATE push_outbox SET state = ?3, attempts = attempts + 1 WHERE id = ?2",
    [CW_PUSH_RETRY - CW_PUSH_FIRST] = "UPDATE push_outbox SET next_at_ms = ?3, attempts = attempts + 1"
                                      " WHERE id = ?2 AND state = 0",
};

const char *const store_push_read_sql[CR_COUNT - CR_PUSH_FIRST] = {
    [CR_PUSH_KEY - CR_PUSH_FIRST] = "SELECT private_key, public_key FROM push_key WHERE id = 1",
    [CR_PUSH_COUNT - CR_PUSH_FIRST] = "SELECT count(*) FROM push_subscriptions WHERE game_id = ?1 AND color = ?2",
    [CR_PUSH_DUE - CR_PUSH_FIRST] =
        "SELECT o.id, o.game_id, o.color, o.endpoint, o.kind, o.payload, o.urgency, o.attempts,"
        " o.created_at_ms, s.p256dh, s.auth, s.lang"
        " FROM push_outbox o JOIN push_subscriptions s"
        " ON s.game_id = o.game_id AND s.color = o.color AND s.endpoint = o.endpoint"
        " WHERE o.state = 0 AND o.next_at_ms <= ?1 ORDER BY o.next_at_ms, o.id LIMIT ?2",
    [CR_PUSH_NEXT - CR_PUSH_FIRST] = "SELECT min(next_at_ms) FROM push_outbox WHERE state = 0",
    [CR_PUSH_GAMES - CR_PUSH_FIRST] = "SELECT DISTINCT game_id FROM push_subscriptions",
};

static bool color_ok(int color) { return color == 1 || color == 2; }

static bool lang_ok(const char *lang) {
    return !strcmp(lang, "en") || !strcmp(lang, "ru") || !strcmp(lang, "ko");
}

/* ---- writes: each argument is typed by its statement ---- */

static int bind_key(sqlite3_stmt *s, const void *arg) {
    const store_push_key_args *a = arg;
    return sqlite3_bind_blob(s, 2, a->priv, 32, SQLITE_STATIC) | sqlite3_bind_blob(s, 3, a->pub, 65, SQLITE_STATIC) |
           sqlite3_bind_int64(s, 4, a->at_ms);
}

int store_push_key_put(store *st, const uint8_t priv[32], const uint8_t pub[65]) {
    if (!st || !priv || !pub) return STORE_ERROR;
    store_push_key_args a = { priv, pub, now_wall_ms() };
    return store_submit_write(st, CW_PUSH_KEY, NULL, bind_key, &a, false);
}

static int bind_subscribe(sqlite3_stmt *s, const void *arg) {
    const store_push_subscribe_args *a = arg;
    const store_push_sub *sub = a->sub;
    return sqlite3_bind_int(s, 2, sub->color) | sqlite3_bind_text(s, 3, sub->endpoint, -1, SQLITE_STATIC) |
           sqlite3_bind_blob(s, 4, sub->p256dh, 65, SQLITE_STATIC) |
           sqlite3_bind_blob(s, 5, sub->auth, 16, SQLITE_STATIC) |
           sqlite3_bind_text(s, 6, sub->lang, -1, SQLITE_STATIC) | sqlite3_bind_int64(s, 7, a->at_ms) |
           sqlite3_bind_int(s, 8, a->per_seat);
}

int store_push_subscribe(store *st, const char *game_id, const store_push_sub *s) {
    if (!st || !game_id || !s || !color_ok(s->color) ||
        strnlen(s->endpoint, sizeof s->endpoint) >= sizeof s->endpoint || !*s->endpoint ||
        strnlen(s->lang, sizeof s->lang) >= sizeof s->lang || !lang_ok(s->lang))
        return STORE_ERROR;
    store_push_subscribe_args a = { s, now_wall_ms(), STORE_PUSH_PER_SEAT };
    return store_submit_write(st, CW_PUSH_SUBSCRIBE, game_id, bind_subscribe, &a, true);
}

static int bind_unsubscribe(sqlite3_stmt *s, const void *arg) {
    const store_push_unsubscribe_args *a = arg;
    return sqlite3_bind_int(s, 2, a->color) |
           (a->endpoint ? sqlite3_bind_text(s, 3, a->endpoint, -1, SQLITE_STATIC) : sqlite3_bind_null(s, 3));
}

int store_push_unsubscribe(store *st, const char *game_id, int color, const char *endpoint) {
    if (!st || !game_id || !color_ok(color)) return STORE_ERROR;
    store_push_unsubscribe_args a = { color, endpoint };
    return store_submit_write(st, CW_PUSH_UNSUBSCRIBE, game_id, bind_unsubscribe, &a, false);
}

static int bind_enqueue(sqlite3_stmt *s, const void *arg) {
    const store_push_notice *n = arg;
    return sqlite3_bind_int(s, 2, n->color) | sqlite3_bind_int64(s, 3, n->rank) |
           sqlite3_bind_text(s, 4, n->kind, -1, SQLITE_STATIC) |
           sqlite3_bind_text(s, 5, n->payload_json, -1, SQLITE_STATIC) |
           sqlite3_bind_text(s, 6, n->high ? "high" : "normal", -1, SQLITE_STATIC) |
           sqlite3_bind_int(s, 7, n->skipped ? STORE_PUSH_SKIPPED : STORE_PUSH_QUEUED) |
           sqlite3_bind_int64(s, 8, n->at_ms);
}

int store_push_enqueue(store *st, const char *game_id, const store_push_notice *n) {
    if (!st || !game_id || !n || !color_ok(n->color) || n->rank < 0 || !n->kind || !n->payload_json ||
        strnlen(n->kind, STORE_PUSH_KIND_BYTES) >= STORE_PUSH_KIND_BYTES)
        return STORE_ERROR;
    return store_submit_write(st, CW_PUSH_ENQUEUE, game_id, bind_enqueue, n, false);
}

/* ?2 the row, ?3 and (for a claim) ?4 its values. */
static int bind_row(sqlite3_stmt *s, const void *arg) {
    const store_push_row_args *r = arg;
    int rc = sqlite3_bind_int64(s, 2, r->id) | sqlite3_bind_int64(s, 3, r->a);
    if (sqlite3_bind_parameter_count(s) >= 4) rc |= sqlite3_bind_int64(s, 4, r->b);
    return rc;
}

int store_push_claim(store *st, const store_push_message *m, int64_t now_ms, int64_t lease_until_ms) {
    if (!st || !m) return STORE_ERROR;
    store_push_row_args a = { m->id, lease_until_ms, now_ms };
    return store_submit_write(st, CW_PUSH_CLAIM, m->game_id, bind_row, &a, true);
}

int store_push_finish(store *st, const store_push_message *m, int state) {
    if (!st || !m || (state != STORE_PUSH_SENT && state != STORE_PUSH_FAILED)) return STORE_ERROR;
    store_push_row_args a = { m->id, state, 0 };
    return store_submit_write(st, CW_PUSH_FINISH, m->game_id, bind_row, &a, false);
}

int store_push_retry(store *st, const store_push_message *m, int64_t next_at_ms) {
    if (!st || !m) return STORE_ERROR;
    store_push_row_args a = { m->id, next_at_ms, 0 };
    return store_submit_write(st, CW_PUSH_RETRY, m->game_id, bind_row, &a, false);
}

/* ---- reads ---- */

static void stmt_done(sqlite3_stmt *s) {
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
}

/* Copies a blob column of exactly n bytes; false for another length. */
static bool copy_blob(uint8_t *dst, size_t n, sqlite3_stmt *s, int col) {
    if ((size_t)sqlite3_column_bytes(s, col) != n) return false;
    const void *b = sqlite3_column_blob(s, col);
    if (!b) return false;
    memcpy(dst, b, n);
    return true;
}

static void copy_text(char *dst, size_t cap, sqlite3_stmt *s, int col) {
    const unsigned char *t = sqlite3_column_text(s, col);
    snprintf(dst, cap, "%s", t ? (const char *)t : "");
}

int store_push_key_get(store *st, uint8_t priv[32], uint8_t pub[65]) {
    if (!st || !priv || !pub) return STORE_ERROR;
    if (st->pg) return pg_store_push_key_get(st->pg, priv, pub);
    store_reader *r = store_reader_acquire(st);
    sqlite3_stmt *s = r->chat[CR_PUSH_KEY];
    int rc = sqlite3_step(s), code;
    if (rc == SQLITE_ROW) code = copy_blob(priv, 32, s, 0) && copy_blob(pub, 65, s, 1) ? STORE_OK : STORE_ERROR;
    else code = rc == SQLITE_DONE ? STORE_NOT_FOUND : store_code_of(rc);
    stmt_done(s);
    store_reader_release(st, r);
    return code;
}

int store_push_count(store *st, const char *game_id, int color, int *out_n) {
    if (!st || !game_id || !out_n || !color_ok(color)) return STORE_ERROR;
    *out_n = 0;
    if (st->pg) return pg_store_push_count(st->pg, game_id, color, out_n);
    store_reader *r = store_reader_acquire(st);
    sqlite3_stmt *s = r->chat[CR_PUSH_COUNT];
    sqlite3_bind_text(s, 1, game_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, color);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) *out_n = sqlite3_column_int(s, 0);
    stmt_done(s);
    store_reader_release(st, r);
    return rc == SQLITE_ROW ? STORE_OK : store_code_of(rc);
}

int store_push_games(store *st, int (*each)(void *ctx, const char *game_id), void *ctx) {
    if (!st || !each) return STORE_ERROR;
    /* Read the ids first, then call each with no connection held. */
    char (*ids)[24] = NULL;
    int n = 0, cap = 0, rc;
    if (st->pg) {
        int code = pg_store_push_game_ids(st->pg, &ids, &n);
        for (int i = 0; code == STORE_OK && i < n; i++) code = each(ctx, ids[i]);
        free(ids);
        return code;
    }
    store_reader *r = store_reader_acquire(st);
    sqlite3_stmt *s = r->chat[CR_PUSH_GAMES];
    bool oom = false;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (n == cap) {
            int ncap = cap ? cap * 2 : 16;
            char(*grown)[24] = realloc(ids, (size_t)ncap * sizeof *ids);
            if (!grown) {
                oom = true;
                break;
            }
            ids = grown;
            cap = ncap;
        }
        copy_text(ids[n++], sizeof ids[0], s, 0);
    }
    stmt_done(s);
    store_reader_release(st, r);
    int code = oom ? STORE_ERROR : rc == SQLITE_DONE ? STORE_OK : store_code_of(rc);
    for (int i = 0; code == STORE_OK && i < n; i++) code = each(ctx, ids[i]);
    free(ids);
    return code;
}

void store_push_messages_free(store_push_message *list, int count) {
    for (int i = 0; list && i < count; i++) free(list[i].payload_json);
    free(list);
}

/* One row of CR_PUSH_DUE into m; false for a row the schema should have
 * refused (a key of the wrong length) or out of memory. */
static bool read_message(sqlite3_stmt *s, store_push_message *m) {
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
    return m->payload_json && copy_blob(m->p256dh, 65, s, 9) && copy_blob(m->auth, 16, s, 10);
}

int store_push_due(store *st, int64_t now_ms, int limit, store_push_message **out, int *out_count) {
    if (out) *out = NULL;
    if (out_count) *out_count = 0;
    if (!st || !out || !out_count || limit <= 0) return STORE_ERROR;
    store_push_message *list = calloc((size_t)limit, sizeof *list);
    if (!list) return STORE_ERROR;
    if (st->pg) {
        int n = 0, code = pg_store_push_due(st->pg, now_ms, limit, list, &n);
        if (code != STORE_OK || n == 0) {
            store_push_messages_free(list, n);
            return code;
        }
        *out = list;
        *out_count = n;
        return STORE_OK;
    }
    store_reader *r = store_reader_acquire(st);
    sqlite3_stmt *s = r->chat[CR_PUSH_DUE];
    sqlite3_bind_int64(s, 1, now_ms);
    sqlite3_bind_int(s, 2, limit);
    int rc = SQLITE_DONE, n = 0;
    bool ok = true;
    while (ok && n < limit && (rc = sqlite3_step(s)) == SQLITE_ROW) ok = read_message(s, &list[n++]);
    if (n == limit) rc = SQLITE_DONE;
    stmt_done(s);
    store_reader_release(st, r);
    int code = !ok ? STORE_ERROR : rc == SQLITE_DONE ? STORE_OK : store_code_of(rc);
    if (code != STORE_OK || n == 0) {
        store_push_messages_free(list, n);
        return code;
    }
    *out = list;
    *out_count = n;
    return STORE_OK;
}

int store_push_next_due(store *st, int64_t *at_ms) {
    if (!st || !at_ms) return STORE_ERROR;
    *at_ms = INT64_MAX;
    if (st->pg) return pg_store_push_next_due(st->pg, at_ms);
    store_reader *r = store_reader_acquire(st);
    sqlite3_stmt *s = r->chat[CR_PUSH_NEXT];
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL) *at_ms = sqlite3_column_int64(s, 0);
    stmt_done(s);
    store_reader_release(st, r);
    return rc == SQLITE_ROW ? STORE_OK : store_code_of(rc);
}
