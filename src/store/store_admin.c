/* The operator's part of the store (see store_admin.h): reports,
 * tombstones, mutes and bans, hiding, the admin log. Every public call is
 * one transaction on the backend's operator connection (its own, opened on
 * first use; admin_lock serializes its users), through the backend's table.
 *
 * The SQL is written once, with ?N parameters, for both backends (the
 * PostgreSQL backend turns '?' into '$': no statement here has a '?'
 * anywhere else, and sends the parameters as text, which PostgreSQL types
 * from the columns they meet). The few statements whose SQL differs
 * (booleans, the games' public flag) say so with a second text. */
#include "store/store_admin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_backend.h"

/* ---- one statement, one transaction --------------------------------------- */

typedef store_value val;
#define VI(x) sv_int(x)
#define VT(x) sv_text(x)
#define VN sv_null()

/* One row of an answer, whichever backend gave it. */
typedef struct {
    const store_value *cols;
    int n;
} row;

static int64_t col_int(const row *r, int c) {
    if (c >= r->n) return 0;
    const store_value *v = &r->cols[c];
    if (v->kind == SV_INT || v->kind == SV_BOOL) return v->i;
    return v->kind == SV_TEXT ? strtoll(v->p, NULL, 10) : 0;
}

static bool col_null(const row *r, int c) { return c >= r->n || r->cols[c].kind == SV_NULL; }

static void col_text(const row *r, int c, char *out, size_t cap) {
    const store_value *v = c < r->n ? &r->cols[c] : NULL;
    if (v && (v->kind == SV_INT || v->kind == SV_BOOL)) snprintf(out, cap, "%lld", (long long)v->i);
    else snprintf(out, cap, "%s", v && v->kind == SV_TEXT && v->p ? (const char *)v->p : "");
}

/* Called for each row; non-OK stops the statement with that code. */
typedef int (*row_fn)(const row *r, void *ctx);

typedef struct {
    row_fn fn;
    void *ctx;
} row_call;

static int each_row(const store_value *cols, int ncols, void *arg) {
    const row_call *c = arg;
    row r = { cols, ncols };
    return c->fn(&r, c->ctx);
}

/* Runs one statement inside the caller's transaction; sql_pg replaces sql
 * on PostgreSQL when not NULL. */
static int run2(store *st, const char *sql, const char *sql_pg, const val *v, int nv, row_fn fn, void *ctx,
                int *changes) {
    if (changes) *changes = 0;
    store_sql text = { sql, sql_pg };
    row_call call = { fn, ctx };
    return st->be->admin_run(st->db, &text, v, nv, fn ? each_row : NULL, &call, changes);
}

static int run(store *st, const char *sql, const val *v, int nv, row_fn fn, void *ctx, int *changes) {
    return run2(st, sql, NULL, v, nv, fn, ctx, changes);
}

typedef int (*txn_fn)(store *st, void *ctx);

/* Runs fn in one transaction on the operator's connection, committed
 * before it returns; once more on a fresh connection when the one it had
 * died while idle (PostgreSQL). A transaction that writes says so, so
 * that SQLite takes the write lock at once. */
static int run_transaction(store *st, txn_fn fn, void *ctx, bool writes) {
    if (!st) return STORE_ERROR;
    pthread_mutex_lock(&st->admin_lock);
    int code = STORE_UNAVAILABLE;
    for (int attempt = 0; attempt < 2; attempt++) {
        bool fresh = false, lost = false;
        code = st->be->admin_begin(st->db, writes, &fresh);
        if (code == STORE_OK) code = fn(st, ctx);
        code = st->be->admin_end(st->db, code, &lost);
        if (!lost || fresh || code == STORE_OK) break;
    }
    pthread_mutex_unlock(&st->admin_lock);
    return code;
}

static int in_transaction(store *st, txn_fn fn, void *ctx) { return run_transaction(st, fn, ctx, true); }

static int reading(store *st, txn_fn fn, void *ctx) { return run_transaction(st, fn, ctx, false); }

void store_admin_close(store *st) {
    if (!st || !st->db) return;
    pthread_mutex_lock(&st->admin_lock);
    st->be->admin_close(st->db);
    pthread_mutex_unlock(&st->admin_lock);
}

static bool room_ok(int room) { return room == STORE_ROOM_PLAYERS || room == STORE_ROOM_SPECTATORS; }

static bool id_ok(const char *id) { return id && *id && strlen(id) < 24; }

