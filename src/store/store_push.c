/* Web Push in the store (see store_push.h), built like store_chat.c: each
 * write describes its parameters as values (ST_PUSH_* in store_backend.h)
 * and goes through the group-commit writer (store_submit); reads go
 * through the backend's table. The SQL is the backends'. */
#include "store/store_push.h"

#include <stdlib.h>
#include <string.h>

#include "store/store_backend.h"
#include "util/now.h"

static bool color_ok(int color) { return color == 1 || color == 2; }

static bool lang_ok(const char *lang) {
    return !strcmp(lang, "en") || !strcmp(lang, "ru") || !strcmp(lang, "ko");
}

/* ---- writes ---- */

int store_push_key_put(store *st, const uint8_t priv[32], const uint8_t pub[65]) {
    if (!st || !priv || !pub) return STORE_ERROR;
    store_value v[] = { sv_null(), sv_blob(priv, 32), sv_blob(pub, 65), sv_int(now_wall_ms()) };
    return store_submit(st, ST_PUSH_KEY, v, 4);
}

/* A subscription's row, and the cap: renewing an endpoint the seat holds
 * is always allowed, a new one only below the cap (no row written: the
 * cap, STORE_CONFLICT). */
int store_push_subscribe(store *st, const char *game_id, const store_push_sub *s) {
    if (!st || !game_id || !s || !color_ok(s->color) ||
        strnlen(s->endpoint, sizeof s->endpoint) >= sizeof s->endpoint || !*s->endpoint ||
        strnlen(s->lang, sizeof s->lang) >= sizeof s->lang || !lang_ok(s->lang))
        return STORE_ERROR;
    store_value v[] = { sv_text(game_id),       sv_int(s->color),           sv_text(s->endpoint),
                        sv_blob(s->p256dh, 65), sv_blob(s->auth, 16),       sv_text(s->lang),
                        sv_int(now_wall_ms()),  sv_int(STORE_PUSH_PER_SEAT) };
    return store_submit(st, ST_PUSH_SUBSCRIBE, v, 8);
}

int store_push_unsubscribe(store *st, const char *game_id, int color, const char *endpoint) {
    if (!st || !game_id || !color_ok(color)) return STORE_ERROR;
    store_value v[] = { sv_text(game_id), sv_int(color), sv_text(endpoint) };
    return store_submit(st, ST_PUSH_UNSUBSCRIBE, v, 3);
}

/* The outbox row of each of the seat's subscriptions. */
int store_push_enqueue(store *st, const char *game_id, const store_push_notice *n) {
    if (!st || !game_id || !n || !color_ok(n->color) || n->rank < 0 || !n->kind || !n->payload_json ||
        strnlen(n->kind, STORE_PUSH_KIND_BYTES) >= STORE_PUSH_KIND_BYTES)
        return STORE_ERROR;
    store_value v[] = { sv_text(game_id),
                        sv_int(n->color),
                        sv_int(n->rank),
                        sv_text(n->kind),
                        sv_text(n->payload_json),
                        sv_text(n->high ? "high" : "normal"),
                        sv_int(n->skipped ? STORE_PUSH_SKIPPED : STORE_PUSH_QUEUED),
                        sv_int(n->at_ms) };
    return store_submit(st, ST_PUSH_ENQUEUE, v, 8);
}

int store_push_claim(store *st, const store_push_message *m, int64_t now_ms, int64_t lease_until_ms) {
    if (!st || !m) return STORE_ERROR;
    store_value v[] = { sv_text(m->game_id), sv_int(m->id), sv_int(lease_until_ms), sv_int(now_ms) };
    return store_submit(st, ST_PUSH_CLAIM, v, 4);
}

int store_push_finish(store *st, const store_push_message *m, int state) {
    if (!st || !m || (state != STORE_PUSH_SENT && state != STORE_PUSH_FAILED)) return STORE_ERROR;
    store_value v[] = { sv_text(m->game_id), sv_int(m->id), sv_int(state) };
    return store_submit(st, ST_PUSH_FINISH, v, 3);
}

int store_push_retry(store *st, const store_push_message *m, int64_t next_at_ms) {
    if (!st || !m) return STORE_ERROR;
    store_value v[] = { sv_text(m->game_id), sv_int(m->id), sv_int(next_at_ms) };
    return store_submit(st, ST_PUSH_RETRY, v, 3);
}

/* ---- reads ---- */

int store_push_key_get(store *st, uint8_t priv[32], uint8_t pub[65]) {
    if (!st || !priv || !pub) return STORE_ERROR;
    return st->be->push_key_get(st->db, priv, pub);
}

int store_push_count(store *st, const char *game_id, int color, int *out_n) {
    if (!st || !game_id || !out_n || !color_ok(color)) return STORE_ERROR;
    *out_n = 0;
    return st->be->push_count(st->db, game_id, color, out_n);
}

int store_push_games(store *st, int (*each)(void *ctx, const char *game_id), void *ctx) {
    if (!st || !each) return STORE_ERROR;
    /* Read the ids first, then call each with no connection held. */
    char(*ids)[24] = NULL;
    int n = 0;
    int code = st->be->push_game_ids(st->db, &ids, &n);
    for (int i = 0; code == STORE_OK && i < n; i++) code = each(ctx, ids[i]);
    free(ids);
    return code;
}

void store_push_messages_free(store_push_message *list, int count) {
    for (int i = 0; list && i < count; i++) free(list[i].payload_json);
    free(list);
}

int store_push_due(store *st, int64_t now_ms, int limit, store_push_message **out, int *out_count) {
    if (out) *out = NULL;
    if (out_count) *out_count = 0;
    if (!st || !out || !out_count || limit <= 0) return STORE_ERROR;
    store_push_message *list = calloc((size_t)limit, sizeof *list);
    if (!list) return STORE_ERROR;
    int n = 0, code = st->be->push_due(st->db, now_ms, limit, list, &n);
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
    return st->be->push_next_due(st->db, at_ms);
}
