/* The PostgreSQL backend's reads: a pool of connections, each lent to one
 * thread at a time and (re)connected on first use. A read on a connection
 * that turns out to have died while idle is retried once on a fresh one,
 * so a database restart or a promoted standby costs a reconnect, not an
 * error. A game and its log are read in one REPEATABLE READ transaction so
 * they match, as the SQLite reads do. */
#include "store/store_pg.h"
#include "store/store_rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum pg_read_stmt {
    PR_GAME,
    PR_ACTIONS,
    PR_NOTES,
    PR_LIST_ALL,
    PR_LIST_RESUME,
    PR_LIST_CLOCKS,
    PR_LIST_PUBLIC,
    PR_PING,
    PR_NAMES,
    PR_CHAT_COUNT,
    PR_CHAT_READ,
    PR_IDEM_GET,
    PR_PUSH_KEY, /* Web Push (store_push.h) */
    PR_PUSH_COUNT,
    PR_PUSH_GAMES,
    PR_PUSH_DUE,
    PR_PUSH_NEXT,
    PR_COUNT
};

/* A game whose log ends the game for good is left out of the resume and
 * lobby lists (see store_list_games). */
#define PG_NOT_ENDED                                                                                   \
    " coalesce((SELECT a.kind FROM actions a WHERE a.game_id = g.id ORDER BY a.seq DESC LIMIT 1), '')" \
    " NOT IN ('resign', 'timeout', 'forfeit')"

static const char *const read_sql[PR_COUNT] = {
    [PR_GAME] = "SELECT id, created_at_ms, mode, settings_json, options_json, black_hash, white_hash,"
                " invite_hash, invite_color, rematch_id, time_control_json, public::integer,"
                " coalesce(started_at_ms, 0), coalesce(cancelled_at_ms, 0) FROM games WHERE id = $1",
    [PR_ACTIONS] = "SELECT seq, kind, color, vertex, at_ms FROM actions WHERE game_id = $1 ORDER BY seq",
    [PR_NOTES] = "SELECT n.ghosts_json FROM games g"
                 " LEFT JOIN notes n ON n.game_id = g.id AND n.color = $2::integer WHERE g.id = $1",
    [PR_LIST_ALL] = "SELECT id FROM games ORDER BY created_at_ms, id",
    [PR_LIST_RESUME] = "SELECT g.id FROM games g WHERE g.mode = 'computer' AND" PG_NOT_ENDED
                       " ORDER BY g.created_at_ms, g.id",
    [PR_LIST_CLOCKS] = "SELECT g.id FROM games g WHERE g.started_at_ms IS NOT NULL"
                       " AND (g.time_control_json::jsonb ->> 'type' <> 'none'"
                       "      OR g.time_control_json::jsonb -> 'days_per_move' IS NOT NULL) AND" PG_NOT_ENDED
                       " ORDER BY g.created_at_ms, g.id",
    [PR_LIST_PUBLIC] =
        "SELECT g.id FROM games g WHERE g.public AND g.cancelled_at_ms IS NULL AND" PG_NOT_ENDED
        " ORDER BY g.created_at_ms DESC, g.id",
    [PR_PING] = "SELECT 1 FROM games LIMIT 1",
    [PR_NAMES] = "SELECT n.color, n.name FROM games g LEFT JOIN seat_names n ON n.game_id = g.id"
                 " WHERE g.id = $1",
    [PR_CHAT_COUNT] = "SELECT coalesce(max(n), 0) FROM chat WHERE game_id = $1 AND room = $2::integer",
    [PR_CHAT_READ] = "SELECT n, author, name, text, at_ms, (removed_at_ms IS NOT NULL)::integer FROM chat"
                     " WHERE game_id = $1 AND room = $2::integer AND n > $3::integer ORDER BY n"
                     " LIMIT $4::integer",
    [PR_IDEM_GET] = "SELECT created_at_ms, answer, seed FROM idempotency WHERE id = $1",
    [PR_PUSH_KEY] = "SELECT private_key, public_key FROM push_key WHERE id = 1",
    [PR_PUSH_COUNT] = "SELECT count(*) FROM push_subscriptions WHERE game_id = $1 AND color = $2::integer",
    [PR_PUSH_GAMES] = "SELECT DISTINCT game_id FROM push_subscriptions",
    [PR_PUSH_DUE] = "SELECT o.id, o.game_id, o.color, o.endpoint, o.kind, o.payload, o.urgency, o.attempts,"
                    " o.created_at_ms, s.p256dh, s.auth, s.lang"
                    " FROM push_outbox o JOIN push_subscriptions s"
                    " ON s.game_id = o.game_id AND s.color = o.color AND s.endpoint = o.endpoint"
                    " WHERE o.state = 0 AND o.next_at_ms <= $1::bigint ORDER BY o.next_at_ms, o.id"
                    " LIMIT $2::integer",
    [PR_PUSH_NEXT] = "SELECT min(next_at_ms) FROM push_outbox WHERE state = 0",
};

