/* Reads: a small pool of read-only connections, each with its statements
 * prepared once, handed to one thread at a time. In WAL mode they read
 * beside the writer without waiting for it, and each read transaction sees
 * every commit that finished before it began, so a write acknowledged to one
 * thread is visible to the next read of any thread.
 *
 * store_list_games copies the ids out before calling back, so a callback may
 * itself call the store without holding a connection. */
#include "store/store_internal.h"
#include "store/store_pg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const store_read_sql[RS_COUNT] = {
    [RS_BEGIN] = "BEGIN",
    [RS_COMMIT] = "COMMIT",
    [RS_GAME] = "SELECT id, created_at_ms, mode, settings_json, options_json, black_hash, white_hash,"
                " invite_hash, invite_color, rematch_id, time_control_json, public,"
                " coalesce(started_at_ms, 0), coalesce(cancelled_at_ms, 0) FROM games WHERE id = ?1",
    [RS_ACTIONS] = "SELECT seq, kind, color, vertex, at_ms FROM actions WHERE game_id = ?1 ORDER BY seq",
    [RS_NOTES] = "SELECT n.ghosts_json FROM games g"
                 " LEFT JOIN notes n ON n.game_id = g.id AND n.color = ?2 WHERE g.id = ?1",
    [RS_LIST_ALL] = "SELECT id FROM games ORDER BY created_at_ms, id",
    [RS_LIST_RESUME] =
        "SELECT g.id FROM games g WHERE g.mode = 'computer' AND coalesce("
        " (SELECT a.kind FROM actions a WHERE a.game_id = g.id ORDER BY a.seq DESC LIMIT 1), '')"
        " NOT IN ('resign', 'timeout', 'forfeit') ORDER BY g.created_at_ms, g.id",
    [RS_LIST_CLOCKS] =
        "SELECT g.id FROM games g WHERE g.started_at_ms IS NOT NULL"
        " AND (json_extract(g.time_control_json, '$.type') <> 'none'"
        "      OR json_extract(g.time_control_json, '$.days_per_move') IS NOT NULL)"
        " AND coalesce((SELECT a.kind FROM actions a WHERE a.game_id = g.id ORDER BY a.seq DESC LIMIT 1), '')"
        " NOT IN ('resign', 'timeout', 'forfeit') ORDER BY g.created_at_ms, g.id",
    [RS_LIST_PUBLIC] =
        "SELECT g.id FROM games g WHERE g.public = 1 AND g.cancelled_at_ms IS NULL AND coalesce("
        " (SELECT a.kind FROM actions a WHERE a.game_id = g.id ORDER BY a.seq DESC LIMIT 1), '')"
        " NOT IN ('resign', 'timeout', 'forfeit') ORDER BY g.created_at_ms DESC, g.id",
    [RS_PING] = "SELECT count(*) FROM (SELECT 1 FROM games LIMIT 1)",
};

store_reader *store_reader_acquire(store *st) {
    pthread_mutex_lock(&st->reader_lock);
    while (st->free_count == 0) pthread_cond_wait(&st->reader_free, &st->reader_lock);
    store_reader *r = &st->readers[st->free_readers[--st->free_count]];
    pthread_mutex_unlock(&st->reader_lock);
    return r;
}

void store_reader_release(store *st, store_reader *r) {
    pthread_mutex_lock(&st->reader_lock);
    st->free_readers[st->free_count++] = (int)(r - st->readers);
    pthread_cond_signal(&st->reader_free);
    pthread_mutex_unlock(&st->reader_lock);
}

static void stmt_done(sqlite3_stmt *s) {
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
}