/* ---- reports ---------------------------------------------------------------- */

typedef struct {
    const char *game_id, *reporter, *reason;
    int room, n, seat;
    int64_t at_ms;
} message_args;

static int add_report(store *st, void *ctx) {
    const message_args *m = ctx;
    val v[] = { VT(m->game_id), VI(m->room), VI(m->n), VT(m->reporter), VT(m->reason), VI(m->at_ms) };
    int changes;
    int code = run(st,
                   "INSERT INTO reports (game_id, room, n, reporter, reason, at_ms)"
                   " SELECT ?1, ?2, ?3, ?4, ?5, CAST(?6 AS bigint) FROM chat"
                   " WHERE game_id = ?1 AND room = ?2 AND n = ?3 AND removed_at_ms IS NULL",
                   v, 6, NULL, NULL, &changes);
    return code == STORE_OK && changes == 0 ? STORE_NOT_FOUND : code;
}

int store_add_report(store *st, const char *game_id, int room, int n, const char *reporter,
                     const char *reason, int64_t at_ms) {
    if (!id_ok(game_id) || !room_ok(room) || n < 1 || !reporter || !reason) return STORE_ERROR;
    message_args m = { game_id, reporter, reason, room, n, 0, at_ms };
    return in_transaction(st, add_report, &m);
}

typedef struct {
    int limit, count;
    void *list; /* store_report[] or store_sanction[] or store_log_entry[] */
} list_ctx;

/* Allocates the list on its first row (limit entries). */
static void *list_slot(list_ctx *c, size_t size) {
    if (!c->list && !(c->list = calloc((size_t)c->limit, size))) return NULL;
    return c->count < c->limit ? (char *)c->list + (size_t)c->count++ * size : NULL;
}

static int report_row(const row *r, void *ctx) {
    store_report *p = list_slot(ctx, sizeof *p);
    if (!p) return STORE_ERROR;
    p->id = col_int(r, 0);
    col_text(r, 1, p->game_id, sizeof p->game_id);
    p->room = (int)col_int(r, 2);
    p->n = (int)col_int(r, 3);
    col_text(r, 4, p->reporter, sizeof p->reporter);
    col_text(r, 5, p->reason, sizeof p->reason);
    p->at_ms = col_int(r, 6);
    store_chat_message *m = &p->message;
    m->room = p->room;
    m->n = p->n;
    m->author = (int)col_int(r, 7);
    col_text(r, 8, m->name, sizeof m->name);
    col_text(r, 9, m->text, sizeof m->text);
    m->at_ms = col_int(r, 10);
    return STORE_OK;
}

static int open_reports(store *st, void *ctx) {
    list_ctx *c = ctx;
    val v[] = { VI(c->limit) };
    return run(st,
               "SELECT r.id, r.game_id, r.room, r.n, r.reporter, r.reason, r.at_ms,"
               " c.author, c.name, c.text, c.at_ms FROM reports r"
               " JOIN chat c ON c.game_id = r.game_id AND c.room = r.room AND c.n = r.n"
               " WHERE r.closed_at_ms IS NULL ORDER BY r.at_ms DESC, r.id DESC LIMIT ?1",
               v, 1, report_row, c, NULL);
}

int store_open_reports(store *st, int limit, store_report **out, int *count) {
    if (!out || !count || limit < 1) return STORE_ERROR;
    list_ctx c = { .limit = limit > STORE_ADMIN_LIST_MAX ? STORE_ADMIN_LIST_MAX : limit };
    int code = reading(st, open_reports, &c);
    if (code != STORE_OK) free(c.list), c.list = NULL, c.count = 0;
    *out = c.list;
    *count = c.count;
    return code;
}

/* ---- removing and erasing talk -------------------------------------------- */

static int remove_chat(store *st, void *ctx) {
    const message_args *m = ctx;
    val v[] = { VT(m->game_id), VI(m->room), VI(m->n), VI(m->at_ms) };
    int changes;
    int code = run(st,
                   "UPDATE chat SET name = '', text = '', removed_at_ms = ?4"
                   " WHERE game_id = ?1 AND room = ?2 AND n = ?3 AND removed_at_ms IS NULL",
                   v, 4, NULL, NULL, &changes);
    if (code == STORE_OK && changes == 0) return STORE_NOT_FOUND;
    if (code == STORE_OK)
        code = run(st,
                   "UPDATE reports SET closed_at_ms = ?4"
                   " WHERE game_id = ?1 AND room = ?2 AND n = ?3 AND closed_at_ms IS NULL",
                   v, 4, NULL, NULL, NULL);
    return code;
}