static pg_link *reader_acquire(pg_store *pg) {
    pthread_mutex_lock(&pg->reader_lock);
    while (pg->free_count == 0) pthread_cond_wait(&pg->reader_free, &pg->reader_lock);
    pg_link *link = &pg->readers[pg->free_readers[--pg->free_count]];
    pthread_mutex_unlock(&pg->reader_lock);
    return link;
}

static void reader_release(pg_store *pg, pg_link *link) {
    pthread_mutex_lock(&pg->reader_lock);
    pg->free_readers[pg->free_count++] = (int)(link - pg->readers);
    pthread_cond_signal(&pg->reader_free);
    pthread_mutex_unlock(&pg->reader_lock);
}

/* What one read does with its connection; returns STORE_*, sets *broken
 * when the connection must be dropped afterwards. */
typedef int (*read_fn)(PGconn *conn, void *ctx, bool *broken);

/* Runs fn on a pooled connection, once more on a fresh one if a connection
 * that had been idle turns out dead. */
static int with_reader(pg_store *pg, read_fn fn, void *ctx) {
    pg_link *link = reader_acquire(pg);
    int code = STORE_UNAVAILABLE;
    for (int attempt = 0; attempt < 2; attempt++) {
        bool fresh = !link->conn;
        char err[512];
        if (pg_link_ensure(pg, link, "r", read_sql, PR_COUNT, err, sizeof err) != STORE_OK) {
            fprintf(stderr, "store: %s\n", err);
            code = STORE_UNAVAILABLE;
            break;
        }
        bool broken = false;
        code = fn(link->conn, ctx, &broken);
        if (broken) pg_link_drop(link);
        if (!broken || code == STORE_OK || fresh) break;
    }
    reader_release(pg, link);
    return code;
}

/* Runs statement `which` with `count` text parameters. */
static PGresult *exec_read_n(PGconn *conn, enum pg_read_stmt which, int count, const char *const *values) {
    char name[16];
    snprintf(name, sizeof name, "r%d", (int)which);
    return PQexecPrepared(conn, name, count, values, NULL, NULL, 0);
}

static PGresult *exec_read(PGconn *conn, enum pg_read_stmt which, const char *game_id, const char *second) {
    const char *values[2] = { game_id, second };
    return exec_read_n(conn, which, game_id ? (second ? 2 : 1) : 0, values);
}

/* STORE_OK for rows, else the failure's code. */
static int rows_code(PGconn *conn, const PGresult *res, bool *broken) {
    return PQresultStatus(res) == PGRES_TUPLES_OK ? STORE_OK : pg_code_of(conn, res, broken);
}

static void copy_text(char *dst, size_t cap, const PGresult *res, int row, int col) {
    snprintf(dst, cap, "%s", PQgetvalue(res, row, col));
}

static int64_t get_int(const PGresult *res, int row, int col) {
    return strtoll(PQgetvalue(res, row, col), NULL, 10);
}