/* Runs a statement without result rows (BEGIN/COMMIT); SQLite code. */
static int run_simple(sqlite3_stmt *s) {
    int rc = sqlite3_step(s);
    stmt_done(s);
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

static void copy_hash(uint8_t dst[32], sqlite3_stmt *s, int col) {
    memset(dst, 0, 32);
    if (sqlite3_column_bytes(s, col) == 32) memcpy(dst, sqlite3_column_blob(s, col), 32);
}

void store_game_free_fields(store_game *g) {
    if (!g) return;
    free(g->settings_json);
    free(g->options_json);
    free(g->time_control_json);
    g->settings_json = g->options_json = g->time_control_json = NULL;
}

static int read_game_row(store_reader *r, const char *game_id, store_game *out) {
    sqlite3_stmt *s = r->stmt[RS_GAME];
    sqlite3_bind_text(s, 1, game_id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    int code = rc == SQLITE_ROW ? STORE_OK : rc == SQLITE_DONE ? STORE_NOT_FOUND : store_code_of(rc);
    if (code == STORE_OK) {
        copy_text(out->id, sizeof out->id, s, 0);
        out->created_at_ms = sqlite3_column_int64(s, 1);
        copy_text(out->mode, sizeof out->mode, s, 2);
        out->settings_json = dup_text(s, 3);
        out->options_json = dup_text(s, 4);
        copy_hash(out->seat_hash[0], s, 5);
        copy_hash(out->seat_hash[1], s, 6);
        copy_hash(out->invite_hash, s, 7);
        out->invite_color = sqlite3_column_int(s, 8);
        copy_text(out->rematch_id, sizeof out->rematch_id, s, 9);
        out->time_control_json = dup_text(s, 10);
        out->is_public = sqlite3_column_int(s, 11);
        out->started_at_ms = sqlite3_column_int64(s, 12);
        out->cancelled_at_ms = sqlite3_column_int64(s, 13);
        if (!out->settings_json || !out->options_json || !out->time_control_json) {
            store_game_free_fields(out);
            code = STORE_ERROR;
        }
    }
    stmt_done(s);
    return code;
}

static int read_actions(store_reader *r, const char *game_id, store_action **out, int *count) {
    sqlite3_stmt *s = r->stmt[RS_ACTIONS];
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
        store_action *a = &list[n++];
        a->seq = sqlite3_column_int(s, 0);
        copy_text(a->kind, sizeof a->kind, s, 1);
        a->color = sqlite3_column_int(s, 2);
        copy_text(a->vertex, sizeof a->vertex, s, 3);
        a->at_ms = sqlite3_column_int64(s, 4);
    }
    stmt_done(s);
    if (rc != SQLITE_DONE) {
        free(list);
        return store_code_of(rc);
    }
    *out = list;
    *count = n;
    return STORE_OK;
}

int store_load_game(store *st, const char *game_id, store_game *out_row, store_action **out_actions,
                    int *out_count) {
    if (out_actions) *out_actions = NULL;
    if (out_count) *out_count = 0;
    if (!st || !game_id || !out_row || (out_actions && !out_count)) return STORE_ERROR;
    memset(out_row, 0, sizeof *out_row);
    if (st->pg) return pg_store_load_game(st->pg, game_id, out_row, out_actions, out_count);
    store_reader *r = store_reader_acquire(st);
    int rc = run_simple(r->stmt[RS_BEGIN]);
    int code = rc == SQLITE_OK ? read_game_row(r, game_id, out_row) : store_code_of(rc);
    if (code == STORE_OK && out_actions) {
        code = read_actions(r, game_id, out_actions, out_count);
        if (code != STORE_OK) store_game_free_fields(out_row);
    }
    if (rc == SQLITE_OK) run_simple(r->stmt[RS_COMMIT]);
    store_reader_release(st, r);
    return code;
}

/* A read of the games table: it reaches the file, so a missing, locked or
 * unreadable database answers STORE_UNAVAILABLE. */
int store_ping(store *st) {
    if (!st) return STORE_ERROR;
    if (st->pg) return pg_store_ping(st->pg);
    store_reader *r = store_reader_acquire(st);
    sqlite3_stmt *s = r->stmt[RS_PING];
    int rc = sqlite3_step(s);
    stmt_done(s);
    store_reader_release(st, r);
    return rc == SQLITE_ROW ? STORE_OK : store_code_of(rc);
}

int store_get_notes(store *st, const char *game_id, int color, char **out_ghosts_json) {
    if (out_ghosts_json) *out_ghosts_json = NULL;
    if (!st || !game_id || (color != 1 && color != 2) || !out_ghosts_json) return STORE_ERROR;
    if (st->pg) return pg_store_get_notes(st->pg, game_id, color, out_ghosts_json);
    store_reader *r = store_reader_acquire(st);
    sqlite3_stmt *s = r->stmt[RS_NOTES];
    sqlite3_bind_text(s, 1, game_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, color);
    int rc = sqlite3_step(s);
    int code = rc == SQLITE_ROW ? STORE_OK : rc == SQLITE_DONE ? STORE_NOT_FOUND : store_code_of(rc);
    if (code == STORE_OK && sqlite3_column_type(s, 0) != SQLITE_NULL) {
        *out_ghosts_json = dup_text(s, 0);
        if (!*out_ghosts_json) code = STORE_ERROR;
    }
    stmt_done(s);
    store_reader_release(st, r);
    return code;
}

/* The ids a list query returns, as one malloc'd array of fixed-size ids. */
typedef struct {
    char (*ids)[24];
    int count;
} id_list;

static int collect_ids(store *st, enum read_stmt which, id_list *out) {
    store_reader *r = store_reader_acquire(st);
    sqlite3_stmt *s = r->stmt[which];
    int cap = 0, rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (out->count == cap) {
            cap = cap ? cap * 2 : 64;
            char(*bigger)[24] = realloc(out->ids, (size_t)cap * sizeof *out->ids);
            if (!bigger) {
                rc = SQLITE_NOMEM;
                break;
            }
            out->ids = bigger;
        }
        copy_text(out->ids[out->count++], sizeof *out->ids, s, 0);
    }
    stmt_done(s);
    store_reader_release(st, r);
    return rc == SQLITE_DONE ? STORE_OK : store_code_of(rc);
}

int store_list_games(store *st, const char *where_kind, int (*each)(void *ctx, const char *game_id),
                     void *ctx) {
    if (!st || !where_kind || !each) return STORE_ERROR;
    enum read_stmt which;
    if (!strcmp(where_kind, "all")) which = RS_LIST_ALL;
    else if (!strcmp(where_kind, "computer_to_resume")) which = RS_LIST_RESUME;
    else if (!strcmp(where_kind, "clock_to_resume")) which = RS_LIST_CLOCKS;
    else if (!strcmp(where_kind, "public_to_list")) which = RS_LIST_PUBLIC;
    else return STORE_ERROR;
    id_list list = { NULL, 0 };
    int code = st->pg ? pg_store_list_ids(st->pg, where_kind, &list.ids, &list.count)
                      : collect_ids(st, which, &list);
    for (int i = 0; code == STORE_OK && i < list.count; i++) {
        int stop = each(ctx, list.ids[i]);
        if (stop) code = stop;
    }
    free(list.ids);
    return code;
}
