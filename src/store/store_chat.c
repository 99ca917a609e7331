/* Table talk in the store: names, the two chat rooms, cancellation (see
 * store_chat.h), on both backends. Each write describes its row as values
 * (ST_PUT_NAME, ST_CLEAR_NAME, ST_APPEND_CHAT, ST_CANCEL in store_backend.h)
 * and goes through the group-commit writer (store_submit), each read
 * through the backend's table, so talk is exactly as durable and as
 * concurrent as the action log on either backend. The SQL is the
 * backends' (store_sqlite_*.c, store_pg_*.c). */
#include "store/store_chat.h"

#include <stdlib.h>
#include <string.h>

#include "store/store_backend.h"
#include "util/now.h"

_Static_assert(STORE_BACKEND_NAME_BYTES == STORE_NAME_BYTES, "store_backend.h's copy of the name size");

static bool color_ok(int color) { return color == 1 || color == 2; }

static bool room_ok(int room) { return room == STORE_ROOM_PLAYERS || room == STORE_ROOM_SPECTATORS; }

static bool fits(const char *s, size_t cap) { return s && strnlen(s, cap) < cap; }

/* ---- writes ---- */

int store_put_name(store *st, const char *game_id, int color, const char *name) {
    if (!color_ok(color) || (name && !fits(name, STORE_NAME_BYTES)) || !game_id) return STORE_ERROR;
    if (!name || !*name) {
        store_value v[] = { sv_text(game_id), sv_int(color) };
        return store_submit(st, ST_CLEAR_NAME, v, 2);
    }
    store_value v[] = { sv_text(game_id), sv_int(color), sv_text(name), sv_int(now_wall_ms()) };
    return store_submit(st, ST_PUT_NAME, v, 4);
}

/* The chat row: game_id, room, n, author, name, text, at_ms. */
int store_append_chat(store *st, const char *game_id, const store_chat_message *m) {
    if (!game_id || !m || !room_ok(m->room) || m->n < 1 || (m->author != 0 && !color_ok(m->author)) ||
        !fits(m->name, sizeof m->name) || !fits(m->text, sizeof m->text))
        return STORE_ERROR;
    store_value v[] = { sv_text(game_id), sv_int(m->room),  sv_int(m->n),    sv_int(m->author),
                        sv_text(m->name), sv_text(m->text), sv_int(m->at_ms) };
    return store_submit(st, ST_APPEND_CHAT, v, 7);
}

int store_cancel_game(store *st, const char *game_id, int64_t at_ms) {
    if (at_ms <= 0 || !game_id) return STORE_ERROR;
    store_value v[] = { sv_text(game_id), sv_int(at_ms) };
    return store_submit(st, ST_CANCEL, v, 2);
}

/* ---- reads ---- */

int store_get_names(store *st, const char *game_id, char names[2][STORE_NAME_BYTES]) {
    if (!st || !game_id || !names) return STORE_ERROR;
    names[0][0] = names[1][0] = '\0';
    return st->be->get_names(st->db, game_id, names);
}

int store_chat_count(store *st, const char *game_id, int room, int *out_n) {
    if (!st || !game_id || !room_ok(room) || !out_n) return STORE_ERROR;
    *out_n = 0;
    return st->be->chat_count(st->db, game_id, room, out_n);
}

int store_read_chat(store *st, const char *game_id, int room, int after_n, int limit,
                    store_chat_message **out, int *out_count) {
    if (out) *out = NULL;
    if (out_count) *out_count = 0;
    if (!st || !game_id || !room_ok(room) || limit < 0 || !out || !out_count) return STORE_ERROR;
    if (limit == 0) return STORE_OK;
    if (limit > STORE_CHAT_READ_MAX) limit = STORE_CHAT_READ_MAX;
    store_chat_message *list = malloc((size_t)limit * sizeof *list);
    if (!list) return STORE_ERROR;
    int n = 0;
    int code = st->be->read_chat(st->db, game_id, room, after_n, limit, list, &n);
    if (code != STORE_OK || n == 0) {
        free(list);
        return code;
    }
    *out = list;
    *out_count = n;
    return STORE_OK;
}
