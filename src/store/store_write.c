/* The store's writes, for both backends: the public write functions, the
 * group-commit queue and its writer thread.
 *
 * Every write call checks its arguments, describes its row as an array of
 * typed values (the one description of each persisted field: game_values
 * and action_values below, and the like in store_chat.c,
 * store_idempotency.c and store_push.c), queues a request that lives on
 * the caller's stack and sleeps on its own condition variable until the
 * transaction containing it has committed. The writer thread takes
 * everything queued and hands it to the backend's commit (st->be), which
 * runs the batch as one transaction (one fsync, or one WAL flush on
 * PostgreSQL, for all of it) and sets each request's own result; see
 * store_sqlite_write.c and store_pg_write.c for how each recovers when a
 * batch fails. */
#include "store/store_backend.h"
#include "store/store_rows.h"
#include "util/now.h"

#include <assert.h>
#include <string.h>

/* Statements for which changing no row means the write was refused (or
 * its game is unknown): the backend then asks which. For the others
 * (removing what is not there, a key already kept, a notice already
 * queued, a row gone with its subscription) changing nothing is no
 * error. The rule of both backends. */
static const bool must_change[ST_COUNT] = {
    [ST_INSERT_GAME] = true,  [ST_APPEND] = true,      [ST_CLAIM] = true,          [ST_REMATCH] = true,
    [ST_PUT_NOTES] = true,    [ST_PUT_NAME] = true,    [ST_APPEND_CHAT] = true,    [ST_CANCEL] = true,
    [ST_IDEM_RESERVE] = true, [ST_IDEM_FINISH] = true, [ST_PUSH_SUBSCRIBE] = true, [ST_PUSH_CLAIM] = true,
};

/* ---- the writer thread and the queue ---- */

static void *writer_main(void *arg) {
    store *st = arg;
    pthread_mutex_lock(&st->queue_lock);
    for (;;) {
        while (!st->queue_head && !st->stopping) pthread_cond_wait(&st->queue_nonempty, &st->queue_lock);
        if (!st->queue_head) break;
        write_req *batch = st->queue_head;
        st->queue_head = st->queue_tail = NULL;
        pthread_mutex_unlock(&st->queue_lock);

        st->be->commit(st->db, batch);

        pthread_mutex_lock(&st->queue_lock);
        for (write_req *r = batch, *next; r; r = next) {
            next = r->next; /* r may vanish once done is seen */
            r->done = true;
            pthread_cond_signal(&r->cond);
        }
    }
    pthread_mutex_unlock(&st->queue_lock);
    return NULL;
}

int store_writer_start(store *st) {
    if (pthread_create(&st->writer, NULL, writer_main, st) != 0) return -1;
    st->writer_running = true;
    return 0;
}

void store_writer_stop(store *st) {
    if (!st->writer_running) return;
    pthread_mutex_lock(&st->queue_lock);
    st->stopping = true;
    pthread_cond_signal(&st->queue_nonempty);
    pthread_mutex_unlock(&st->queue_lock);
    pthread_join(st->writer, NULL);
    st->writer_running = false;
}

/* Queues r and sleeps until the writer has committed (or failed) it. */
static int submit(store *st, write_req *r) {
    r->done = false;
    r->next = NULL;
    r->result = STORE_ERROR;
    pthread_cond_init(&r->cond, NULL);
    pthread_mutex_lock(&st->queue_lock);
    if (st->queue_tail) st->queue_tail->next = r;
    else st->queue_head = r;
    st->queue_tail = r;
    pthread_cond_signal(&st->queue_nonempty);
    while (!r->done) pthread_cond_wait(&r->cond, &st->queue_lock);
    pthread_mutex_unlock(&st->queue_lock);
    pthread_cond_destroy(&r->cond);
    return r->result;
}

static store_step step(enum store_stmt stmt, const store_value *values, int count) {
    assert(count >= 1 && count <= STORE_MAX_PARAMS);
    return (store_step){ .stmt = stmt, .values = values, .count = count, .must_change = must_change[stmt] };
}

/* One statement, one request. */
static int submit_one(store *st, enum store_stmt stmt, const store_value *values, int count) {
    write_req r = { .steps = { step(stmt, values, count) }, .nsteps = 1 };
    return submit(st, &r);
}

/* ---- checks ---- */

static bool field_ok(const char *s, size_t cap) { return s && strnlen(s, cap) < cap; }