static int count_row(const row *r, void *ctx) {
    (void)r;
    ++*(int *)ctx;
    return STORE_OK;
}

/* Removed already (CONFLICT) or never there (NOT_FOUND)? Asked after the
 * update changed nothing, in the same transaction. */
static int why_not_removed(store *st, void *ctx) {
    const message_args *m = ctx;
    val v[] = { VT(m->game_id), VI(m->room), VI(m->n) };
    int rows = 0;
    int code = run(st, "SELECT 1 FROM chat WHERE game_id = ?1 AND room = ?2 AND n = ?3", v, 3, count_row,
                   &rows, NULL);
    return code != STORE_OK ? code : rows ? STORE_CONFLICT : STORE_NOT_FOUND;
}

int store_remove_chat(store *st, const char *game_id, int room, int n, int64_t at_ms) {
    if (!id_ok(game_id) || !room_ok(room) || n < 1) return STORE_ERROR;
    message_args m = { game_id, NULL, NULL, room, n, 0, at_ms };
    int code = in_transaction(st, remove_chat, &m);
    return code == STORE_NOT_FOUND ? reading(st, why_not_removed, &m) : code;
}

typedef struct {
    const char *game_id;
    int seat;
    int64_t at_ms;
    int *removed, cap, count, players;
    bool game_found;
} erase_ctx;

static int erased_row(const row *r, void *ctx) {
    erase_ctx *e = ctx;
    if (e->count < e->cap) e->removed[e->count++] = (int)col_int(r, 0);
    return STORE_OK;
}

static int game_row(const row *r, void *ctx) {
    (void)r;
    ((erase_ctx *)ctx)->game_found = true;
    return STORE_OK;
}

/* The messages erase_talk erases, numbers into e->removed: the players'
 * room's (the seat's own with a seat), then, for everyone's, the
 * spectators'. */
static int list_erased(store *st, erase_ctx *e) {
    val v[] = { VT(e->game_id), VI(e->seat) };
    const char *players = "SELECT n FROM chat WHERE game_id = ?1 AND room = 1 AND removed_at_ms IS NULL"
                          " AND (?2 = 0 OR author = ?2) ORDER BY n";
    const char *players_pg = "SELECT n FROM chat WHERE game_id = ?1 AND room = 1 AND removed_at_ms IS NULL"
                             " AND (?2::integer = 0 OR author = ?2::integer) ORDER BY n";
    int code = run2(st, players, players_pg, v, 2, erased_row, e, NULL);
    e->players = e->count;
    if (code == STORE_OK && e->seat == 0)
        code =
            run(st, "SELECT n FROM chat WHERE game_id = ?1 AND room = 2 AND removed_at_ms IS NULL ORDER BY n",
                v, 1, erased_row, e, NULL);
    return code;
}

static int erase_talk(store *st, void *ctx) {
    erase_ctx *e = ctx;
    e->count = e->players = 0;
    val v[] = { VT(e->game_id), VI(e->seat), VI(e->at_ms) };
    int code = run(st, "SELECT 1 FROM games WHERE id = ?1", v, 1, game_row, e, NULL);
    if (code == STORE_OK && !e->game_found) return STORE_NOT_FOUND;
    if (code == STORE_OK) code = list_erased(st, e);
    if (code != STORE_OK) return code;
    if (e->seat) {
        code = run(st, "DELETE FROM seat_names WHERE game_id = ?1 AND color = ?2", v, 2, NULL, NULL, NULL);
        if (code == STORE_OK)
            code = run(st,
                       "UPDATE reports SET closed_at_ms = ?3 WHERE closed_at_ms IS NULL AND game_id = ?1"
                       " AND room = 1 AND n IN (SELECT n FROM chat WHERE game_id = ?1 AND room = 1"
                       " AND author = ?2 AND removed_at_ms IS NULL)",
                       v, 3, NULL, NULL, NULL);
        if (code == STORE_OK)
            code = run(st,
                       "UPDATE chat SET name = '', text = '', removed_at_ms = ?3"
                       " WHERE game_id = ?1 AND room = 1 AND author = ?2 AND removed_at_ms IS NULL",
                       v, 3, NULL, NULL, NULL);
        return code;
    }
    val w[] = { VT(e->game_id), VI(e->at_ms) };
    code = run(st, "DELETE FROM seat_names WHERE game_id = ?1", w, 1, NULL, NULL, NULL);
    if (code == STORE_OK)
        code = run(
            st,
            "UPDATE reports SET closed_at_ms = ?2, reason = '' WHERE game_id = ?1 AND closed_at_ms IS NULL",
            w, 2, NULL, NULL, NULL);
    if (code == STORE_OK)
        code = run(st,
                   "UPDATE chat SET name = '', text = '', removed_at_ms = ?2"
                   " WHERE game_id = ?1 AND removed_at_ms IS NULL",
                   w, 2, NULL, NULL, NULL);
    return code;
}