static int hex_digit(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static bool copy_bytes(uint8_t *dst, size_t n, const PGresult *res, int row, int col);

/* Row i's columns as values for store_row_fill (store_rows.h): text as
 * libpq gives it (numbers too), a hash decoded into hashes[c]. */
static void column_values(const PGresult *res, int row, const store_column *cols, int n, store_value *out,
                          uint8_t (*hashes)[32]) {
    for (int c = 0; c < n; c++) {
        if (PQgetisnull(res, row, c)) out[c] = sv_null();
        else if (cols[c].kind != COL_HASH) out[c] = sv_text(PQgetvalue(res, row, c));
        else out[c] = copy_bytes(hashes[c], 32, res, row, c) ? sv_blob(hashes[c], 32) : sv_null();
    }
}

static int fill_game(const PGresult *res, store_game *out) {
    store_value v[STORE_GAME_COLUMNS];
    uint8_t hashes[STORE_GAME_COLUMNS][32];
    column_values(res, 0, store_game_columns, STORE_GAME_COLUMNS, v, hashes);
    if (!store_row_fill(store_game_columns, STORE_GAME_COLUMNS, v, out)) {
        store_game_free_fields(out);
        return STORE_ERROR;
    }
    return STORE_OK;
}

static int fill_actions(const PGresult *res, store_action **out, int *count) {
    int n = PQntuples(res);
    store_action *list = NULL;
    if (n > 0) {
        list = calloc((size_t)n, sizeof *list);
        if (!list) return STORE_ERROR;
    }
    for (int i = 0; i < n; i++) {
        store_value v[STORE_ACTION_COLUMNS];
        column_values(res, i, store_action_columns, STORE_ACTION_COLUMNS, v, NULL);
        store_row_fill(store_action_columns, STORE_ACTION_COLUMNS, v, &list[i]); /* nothing to allocate */
    }
    *out = list;
    *count = n;
    return STORE_OK;
}

typedef struct {
    const char *game_id;
    store_game *row;
    store_action **actions;
    int *count;
} load_ctx;

static int command(PGconn *conn, const char *sql, bool *broken) {
    PGresult *res = PQexec(conn, sql);
    int code = PQresultStatus(res) == PGRES_COMMAND_OK ? STORE_OK : pg_code_of(conn, res, broken);
    PQclear(res);
    return code;
}

static int load_in_transaction(PGconn *conn, load_ctx *c, bool *broken) {
    PGresult *res = exec_read(conn, PR_GAME, c->game_id, NULL);
    int code = rows_code(conn, res, broken);
    if (code == STORE_OK) code = PQntuples(res) == 1 ? fill_game(res, c->row) : STORE_NOT_FOUND;
    PQclear(res);
    if (code != STORE_OK || !c->actions) return code;
    res = exec_read(conn, PR_ACTIONS, c->game_id, NULL);
    code = rows_code(conn, res, broken);
    if (code == STORE_OK) code = fill_actions(res, c->actions, c->count);
    PQclear(res);
    if (code != STORE_OK) store_game_free_fields(c->row);
    return code;
}

static int load_game(PGconn *conn, void *ctx, bool *broken) {
    load_ctx *c = ctx;
    int code = command(conn, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", broken);
    if (code != STORE_OK) return code;
    code = load_in_transaction(conn, c, broken);
    /* A COMMIT that fails leaves the connection in doubt: drop it (what
     * was read stays good, a read-only transaction has nothing to lose). */
    if (!*broken && command(conn, "COMMIT", broken) != STORE_OK) *broken = true;
    return code;
}

int pg_store_load_game(pg_store *pg, const char *game_id, store_game *out_row, store_action **out_actions,
                       int *out_count) {
    load_ctx c = { game_id, out_row, out_actions, out_count };
    return with_reader(pg, load_game, &c);
}

typedef struct {
    const char *game_id;
    int color;
    char **json;
} notes_ctx;

static int get_notes(PGconn *conn, void *ctx, bool *broken) {
    notes_ctx *c = ctx;
    char color[4];
    snprintf(color, sizeof color, "%d", c->color);
    PGresult *res = exec_read(conn, PR_NOTES, c->game_id, color);
    int code = rows_code(conn, res, broken);
    if (code == STORE_OK && PQntuples(res) == 0) code = STORE_NOT_FOUND;
    if (code == STORE_OK && !PQgetisnull(res, 0, 0)) {
        *c->json = strdup(PQgetvalue(res, 0, 0));
        if (!*c->json) code = STORE_ERROR;
    }
    PQclear(res);
    return code;
}

int pg_store_get_notes(pg_store *pg, const char *game_id, int color, char **out_ghosts_json) {
    notes_ctx c = { game_id, color, out_ghosts_json };
    return with_reader(pg, get_notes, &c);
}

typedef struct {
    enum pg_read_stmt which;
    char (**ids)[24];
    int *count;
} list_ctx;

static int list_ids(PGconn *conn, void *ctx, bool *broken) {
    list_ctx *c = ctx;
    PGresult *res = exec_read(conn, c->which, NULL, NULL);
    int code = rows_code(conn, res, broken);
    int n = code == STORE_OK ? PQntuples(res) : 0;
    if (n > 0) {
        *c->ids = calloc((size_t)n, sizeof **c->ids);
        if (!*c->ids) code = STORE_ERROR;
    }
    for (int i = 0; code == STORE_OK && i < n; i++) copy_text((*c->ids)[i], sizeof **c->ids, res, i, 0);
    if (code == STORE_OK) *c->count = n;
    PQclear(res);
    return code;
}

int pg_store_list_ids(pg_store *pg, enum store_list which, char (**ids)[24], int *count) {
    static const enum pg_read_stmt stmt[SL_COUNT] = {
        [SL_ALL] = PR_LIST_ALL,
        [SL_COMPUTER_TO_RESUME] = PR_LIST_RESUME,
        [SL_CLOCK_TO_RESUME] = PR_LIST_CLOCKS,
        [SL_PUBLIC_TO_LIST] = PR_LIST_PUBLIC,
    };
    list_ctx c = { stmt[which], ids, count };
    *ids = NULL;
    *count = 0;
    return with_reader(pg, list_ids, &c);
}

static int ping(PGconn *conn, void *ctx, bool *broken) {
    (void)ctx;
    PGresult *res = exec_read(conn, PR_PING, NULL, NULL);
    int code = rows_code(conn, res, broken);
    PQclear(res);
    return code;
}

int pg_store_ping(pg_store *pg) { return with_reader(pg, ping, NULL); }

/* ---- table talk (store_chat.h) ---- */

typedef struct {
    const char *game_id;
    char (*names)[STORE_NAME_BYTES];
} names_ctx;

static int get_names(PGconn *conn, void *ctx, bool *broken) {
    names_ctx *c = ctx;
    PGresult *res = exec_read(conn, PR_NAMES, c->game_id, NULL);
    int code = rows_code(conn, res, broken);
    if (code == STORE_OK && PQntuples(res) == 0) code = STORE_NOT_FOUND;
    for (int i = 0; code == STORE_OK && i < PQntuples(res); i++) {
        int color = PQgetisnull(res, i, 0) ? 0 : (int)get_int(res, i, 0); /* NULL: no names */
        if (color == 1 || color == 2) copy_text(c->names[color - 1], STORE_NAME_BYTES, res, i, 1);
    }
    PQclear(res);
    return code;
}

int pg_store_get_names(pg_store *pg, const char *game_id, char names[2][STORE_NAME_BYTES]) {
    names_ctx c = { game_id, names };
    return with_reader(pg, get_names, &c);
}

typedef struct {
    const char *game_id;
    int room, after_n, limit;
    int *last;                /* the count's answer */
    store_chat_message *list; /* the read's: limit elements */
    int *count;
} room_ctx;

static int chat_count(PGconn *conn, void *ctx, bool *broken) {
    room_ctx *c = ctx;
    char room[12];
    snprintf(room, sizeof room, "%d", c->room);
    PGresult *res = exec_read(conn, PR_CHAT_COUNT, c->game_id, room);
    int code = rows_code(conn, res, broken);
    if (code == STORE_OK) *c->last = PQntuples(res) == 1 ? (int)get_int(res, 0, 0) : 0;
    PQclear(res);
    return code;
}

int pg_store_chat_count(pg_store *pg, const char *game_id, int room, int *out_n) {
    room_ctx c = { .game_id = game_id, .room = room, .last = out_n };
    return with_reader(pg, chat_count, &c);
}

static void fill_message(const PGresult *res, int row, int room, store_chat_message *m) {
    memset(m, 0, sizeof *m);
    m->room = room;
    m->n = (int)get_int(res, row, 0);
    m->author = (int)get_int(res, row, 1);
    copy_text(m->name, sizeof m->name, res, row, 2);
    copy_text(m->text, sizeof m->text, res, row, 3);
    m->at_ms = get_int(res, row, 4);
    m->removed = get_int(res, row, 5) != 0;
}

static int read_chat(PGconn *conn, void *ctx, bool *broken) {
    room_ctx *c = ctx;
    char numbers[3][12];
    snprintf(numbers[0], sizeof numbers[0], "%d", c->room);
    snprintf(numbers[1], sizeof numbers[1], "%d", c->after_n);
    snprintf(numbers[2], sizeof numbers[2], "%d", c->limit);
    const char *values[4] = { c->game_id, numbers[0], numbers[1], numbers[2] };
    PGresult *res = exec_read_n(conn, PR_CHAT_READ, 4, values);
    int code = rows_code(conn, res, broken);
    int n = code == STORE_OK ? PQntuples(res) : 0;
    if (n > c->limit) n = c->limit;
    if (code == STORE_OK) {
        for (int i = 0; i < n; i++) fill_message(res, i, c->room, &c->list[i]);
        *c->count = n;
    }
    PQclear(res);
    return code;
}

int pg_store_read_chat(pg_store *pg, const char *game_id, int room, int after_n, int limit,
                       store_chat_message *list, int *out_count) {
    room_ctx c = { .game_id = game_id, .room = room, .after_n = after_n, .limit = limit, .list = list,
                   .count = out_count };
    return with_reader(pg, read_chat, &c);
}

typedef struct {
    const char *id;
    store_idem_record *out;
} idem_ctx;

/* A bytea column of row 0 into *out (malloc'd; NULL for NULL); false when
 * out of memory. */
static bool copy_bytea(const PGresult *res, int col, uint8_t **out, size_t *len) {
    if (PQgetisnull(res, 0, col)) return true;
    size_t n = 0;
    unsigned char *bytes = PQunescapeBytea((const unsigned char *)PQgetvalue(res, 0, col), &n);
    *out = bytes && n ? malloc(n) : NULL;
    if (*out) {
        memcpy(*out, bytes, n);
        *len = n;
    }
    PQfreemem(bytes);
    return *out != NULL;
}

static int get_idem(PGconn *conn, void *ctx, bool *broken) {
    idem_ctx *c = ctx;
    PGresult *res = exec_read(conn, PR_IDEM_GET, c->id, NULL);
    int code = rows_code(conn, res, broken);
    if (code == STORE_OK && PQntuples(res) == 0) code = STORE_NOT_FOUND;
    if (code == STORE_OK) {
        c->out->created_at_ms = get_int(res, 0, 0);
        if (!copy_bytea(res, 1, &c->out->answer, &c->out->answer_len) ||
            !copy_bytea(res, 2, &c->out->seed, &c->out->seed_len))
            code = STORE_ERROR;
    }
    PQclear(res);
    return code;
}

int pg_store_idem_get(pg_store *pg, const char *id, store_idem_record *out) {
    idem_ctx c = { id, out };
    return with_reader(pg, get_idem, &c);
}

/* ---- Web Push (store_push.h) ---- */

/* A bytea in text form ("\x" and hex digits) of exactly n bytes into dst;
 * false for NULL or another length. */
static bool copy_bytes(uint8_t *dst, size_t n, const PGresult *res, int row, int col) {
    const char *t = PQgetvalue(res, row, col);
    if (PQgetisnull(res, row, col) || strlen(t) != 2 + 2 * n || t[0] != '\\' || t[1] != 'x') return false;
    for (size_t i = 0; i < n; i++) {
        int hi = hex_digit(t[2 + 2 * i]), lo = hex_digit(t[3 + 2 * i]);
        if (hi < 0 || lo < 0) return false;
        dst[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}

typedef struct {
    uint8_t *priv, *pub;
} key_ctx;

static int push_key_get(PGconn *conn, void *ctx, bool *broken) {
    key_ctx *c = ctx;
    PGresult *res = exec_read(conn, PR_PUSH_KEY, NULL, NULL);
    int code = rows_code(conn, res, broken);
    if (code == STORE_OK && PQntuples(res) == 0) code = STORE_NOT_FOUND;
    if (code == STORE_OK && !(copy_bytes(c->priv, 32, res, 0, 0) && copy_bytes(c->pub, 65, res, 0, 1)))
        code = STORE_ERROR;
    PQclear(res);
    return code;
}

int pg_store_push_key_get(pg_store *pg, uint8_t priv[32], uint8_t pub[65]) {
    key_ctx c = { priv, pub };
    return with_reader(pg, push_key_get, &c);
}

typedef struct {
    const char *game_id;
    int color;
    int *n;
} push_count_ctx;

static int push_count(PGconn *conn, void *ctx, bool *broken) {
    push_count_ctx *c = ctx;
    char color[12];
    snprintf(color, sizeof color, "%d", c->color);
    PGresult *res = exec_read(conn, PR_PUSH_COUNT, c->game_id, color);
    int code = rows_code(conn, res, broken);
    if (code == STORE_OK) *c->n = PQntuples(res) == 1 ? (int)get_int(res, 0, 0) : 0;
    PQclear(res);
    return code;
}

int pg_store_push_count(pg_store *pg, const char *game_id, int color, int *out_n) {
    push_count_ctx c = { game_id, color, out_n };
    return with_reader(pg, push_count, &c);
}

int pg_store_push_game_ids(pg_store *pg, char (**ids)[24], int *count) {
    list_ctx c = { PR_PUSH_GAMES, ids, count };
    *ids = NULL;
    *count = 0;
    return with_reader(pg, list_ids, &c);
}

typedef struct {
    int64_t now_ms;
    int limit;
    store_push_message *list;
    int *n;
} due_ctx;

/* One row of PR_PUSH_DUE into m; false for a malformed row or no memory. */
static bool fill_push_message(const PGresult *res, int row, store_push_message *m) {
    memset(m, 0, sizeof *m);
    m->id = get_int(res, row, 0);
    copy_text(m->game_id, sizeof m->game_id, res, row, 1);
    m->color = (int)get_int(res, row, 2);
    copy_text(m->endpoint, sizeof m->endpoint, res, row, 3);
    copy_text(m->kind, sizeof m->kind, res, row, 4);
    m->payload_json = strdup(PQgetvalue(res, row, 5));
    m->high = !strcmp(PQgetvalue(res, row, 6), "high");
    m->attempts = (int)get_int(res, row, 7);
    m->created_at_ms = get_int(res, row, 8);
    copy_text(m->lang, sizeof m->lang, res, row, 11);
    return m->payload_json && copy_bytes(m->p256dh, 65, res, row, 9) && copy_bytes(m->auth, 16, res, row, 10);
}

static int push_due(PGconn *conn, void *ctx, bool *broken) {
    due_ctx *c = ctx;
    char numbers[2][24];
    snprintf(numbers[0], sizeof numbers[0], "%lld", (long long)c->now_ms);
    snprintf(numbers[1], sizeof numbers[1], "%d", c->limit);
    const char *values[2] = { numbers[0], numbers[1] };
    PGresult *res = exec_read_n(conn, PR_PUSH_DUE, 2, values);
    int code = rows_code(conn, res, broken);
    int rows = code == STORE_OK ? PQntuples(res) : 0;
    if (rows > c->limit) rows = c->limit;
    for (int i = 0; code == STORE_OK && i < rows; i++) {
        if (!fill_push_message(res, i, &c->list[i])) code = STORE_ERROR;
        *c->n = i + 1; /* what was filled is freed by the caller either way */
    }
    PQclear(res);
    return code;
}

int pg_store_push_due(pg_store *pg, int64_t now_ms, int limit, store_push_message *list, int *out_count) {
    *out_count = 0;
    due_ctx c = { now_ms, limit, list, out_count };
    return with_reader(pg, push_due, &c);
}

static int push_next(PGconn *conn, void *ctx, bool *broken) {
    int64_t *at = ctx;
    PGresult *res = exec_read(conn, PR_PUSH_NEXT, NULL, NULL);
    int code = rows_code(conn, res, broken);
    if (code == STORE_OK && PQntuples(res) == 1 && !PQgetisnull(res, 0, 0)) *at = get_int(res, 0, 0);
    PQclear(res);
    return code;
}

int pg_store_push_next_due(pg_store *pg, int64_t *at_ms) {
    *at_ms = INT64_MAX;
    return with_reader(pg, push_next, at_ms);
}