static bool game_id_ok(const char *id) { return field_ok(id, sizeof((store_game *)0)->id) && *id; }

static bool color_ok(int color) { return color == 1 || color == 2; }

static bool is_zero(const uint8_t *bytes, size_t n) {
    uint8_t any = 0;
    for (size_t i = 0; i < n; i++) any |= bytes[i];
    return any == 0;
}

static bool game_ok(const store_game *g) {
    return g && game_id_ok(g->id) && field_ok(g->mode, sizeof g->mode) && g->settings_json &&
           g->options_json && field_ok(g->rematch_id, sizeof g->rematch_id);
}

int store_submit(store *st, enum store_stmt stmt, const store_value *values, int count) {
    if (!st || (unsigned)stmt >= ST_COUNT || !values || count < 1 || count > STORE_MAX_PARAMS)
        return STORE_ERROR;
    if (values[0].kind == SV_TEXT && !game_id_ok(values[0].p)) return STORE_ERROR;
    return submit_one(st, stmt, values, count);
}

/* ---- the rows: each persisted field described once (store_rows.h) ---- */

/* The parameters of ST_INSERT_GAME: the game row's inserted columns. */
enum { GAME_VALUES = STORE_GAME_INSERTED };
static void game_values(const store_game *g, store_value v[GAME_VALUES]) {
    store_row_values(store_game_columns, STORE_GAME_INSERTED, g, v);
}
_Static_assert(GAME_VALUES <= STORE_MAX_PARAMS, "the game row fits a request");

/* The parameters of ST_APPEND: the game, then the action row. */
enum { ACTION_VALUES = 1 + STORE_ACTION_COLUMNS };
static void action_values(const char *game_id, const store_action *a, store_value v[ACTION_VALUES]) {
    v[0] = sv_text(game_id);
    store_row_values(store_action_columns, STORE_ACTION_COLUMNS, a, v + 1);
}

/* ---- the public writes ---- */

int store_insert_game(store *st, const store_game *g) {
    if (!st || !game_ok(g)) return STORE_ERROR;
    store_value v[GAME_VALUES];
    game_values(g, v);
    return submit_one(st, ST_INSERT_GAME, v, GAME_VALUES);
}

int store_append_action(store *st, const char *game_id, const store_action *a) {
    if (!st || !game_id_ok(game_id) || !a || !field_ok(a->kind, sizeof a->kind) ||
        !field_ok(a->vertex, sizeof a->vertex) || !color_ok(a->color))
        return STORE_ERROR;
    store_value v[ACTION_VALUES];
    action_values(game_id, a, v);
    return submit_one(st, ST_APPEND, v, ACTION_VALUES);
}

int store_claim_seat(store *st, const char *game_id, int color, const uint8_t token_hash[32],
                     int64_t started_at_ms) {
    if (!st || !game_id_ok(game_id) || !color_ok(color) || !token_hash || is_zero(token_hash, 32) ||
        started_at_ms <= 0)
        return STORE_ERROR;
    store_value v[] = { sv_text(game_id), sv_int(color), sv_blob(token_hash, 32), sv_int(started_at_ms) };
    return submit_one(st, ST_CLAIM, v, 4);
}

int store_set_rematch(store *st, const char *game_id, const char *rematch_id) {
    if (!st || !game_id_ok(game_id) || !game_id_ok(rematch_id)) return STORE_ERROR;
    store_value v[] = { sv_text(game_id), sv_text(rematch_id) };
    return submit_one(st, ST_REMATCH, v, 2);
}

int store_create_rematch(store *st, const char *game_id, const store_game *rematch) {
    if (!st || !game_id_ok(game_id) || !game_ok(rematch)) return STORE_ERROR;
    store_value row[GAME_VALUES];
    game_values(rematch, row);
    store_value link[] = { sv_text(game_id), sv_text(rematch->id) };
    write_req r = { .steps = { step(ST_INSERT_GAME, row, GAME_VALUES), step(ST_REMATCH, link, 2) },
                    .nsteps = 2 };
    return submit(st, &r);
}

int store_put_notes(store *st, const char *game_id, int color, const char *ghosts_json) {
    if (!st || !game_id_ok(game_id) || !color_ok(color) || !ghosts_json) return STORE_ERROR;
    store_value v[] = { sv_text(game_id), sv_int(color), sv_text(ghosts_json), sv_int(now_wall_ms()) };
    return submit_one(st, ST_PUT_NOTES, v, 4);
}
