/* Table talk in the store: names, the two chat rooms, cancellation (see
 * store_chat.h), on both backends. The SQLite statements are this file's
 * own, prepared by store.c on the writer's and every reader's connection;
 * the PostgreSQL ones sit beside the backend's others (store_pg_write.c,
 * store_pg_read.c). Writes go through the group-commit writer
 * (store_submit_write), reads through the reader pools, so talk is exactly
 * as durable and as concurrent as the action log on either. */
#include "store/store_chat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"
#include "store/store_pg.h"
#include "util/now.h"

const char *const store_chat_write_sql[CW_IDEM_FIRST] = {
    [CW_PUT_NAME] = "INSERT INTO seat_names (game_id, color, name, updated_at_ms) VALUES (?1, ?2, ?3, ?4)"
                    " ON CONFLICT (game_id, color) DO UPDATE"
                    " SET name = excluded.name, updated_at_ms = excluded.updated_at_ms",
    [CW_CLEAR_NAME] = "DELETE FROM seat_names WHERE game_id = ?1 AND color = ?2",
    [CW_APPEND] = "INSERT INTO chat (game_id, room, n, author, name, text, at_ms)"
                  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    /* Only while the invite is unused: once the other seat is taken the
     * game belongs to two people and only resigning ends it. */
    [CW_CANCEL] = "UPDATE games SET cancelled_at_ms = ?2, invite_hash = NULL, invite_color = 0"
                  " WHERE id = ?1 AND cancelled_at_ms IS NULL AND invite_hash IS NOT NULL",
};

const char *const store_chat_read_sql[CR_IDEM_FIRST] = {
    [CR_NAMES] = "SELECT n.color, n.name FROM games g LEFT JOIN seat_names n ON n.game_id = g.id"
                 " WHERE g.id = ?1",
    [CR_COUNT_ROOM] = "SELECT coalesce(max(n), 0) FROM chat WHERE game_id = ?1 AND room = ?2",
    [CR_READ_ROOM] = "SELECT n, author, name, text, at_ms, removed_at_ms IS NOT NULL FROM chat"
                     " WHERE game_id = ?1 AND room = ?2 AND n > ?3 ORDER BY n LIMIT ?4",
};

static bool color_ok(int color) { return color == 1 || color == 2; }

static bool room_ok(int room) { return room == STORE_ROOM_PLAYERS || room == STORE_ROOM_SPECTATORS; }

static bool fits(const char *s, size_t cap) { return s && strnlen(s, cap) < cap; }

/* ---- writes ---- */

static int bind_name(sqlite3_stmt *s, const void *arg) {
    const store_name_args *a = arg;
    int rc = sqlite3_bind_int(s, 2, a->color);
    if (a->name)
        rc |= sqlite3_bind_text(s, 3, a->name, -1, SQLITE_STATIC) | sqlite3_bind_int64(s, 4, a->at_ms);
    return rc;
}

int store_put_name(store *st, const char *game_id, int color, const char *name) {
    if (!color_ok(color) || (name && !fits(name, STORE_NAME_BYTES))) return STORE_ERROR;
    bool clear = !name || !*name;
    store_name_args a = { color, clear ? NULL : name, now_wall_ms() };
    return store_submit_write(st, clear ? CW_CLEAR_NAME : CW_PUT_NAME, game_id, bind_name, &a, false);
}

static int bind_message(sqlite3_stmt *s, const void *arg) {
    const store_chat_message *m = arg;
    return sqlite3_bind_int(s, 2, m->room) | sqlite3_bind_int(s, 3, m->n) |
           sqlite3_bind_int(s, 4, m->author) | sqlite3_bind_text(s, 5, m->name, -1, SQLITE_STATIC) |
           sqlite3_bind_text(s, 6, m->text, -1, SQLITE_STATIC) | sqlite3_bind_int64(s, 7, m->at_ms);
}

int store_append_chat(store *st, const char *game_id, const store_chat_message *m) {
    if (!m || !room_ok(m->room) || m->n < 1 || (m->author != 0 && !color_ok(m->author)) ||
        !fits(m->name, sizeof m->name) || !fits(m->text, sizeof m->text))
        return STORE_ERROR;
    return store_submit_write(st, CW_APPEND, game_id, bind_message, m, false);
}

