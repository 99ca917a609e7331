/* game_view: what one game tells, always through the visibility filter:
 * each viewer's view and events, a seat's answer to its action, the record
 * of a finished game, the lobby's facts and the computer seat's input.
 *
 * Each viewer's view is kept as text (src/wire renders it, its closing
 * brace left off) until the game next changes, so the reads that dominate
 * (page loads, polling, one WebSocket update per watcher per move) cost a
 * copy of bytes, not a replay of the observations nor a JSON tree. The
 * clock, which changes every millisecond, is not cached: it is folded from
 * the action times and appended to each copy as it leaves, and so is the
 * computer's pace (how much of its time the server could give it). */
#include "games/game_internal.h"

#include <stdlib.h>
#include <string.h>

#include "wire/clock_json.h"
#include "wire/sgf.h"

void game_invalidate(game *g) {
    for (int v = 0; v < VIEWERS; v++) {
        free(g->view_text[v]);
        g->view_text[v] = NULL;
        g->view_text_len[v] = 0;
    }
}

referee *referee_replay(const referee *r, int upto) {
    referee *copy = referee_new(referee_settings(r));
    for (int seq = 1; copy && seq <= upto; seq++)
        if (referee_apply(copy, *referee_action(r, seq), NULL) != REFUSE_NONE) {
            referee_free(copy);
            return NULL;
        }
    return copy;
}

/* The public facts around the referee. Game lock held. */
static void table_of(const game *g, view_table *t) {
    memset(t, 0, sizeof *t);
    t->game_id = g->id;
    t->mode = mode_name(g->mode);
    t->level = g->mode == MODE_COMPUTER ? g->level : NULL;
    t->tc = &g->tc;
    t->public_game = g->is_public;
    t->deduction_aid = g->aid;
    for (int c = BLACK; c <= WHITE; c++) {
        t->seat_computer[c] = c == g->computer_color;
        t->seat_taken[c] = t->seat_computer[c] || !secrets_hash_is_zero(g->row.seat_hash[c - 1]);
        t->seat_connected[c] = t->seat_computer[c] || atomic_load(&g->presence[c]) > 0;
    }
    t->rematch_id = g->row.rematch_id;
    t->rematch_cancelled = g->rematch_cancelled;
    for (int c = BLACK; c <= WHITE; c++) t->seat_name[c] = g->names[c];
    t->spectators = atomic_load(&g->spectators);
    t->cancelled = g->row.cancelled_at_ms != 0;
}

/* The share of its budget the computer's latest turn got (100 before its
 * first), for view_json_close; 0 when no computer plays. */
static int computer_percent_of(const game *g) {
    if (g->mode != MODE_COMPUTER) return 0;
    return g->computer_percent ? g->computer_percent : 100;
}

/* Appends viewer v's view after the first `upto` events of r, with its
 * clock read at `now`: from the cached text when r is the game's own
 * referee, else rendered (a retry's replay). Game lock held. */
static bool append_view(game *g, const referee *r, viewer v, int upto, int64_t now, strbuf *out) {
    view_table t;
    if (r != g->ref) {
        size_t len;
        table_of(g, &t);
        char *text = view_json_open_text(r, v, &t, &len);
        if (!text) return false;
        strbuf_append(out, text, len);
        free(text);
    } else {
        if (!g->view_text[v]) {
            table_of(g, &t);
            g->view_text[v] = view_json_open_text(r, v, &t, &g->view_text_len[v]);
            if (!g->view_text[v]) return false;
        }
        strbuf_append(out, g->view_text[v], g->view_text_len[v]);
    }
    game_clock c;
    if (r == g->ref && upto == referee_event_count(r)) game_clock_now(g, &c);
    else game_clock_fold(g, r, upto, &c);
    return view_json_close(out, &c, now, game_claim_at(g, &c), computer_percent_of(g));
}

bool game_view_text(game *g, viewer v, strbuf *out, int *seq_out) {
    pthread_mutex_lock(&g->lock);
    int n = referee_event_count(g->ref);
    bool ok = append_view(g, g->ref, v, n, game_env_now_ms(g->env), out);
    pthread_mutex_unlock(&g->lock);
    if (seq_out) *seq_out = n;
    return ok;
}

bool game_update_text(game *g, viewer v, int since, strbuf *out, int *seq_out, bool *over_out) {
    pthread_mutex_lock(&g->lock);
    int n = referee_event_count(g->ref);
    strbuf_puts(out, "\"events\":");
    bool ok = view_json_events_append(out, g->ref, v, since);
    strbuf_puts(out, ",\"view\":");
    ok = ok && append_view(g, g->ref, v, n, game_env_now_ms(g->env), out);
    bool over = referee_result(g->ref).over;
    pthread_mutex_unlock(&g->lock);
    if (seq_out) *seq_out = n;
    if (over_out) *over_out = over;
    return ok;
}