int store_erase_talk(store *st, const char *game_id, int seat, int64_t at_ms, int *removed, int cap,
                     int *count, int *count_players) {
    if (!id_ok(game_id) || seat < 0 || seat > 2 || (cap > 0 && !removed) || !count) return STORE_ERROR;
    erase_ctx e = { .game_id = game_id, .seat = seat, .at_ms = at_ms, .removed = removed, .cap = cap };
    int code = in_transaction(st, erase_talk, &e);
    *count = code == STORE_OK ? e.count : 0;
    if (count_players) *count_players = code == STORE_OK ? e.players : 0;
    return code;
}

typedef struct {
    int64_t cutoff;
    const char *after;
    int limit, count;
    char (*ids)[24];
} older_ctx;

static int id_row(const row *r, void *ctx) {
    older_ctx *o = ctx;
    if (o->count < o->limit) col_text(r, 0, o->ids[o->count++], 24);
    return STORE_OK;
}

static int talk_older(store *st, void *ctx) {
    older_ctx *o = ctx;
    val v[] = { VT(o->after), VI(o->cutoff), VI(o->limit) };
    return run(st,
               "SELECT g.id FROM games g WHERE g.id > ?1"
               " AND (EXISTS (SELECT 1 FROM seat_names s WHERE s.game_id = g.id)"
               "      OR EXISTS (SELECT 1 FROM chat c WHERE c.game_id = g.id AND c.removed_at_ms IS NULL))"
               " AND coalesce(g.cancelled_at_ms, (SELECT max(a.at_ms) FROM actions a WHERE a.game_id = g.id),"
               "              g.created_at_ms) < ?2"
               " ORDER BY g.id LIMIT ?3",
               v, 3, id_row, o, NULL);
}

int store_talk_older_than(store *st, int64_t cutoff_ms, const char *after, int limit, char (*ids)[24],
                          int *count) {
    if (!after || !ids || !count || limit < 1 || limit > STORE_ADMIN_LIST_MAX) return STORE_ERROR;
    older_ctx o = { cutoff_ms, after, limit, 0, ids };
    int code = reading(st, talk_older, &o);
    *count = code == STORE_OK ? o.count : 0;
    return code;
}

/* ---- mutes and bans --------------------------------------------------------- */

static int add_sanction(store *st, void *ctx) {
    const store_sanction *s = ctx;
    bool seat = s->game_id[0] != '\0';
    val v[] = { VT(s->ban ? "ban" : "mute"),
                seat ? VT(s->game_id) : VN,
                seat ? VI(s->seat) : VN,
                seat ? VN : VT(s->network),
                VI(s->what),
                VI(s->at_ms),
                VI(s->until_ms) };
    return run(st,
               "INSERT INTO sanctions (kind, game_id, seat, network, what, at_ms, until_ms)"
               " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
               v, 7, NULL, NULL, NULL);
}

int store_add_sanction(store *st, const store_sanction *s) {
    if (!s || (s->game_id[0] ? !id_ok(s->game_id) || (s->seat != 1 && s->seat != 2) : !s->network[0]) ||
        s->until_ms <= s->at_ms)
        return STORE_ERROR;
    return in_transaction(st, add_sanction, (void *)s);
}

static int sanction_row(const row *r, void *ctx) {
    store_sanction *s = list_slot(ctx, sizeof *s);
    if (!s) return STORE_ERROR;
    s->id = col_int(r, 0);
    char kind[8];
    col_text(r, 1, kind, sizeof kind);
    s->ban = !strcmp(kind, "ban");
    if (!col_null(r, 2)) col_text(r, 2, s->game_id, sizeof s->game_id);
    s->seat = col_null(r, 3) ? 0 : (int)col_int(r, 3);
    if (!col_null(r, 4)) col_text(r, 4, s->network, sizeof s->network);
    s->what = (int)col_int(r, 5);
    s->at_ms = col_int(r, 6);
    s->until_ms = col_int(r, 7);
    return STORE_OK;
}