static int bind_cancel(sqlite3_stmt *s, const void *arg) {
    return sqlite3_bind_int64(s, 2, *(const int64_t *)arg);
}

int store_cancel_game(store *st, const char *game_id, int64_t at_ms) {
    if (at_ms <= 0) return STORE_ERROR;
    return store_submit_write(st, CW_CANCEL, game_id, bind_cancel, &at_ms, true);
}

/* ---- reads ---- */

static void stmt_done(sqlite3_stmt *s) {
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
}

static void copy_column(char *dst, size_t cap, sqlite3_stmt *s, int col) {
    const unsigned char *t = sqlite3_column_text(s, col);
    snprintf(dst, cap, "%s", t ? (const char *)t : "");
}

int store_get_names(store *st, const char *game_id, char names[2][STORE_NAME_BYTES]) {
    if (!st || !game_id || !names) return STORE_ERROR;
    names[0][0] = names[1][0] = '\0';
    if (st->pg) return pg_store_get_names(st->pg, game_id, names);
    store_reader *r = store_reader_acquire(st);
    sqlite3_stmt *s = r->chat[CR_NAMES];
    sqlite3_bind_text(s, 1, game_id, -1, SQLITE_STATIC);
    int rc, rows = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        rows++;
        int color = sqlite3_column_int(s, 0); /* NULL (0) when the game has no names */
        if (color_ok(color)) copy_column(names[color - 1], STORE_NAME_BYTES, s, 1);
    }
    stmt_done(s);
    store_reader_release(st, r);
    if (rc != SQLITE_DONE) return store_code_of(rc);
    return rows ? STORE_OK : STORE_NOT_FOUND;
}

int store_chat_count(store *st, const char *game_id, int room, int *out_n) {
    if (!st || !game_id || !room_ok(room) || !out_n) return STORE_ERROR;
    *out_n = 0;
    if (st->pg) return pg_store_chat_count(st->pg, game_id, room, out_n);
    store_reader *r = store_reader_acquire(st);
    sqlite3_stmt *s = r->chat[CR_COUNT_ROOM];
    sqlite3_bind_text(s, 1, game_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, room);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) *out_n = sqlite3_column_int(s, 0);
    stmt_done(s);
    store_reader_release(st, r);
    return rc == SQLITE_ROW ? STORE_OK : store_code_of(rc);
}

static void read_message(sqlite3_stmt *s, int room, store_chat_message *m) {
    m->room = room;
    m->n = sqlite3_column_int(s, 0);
    m->author = sqlite3_column_int(s, 1);
    copy_column(m->name, sizeof m->name, s, 2);
    copy_column(m->text, sizeof m->text, s, 3);
    m->at_ms = sqlite3_column_int64(s, 4);
    m->removed = sqlite3_column_int(s, 5) != 0;
}

int store_read_chat(store *st, const char *game_id, int room, int after_n, int limit,
                    store_chat_message **out, int *out_count) {
    if (out) *out = NULL;
    if (out_count) *out_count = 0;
    if (!st || !game_id || !room_ok(room) || limit < 0 || !out || !out_count) return STORE_ERROR;
    if (limit == 0) return STORE_OK;
    if (limit > STORE_CHAT_READ_MAX) limit = STORE_CHAT_READ_MAX;
    if (st->pg) return pg_store_read_chat(st->pg, game_id, room, after_n, limit, out, out_count);
    store_chat_message *list = malloc((size_t)limit * sizeof *list);
    if (!list) return STORE_ERROR;
    store_reader *r = store_reader_acquire(st);
    sqlite3_stmt *s = r->chat[CR_READ_ROOM];
    sqlite3_bind_text(s, 1, game_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, room);
    sqlite3_bind_int(s, 3, after_n);
    sqlite3_bind_int(s, 4, limit);
    int rc = SQLITE_DONE, n = 0;
    while (n < limit && (rc = sqlite3_step(s)) == SQLITE_ROW) read_message(s, room, &list[n++]);
    if (n == limit) rc = SQLITE_DONE;
    stmt_done(s);
    store_reader_release(st, r);
    if (rc != SQLITE_DONE || n == 0) {
        free(list);
        return rc == SQLITE_DONE ? STORE_OK : store_code_of(rc);
    }
    *out = list;
    *out_count = n;
    return STORE_OK;
}