bool game_answer_append(game *g, const referee *r, int color, int seq, strbuf *out) {
    observation *ob = malloc(sizeof *ob);
    bool ok = ob && view_observe(r, (viewer)color, seq, ob);
    strbuf_puts(out, "{\"event\":");
    ok = ok && view_json_event_append(out, ob, referee_settings(r)->size);
    free(ob);
    strbuf_puts(out, ",\"view\":");
    ok = ok && append_view(g, r, (viewer)color, seq, g->at_ms[seq - 1], out);
    strbuf_append(out, "}", 1);
    return ok && !out->failed;
}

char *game_record_sgf(game *g, bool *over, size_t *len) {
    sgf_meta meta;
    memset(&meta, 0, sizeof meta);
    meta.game_id = g->id;
    pthread_mutex_lock(&g->lock);
    meta.started_ms = g->row.created_at_ms;
    meta.black_name = g->names[BLACK];
    meta.white_name = g->names[WHITE];
    *over = referee_result(g->ref).over;
    char *text = *over ? sgf_record_new(g->ref, &meta) : NULL;
    pthread_mutex_unlock(&g->lock);
    *len = text ? strlen(text) : 0;
    return text;
}

/* Game lock held. */
static void lobby_facts_locked(const game *g, game_lobby_facts *out) {
    bool open = g->row.invite_color != 0 && !secrets_hash_is_zero(g->row.invite_hash);
    out->listed = g->is_public && !referee_result(g->ref).over && !g->row.cancelled_at_ms;
    out->free_color = open ? g->row.invite_color : 0;
    out->created_ms = g->row.created_at_ms;
    out->started_ms = g->row.started_at_ms;
    for (int c = 0; c < 3; c++) memcpy(out->names[c], g->names[c], GAME_NAME_BYTES);
}

void game_lobby_facts_of(game *g, game_lobby_facts *out) {
    pthread_mutex_lock(&g->lock);
    lobby_facts_locked(g, out);
    pthread_mutex_unlock(&g->lock);
}

/* Game lock held. */
static bool computer_due_locked(const game *g) {
    return g->computer_color && !referee_result(g->ref).over && referee_to_move(g->ref) == g->computer_color;
}

/* Game lock held. */
int64_t game_deadline_locked(game *g) {
    if (referee_result(g->ref).over) return INT64_MAX;
    game_clock c;
    game_clock_now(g, &c);
    return clock_deadline(&c);
}

/* Fills *out under the game lock; a notice (new_version) numbers a new
 * record, a look outside a notice takes the latest number: it shows the
 * state of that notice or a newer one, whose own notice is on its way. */
static void take_record(game *g, game_change *out, bool new_version) {
    pthread_mutex_lock(&g->lock);
    out->version = new_version ? atomic_fetch_add(&g->changes, 1) + 1 : atomic_load(&g->changes);
    out->seq = referee_event_count(g->ref);
    out->over = referee_result(g->ref).over;
    out->cancelled = g->row.cancelled_at_ms != 0;
    out->computer_due = computer_due_locked(g);
    out->deadline_ms = game_deadline_locked(g);
    lobby_facts_locked(g, &out->lobby);
    pthread_mutex_unlock(&g->lock);
}

void game_change_now(game *g, game_change *out) { take_record(g, out, false); }

bool game_change_is_latest(game *g, const game_change *c) { return atomic_load(&g->changes) == c->version; }

/* Every change reaches the game's watchers (the hub's sockets on it: each
 * sets a flag and wakes its writer) and then, with one record read under
 * the lock, every listener of the environment. */
void game_notify(game *g) {
    pthread_mutex_lock(&g->watch_lock);
    for (game_watcher *w = g->watchers; w; w = w->next) w->notify(w);
    pthread_mutex_unlock(&g->watch_lock);
    game_change c;
    take_record(g, &c, true);
    pthread_rwlock_rdlock(&g->env->listeners_lock);
    for (registry_listener *l = g->env->listeners; l; l = l->next) l->changed(l, g, &c);
    pthread_rwlock_unlock(&g->env->listeners_lock);
}

bool game_computer_turn_of(game *g, game_computer_turn *out) {
    int c = g->computer_color;
    out->obs = NULL;
    pthread_mutex_lock(&g->lock);
    bool due = computer_due_locked(g);
    int n = referee_event_count(g->ref);
    if (due) {
        game_clock clock;
        game_clock_now(g, &clock);
        out->think_ms = clock_think_budget_ms(&clock, game_env_now_ms(g->env));
        out->n_obs = n;
        out->obs = malloc(sizeof *out->obs * (size_t)(n > 0 ? n : 1));
    }
    if (out->obs) {
        view_init(&out->vw, referee_settings(g->ref), (viewer)c);
        for (int seq = 1; seq <= n; seq++) {
            view_observe(g->ref, (viewer)c, seq, &out->obs[seq - 1]);
            view_apply(&out->vw, &out->obs[seq - 1]);
        }
    }
    pthread_mutex_unlock(&g->lock);
    return out->obs != NULL;
}