typedef struct {
    list_ctx list;
    int64_t now;
} active_ctx;

static int active_sanctions(store *st, void *ctx) {
    active_ctx *a = ctx;
    val v[] = { VI(a->now), VI(a->list.limit) };
    return run(st,
               "SELECT id, kind, game_id, seat, network, what, at_ms, until_ms FROM sanctions"
               " WHERE until_ms > ?1 ORDER BY at_ms DESC, id DESC LIMIT ?2",
               v, 2, sanction_row, &a->list, NULL);
}

int store_active_sanctions(store *st, int64_t now_ms, store_sanction **out, int *count) {
    if (!out || !count) return STORE_ERROR;
    active_ctx a = { { .limit = STORE_ADMIN_LIST_MAX }, now_ms };
    int code = reading(st, active_sanctions, &a);
    if (code != STORE_OK) free(a.list.list), a.list.list = NULL, a.list.count = 0;
    *out = a.list.list;
    *count = a.list.count;
    return code;
}

/* ---- hiding a game ------------------------------------------------------------ */

static int hide_game(store *st, void *ctx) {
    val v[] = { VT(ctx) };
    int rows = 0;
    int code = run(st, "SELECT 1 FROM games WHERE id = ?1", v, 1, count_row, &rows, NULL);
    if (code == STORE_OK && !rows) return STORE_NOT_FOUND;
    if (code == STORE_OK)
        code = run2(st, "UPDATE games SET public = 0 WHERE id = ?1 AND public = 1",
                    "UPDATE games SET public = false WHERE id = ?1 AND public", v, 1, NULL, NULL, NULL);
    return code;
}

int store_hide_game(store *st, const char *game_id) {
    if (!id_ok(game_id)) return STORE_ERROR;
    return in_transaction(st, hide_game, (void *)game_id);
}

/* ---- the admin log ------------------------------------------------------------- */

typedef struct {
    int64_t at_ms;
    const char *action, *target, *detail;
} log_args;

static int log_admin(store *st, void *ctx) {
    const log_args *l = ctx;
    val v[] = { VI(l->at_ms), VT(l->action), VT(l->target), VT(l->detail) };
    return run(st, "INSERT INTO admin_log (at_ms, action, target, detail) VALUES (?1, ?2, ?3, ?4)", v, 4,
               NULL, NULL, NULL);
}

int store_log_admin(store *st, int64_t at_ms, const char *action, const char *target, const char *detail) {
    if (!action || !target || !detail) return STORE_ERROR;
    log_args l = { at_ms, action, target, detail };
    return in_transaction(st, log_admin, &l);
}

static int log_row(const row *r, void *ctx) {
    store_log_entry *e = list_slot(ctx, sizeof *e);
    if (!e) return STORE_ERROR;
    e->id = col_int(r, 0);
    e->at_ms = col_int(r, 1);
    col_text(r, 2, e->action, sizeof e->action);
    col_text(r, 3, e->target, sizeof e->target);
    const store_value *d = r->n > 4 && r->cols[4].kind == SV_TEXT ? &r->cols[4] : NULL;
    e->detail = strdup(d && d->p ? (const char *)d->p : "{}");
    return e->detail ? STORE_OK : STORE_ERROR;
}

static int read_log(store *st, void *ctx) {
    list_ctx *c = ctx;
    val v[] = { VI(c->limit) };
    return run(st, "SELECT id, at_ms, action, target, detail FROM admin_log ORDER BY id DESC LIMIT ?1", v, 1,
               log_row, c, NULL);
}

int store_read_admin_log(store *st, int limit, store_log_entry **out, int *count) {
    if (!out || !count || limit < 1) return STORE_ERROR;
    list_ctx c = { .limit = limit > STORE_ADMIN_LIST_MAX ? STORE_ADMIN_LIST_MAX : limit };
    int code = reading(st, read_log, &c);
    if (code != STORE_OK) {
        store_admin_free_log(c.list, c.count);
        c.list = NULL;
        c.count = 0;
    }
    *out = c.list;
    *count = c.count;
    return code;
}

void store_admin_free_log(store_log_entry *list, int count) {
    for (int i = 0; list && i < count; i++) free(list[i].detail);
    free(list);
}
