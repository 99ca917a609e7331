/* game_play: what happens to one game: acting, claiming a seat, rematches,
 * notes, and the views and events each viewer reads. See games.h.
 *
 * Each viewer's view JSON is cached until the game next changes, so the
 * reads that dominate (page loads, polling, one push per watcher per move)
 * cost a copy, not a replay of the observations. The clock, which changes
 * every millisecond, is not cached: it is folded from the action times and
 * added to each copy as it leaves (games_clock.c). */
#include "server/games_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/vertex.h"
#include "server/metrics.h"
#include "util/strbuf.h"
#include "wire/sgf.h"

void game_invalidate(game *g) {
    for (int v = 0; v < VIEWERS; v++) {
        free(g->view_text[v]);
        g->view_text[v] = NULL;
        g->view_len[v] = 0;
    }
}

void game_changed(game *g) {
    pthread_mutex_lock(&g->watch_lock);
    for (games_watcher *w = g->watchers; w; w = w->next) w->notify(w);
    pthread_mutex_unlock(&g->watch_lock);
    games_lobby_update(g);
    games_bot_consider(g);
}

void game_watch(game *g, games_watcher *w) {
    pthread_mutex_lock(&g->watch_lock);
    watcher_list_add(&g->watchers, w);
    atomic_fetch_add(&g->n_watchers, 1);
    pthread_mutex_unlock(&g->watch_lock);
}

void game_unwatch(game *g, games_watcher *w) {
    pthread_mutex_lock(&g->watch_lock);
    watcher_list_remove(&g->watchers, w);
    atomic_fetch_sub(&g->n_watchers, 1);
    pthread_mutex_unlock(&g->watch_lock);
}

/* The cached view of viewer v, rendered if stale. Game lock held. */
static const char *cached_view(game *g, viewer v, size_t *len) {
    if (!g->view_text[v]) {
        view_table t;
        game_table(g, &t);
        g->view_text[v] = view_json_render(g->ref, v, &t, &g->view_len[v]);
    }
    *len = g->view_len[v];
    return g->view_text[v];
}

static char *copy_bytes(const char *src, size_t len) {
    char *p = src ? malloc(len + 1) : NULL;
    if (p) {
        memcpy(p, src, len);
        p[len] = '\0';
    }
    return p;
}

char *game_view_json(game *g, viewer v, size_t *len) {
    pthread_mutex_lock(&g->lock);
    size_t vlen;
    const char *text = cached_view(g, v, &vlen);
    char *copy = game_with_clock(g, g->ref, referee_event_count(g->ref), games_now_ms(g->owner),
                                 text, vlen, len);
    pthread_mutex_unlock(&g->lock);
    return copy;
}

char *game_events_json(game *g, viewer v, int since, const char *prefix, int *seq_out, size_t *len) {
    strbuf sb;
    strbuf_init(&sb);
    pthread_mutex_lock(&g->lock);
    size_t vlen;
    int n = referee_event_count(g->ref);
    const char *cached = cached_view(g, v, &vlen);
    char *vtext = game_with_clock(g, g->ref, n, games_now_ms(g->owner), cached, vlen, &vlen);
    cJSON *events = view_json_events_since(g->ref, v, since);
    char *etext = events ? cJSON_PrintUnformatted(events) : NULL;
    if (seq_out) *seq_out = n;
    if (vtext && etext) {
        strbuf_printf(&sb, "%s\"events\":%s,\"view\":", prefix, etext);
        strbuf_append(&sb, vtext, vlen);
        strbuf_puts(&sb, "}");
    }
    pthread_mutex_unlock(&g->lock);
    free(vtext);
    cJSON_Delete(events);
    cJSON_free(etext);
    if (!vtext || !etext) {
        strbuf_free(&sb);
        return NULL;
    }
    return strbuf_take(&sb, len);
}

char *game_answer_text(game *g, const referee *r, int color, int seq, size_t *len) {
    observation *ob = malloc(sizeof *ob);
    cJSON *event = ob && view_observe(r, (viewer)color, seq, ob)
                       ? view_json_event(ob, referee_settings(r)->size) : NULL;
    char *etext = event ? cJSON_PrintUnformatted(event) : NULL;
    size_t vlen = 0;
    char *vtext = NULL;
    if (etext && r == g->ref) {
        const char *cached = cached_view(g, (viewer)color, &vlen);
        vtext = game_with_clock(g, r, seq, g->at_ms[seq - 1], cached, vlen, &vlen);
    } else if (etext) {
        view_table t;
        game_table(g, &t);
        char *past = view_json_render(r, (viewer)color, &t, &vlen);
        vtext = past ? game_with_clock(g, r, seq, g->at_ms[seq - 1], past, vlen, &vlen) : NULL;
        free(past);
    }
    strbuf sb;
    strbuf_init(&sb);
    if (vtext) {
        strbuf_printf(&sb, "{\"event\":%s,\"view\":", etext);
        strbuf_append(&sb, vtext, vlen);
        strbuf_puts(&sb, "}");
    } else {
        sb.failed = true;
    }
    free(ob);
    cJSON_Delete(event);
    cJSON_free(etext);
    free(vtext);
    return strbuf_take(&sb, len);
}

int game_seat_of(game *g, const char *token) {
    uint8_t h[SECRET_HASH_LEN];
    if (!token || !secrets_token_well_formed(token) || !secrets_hash(token, strlen(token), h)) return 0;
    pthread_mutex_lock(&g->lock);
    bool black = secrets_hash_equal(h, g->row.seat_hash[0]) && !secrets_hash_is_zero(g->row.seat_hash[0]);
    bool white = secrets_hash_equal(h, g->row.seat_hash[1]) && !secrets_hash_is_zero(g->row.seat_hash[1]);
    pthread_mutex_unlock(&g->lock);
    return black ? BLACK : white ? WHITE : 0;
}

/* ---- acting -------------------------------------------------------------- */

static bool same_action(const action *a, const action *b) {
    return a->kind == b->kind && a->color == b->color &&
           (a->kind != ACT_ATTEMPT || a->point == b->point);
}

static games_status from_refusal(refusal r) {
    switch (r) {
    case REFUSE_NOT_YOUR_TURN: return GAMES_NOT_YOUR_TURN;
    case REFUSE_ALREADY_TRIED: return GAMES_ALREADY_TRIED;
    case REFUSE_OWN_STONE:     return GAMES_OWN_STONE;
    case REFUSE_BAD_VERTEX:    return GAMES_BAD_VERTEX;
    case REFUSE_GAME_OVER:     return GAMES_GAME_OVER;
    case REFUSE_NONE:          break;
    }
    return GAMES_OK;
}

static const char *store_kind(action_kind k) {
    switch (k) {
    case ACT_ATTEMPT: return "attempt";
    case ACT_PASS:    return "pass";
    case ACT_RESIGN:  return "resign";
    case ACT_TIMEOUT: return "timeout";
    case ACT_FORFEIT: return "forfeit";
    }
    return "?";
}

static metrics_move metric_of(const ref_event *ev) {
    switch (ev->kind) {
    case EV_MOVE:    return MOVE_LEGAL;
    case EV_ILLEGAL: return MOVE_ILLEGAL;
    case EV_PASS:    return MOVE_PASS;
    case EV_RESIGN:  return MOVE_RESIGN;
    default:         return MOVE_OTHER;
    }
}

/* Room for one more event time; false when out of memory. */
static bool reserve_time(game *g) {
    if (g->n_at < g->cap_at) return true;
    int cap = g->cap_at ? g->cap_at * 2 : 64;
    int64_t *bigger = realloc(g->at_ms, (size_t)cap * sizeof *bigger);
    if (!bigger) return false;
    g->at_ms = bigger;
    g->cap_at = cap;
    return true;
}

games_status game_commit_event(game *g, const action *a, const ref_event *ev, int64_t at_ms) {
    store_action sa;
    memset(&sa, 0, sizeof sa);
    sa.seq = ev->seq;
    snprintf(sa.kind, sizeof sa.kind, "%s", store_kind(a->kind));
    sa.color = a->color;
    if (a->kind == ACT_ATTEMPT) vertex_format(a->point, referee_settings(g->ref)->size, sa.vertex);
    sa.at_ms = at_ms;
    int rc = reserve_time(g) ? store_append_action(g->owner->st, g->id, &sa) : STORE_ERROR;
    if (rc == STORE_OK) {
        g->at_ms[g->n_at++] = at_ms;
        return GAMES_OK;
    }
    referee *before = referee_replay(g->ref, ev->seq - 1);
    if (!before) abort();        /* cannot happen short of memory: the log replayed before */
    referee_free(g->ref);
    g->ref = before;
    fprintf(stderr, "phantomgo: game %s: action %d not stored (%s)\n", g->id, sa.seq, store_strerror(rc));
    /* A taken seq: another server moved the game on. Unavailable: the
     * commit may have happened all the same. Either way the log decides. */
    if (rc == STORE_CONFLICT || rc == STORE_UNAVAILABLE) g->log_in_doubt = true;
    return rc == STORE_UNAVAILABLE ? GAMES_UNAVAILABLE : GAMES_ERROR;
}

/* Game lock held. The order of the checks is the API's: a retry first, then
 * the clock (a side out of time loses before anything else is judged), the
 * game's end, the sequence number, a claim's limit, and the referee's own
 * refusals. */
static games_status act_locked(game *g, int color, int seq, const action *a, char **answer, size_t *len) {
    /* The log is the truth when this copy may be behind it: after a failed
     * write, or when the player knows of later events than it holds (the
     * game was played on another server meanwhile). */
    if ((g->log_in_doubt || seq > referee_event_count(g->ref) + 1) && !game_reload_log(g) && g->log_in_doubt)
        return GAMES_UNAVAILABLE;
    seat_answer *last = &g->last[color];
    if (last->seq && seq == last->seq && same_action(a, &last->act)) {
        *answer = copy_bytes(last->text, last->len);
        *len = last->len;
        return *answer ? GAMES_OK : GAMES_ERROR;
    }
    int64_t now = games_now_ms(g->owner);
    if (game_enforce_clock(g, now) < 0) return GAMES_UNAVAILABLE;
    if (referee_result(g->ref).over) return GAMES_GAME_OVER;
    if (seq != referee_event_count(g->ref) + 1) return GAMES_STALE_SEQ;
    if (a->kind == ACT_FORFEIT) {
        games_status allowed = a->color == color_other(color) ? game_claim_allowed(g, color, now) : GAMES_TOO_EARLY;
        if (allowed != GAMES_OK) return allowed;
    }
    const ref_event *ev;
    refusal why = referee_apply(g->ref, *a, &ev);
    if (why != REFUSE_NONE) return from_refusal(why);
    metrics_move kind = metric_of(ev);
    games_status st = game_commit_event(g, a, ev, now);
    if (st == GAMES_ERROR && g->log_in_doubt && game_reload_log(g))
        return act_locked(g, color, seq, a, answer, len);  /* judged again on the log */
    if (st != GAMES_OK) return st;
    metrics_move_played(kind);
    game_invalidate(g);
    atomic_store(&g->over, referee_result(g->ref).over);
    game_clock_rearm(g);
    char *text = game_answer_text(g, g->ref, color, seq, len);
    if (!text) return GAMES_ERROR;      /* stored: the next read shows it */
    free(last->text);
    last->seq = seq;
    last->act = *a;
    last->text = text;
    last->len = *len;
    *answer = copy_bytes(text, *len);
    return *answer ? GAMES_OK : GAMES_ERROR;
}

games_status game_act(game *g, int color, int seq, const action *a, char **answer, size_t *len) {
    *answer = NULL;
    *len = 0;
    if (color != BLACK && color != WHITE) return GAMES_NOT_YOUR_TURN;
    pthread_mutex_lock(&g->lock);
    int before = referee_event_count(g->ref);
    games_status st = act_locked(g, color, seq, a, answer, len);
    bool changed = referee_event_count(g->ref) != before;
    pthread_mutex_unlock(&g->lock);
    if (changed) game_changed(g);
    return st;
}

/* ---- seats --------------------------------------------------------------- */

/* Seat `c` taken with token hash h (stored already): the invite is used
 * and the clock starts at `now` if it had not. Game lock held. */
static void seat_taken(game *g, int c, const uint8_t h[SECRET_HASH_LEN], int64_t now) {
    memcpy(g->row.seat_hash[c - 1], h, SECRET_HASH_LEN);
    memset(g->row.invite_hash, 0, SECRET_HASH_LEN);
    g->row.invite_color = 0;
    if (!g->row.started_at_ms) g->row.started_at_ms = now;
    game_invalidate(g);
    game_clock_rearm(g);
}

/* Takes the invited seat; with invite_hash NULL (a public game's join) no
 * secret is needed. Game lock held. */
static games_status claim_locked(game *g, const uint8_t *invite_hash, int *color,
                                 char token[SECRET_TEXT_LEN + 1]) {
    if (!invite_hash && !g->row.is_public) return GAMES_NOT_PUBLIC;
    if (secrets_hash_is_zero(g->row.invite_hash) || g->row.invite_color == 0) return GAMES_SEAT_TAKEN;
    if (invite_hash && !secrets_hash_equal(invite_hash, g->row.invite_hash)) return GAMES_BAD_INVITE;
    int c = g->row.invite_color;
    uint8_t h[SECRET_HASH_LEN];
    if (!secrets_new_token(token) || !secrets_hash(token, strlen(token), h)) return GAMES_ERROR;
    int64_t now = games_now_ms(g->owner);
    int rc = store_claim_seat(g->owner->st, g->id, c, h, now);
    if (rc == STORE_CONFLICT) return GAMES_SEAT_TAKEN;
    if (rc != STORE_OK) return rc == STORE_UNAVAILABLE ? GAMES_UNAVAILABLE : GAMES_ERROR;
    seat_taken(g, c, h, now);
    *color = c;
    return GAMES_OK;
}

games_status game_claim(game *g, const char *invite, int *color, char token[SECRET_TEXT_LEN + 1]) {
    uint8_t h[SECRET_HASH_LEN];
    token[0] = '\0';
    if (!secrets_hash(invite, strlen(invite), h)) return GAMES_ERROR;
    pthread_mutex_lock(&g->lock);
    games_status st = claim_locked(g, h, color, token);
    pthread_mutex_unlock(&g->lock);
    if (st == GAMES_OK) game_changed(g);
    return st;
}

games_status game_join(game *g, int *color, char token[SECRET_TEXT_LEN + 1]) {
    token[0] = '\0';
    pthread_mutex_lock(&g->lock);
    games_status st = claim_locked(g, NULL, color, token);
    pthread_mutex_unlock(&g->lock);
    if (st == GAMES_OK) game_changed(g);
    return st;
}

void game_presence(game *g, int color, int delta) {
    if (color != BLACK && color != WHITE) return;
    int before = atomic_fetch_add(&g->presence[color], delta);
    if ((before > 0) == (before + delta > 0)) return;
    pthread_mutex_lock(&g->lock);
    game_invalidate(g);
    pthread_mutex_unlock(&g->lock);
    game_changed(g);
}

/* ---- rematch ------------------------------------------------------------- */

/* Game lock of g held: creates the rematch and records it in g. */
static games_status rematch_create(games *gm, game *g, int color, game_created *out) {
    game_new req;
    memset(&req, 0, sizeof req);
    req.mode = g->mode;
    req.settings = *referee_settings(g->ref);
    req.tc = g->tc;
    req.creator_color = color_other(color);
    req.level = g->level;
    games_status st = games_create(gm, &req, out);
    if (st != GAMES_OK) return st;
    /* The other seat is the opponent's, taken by their own rematch call:
     * its invite secret is told to nobody, so the creator cannot take it. */
    out->invite[0] = '\0';
    int rc = store_set_rematch(gm->st, g->id, out->id);
    if (rc != STORE_OK) return rc == STORE_UNAVAILABLE ? GAMES_UNAVAILABLE : GAMES_ERROR;
    snprintf(g->row.rematch_id, sizeof g->row.rematch_id, "%s", out->id);
    game_invalidate(g);
    return GAMES_OK;
}

/* The other seat takes its place in the rematch the first seat created. */
static games_status rematch_join(games *gm, const char *id, int color, game_created *out) {
    game *ng;
    games_status st = games_get(gm, id, &ng);
    if (st != GAMES_OK) return st;
    int seat = color_other(color);
    uint8_t h[SECRET_HASH_LEN];
    int64_t now = games_now_ms(gm);
    pthread_mutex_lock(&ng->lock);
    st = GAMES_SEAT_TAKEN;
    if (secrets_hash_is_zero(ng->row.seat_hash[seat - 1]) && ng->row.invite_color == seat) {
        int rc = secrets_new_token(out->token[seat]) &&
                 secrets_hash(out->token[seat], strlen(out->token[seat]), h)
                     ? store_claim_seat(gm->st, ng->id, seat, h, now) : STORE_ERROR;
        st = rc == STORE_OK ? GAMES_OK : rc == STORE_CONFLICT ? GAMES_SEAT_TAKEN
           : rc == STORE_UNAVAILABLE ? GAMES_UNAVAILABLE : GAMES_ERROR;
    }
    if (st == GAMES_OK) {
        seat_taken(ng, seat, h, now);
        snprintf(out->id, sizeof out->id, "%s", ng->id);
    } else {
        out->token[seat][0] = '\0';
    }
    pthread_mutex_unlock(&ng->lock);
    if (st == GAMES_OK) game_changed(ng);
    game_release(ng);
    return st;
}

games_status game_rematch(games *gm, game *g, int color, bool *created, game_created *out) {
    memset(out, 0, sizeof *out);
    *created = false;
    char existing[sizeof g->row.rematch_id];
    pthread_mutex_lock(&g->lock);
    games_status st = GAMES_OK;
    if (!referee_result(g->ref).over) st = GAMES_NOT_OVER;
    else if (!g->row.rematch_id[0]) {
        st = rematch_create(gm, g, color, out);
        *created = st == GAMES_OK;
    }
    snprintf(existing, sizeof existing, "%s", g->row.rematch_id);
    pthread_mutex_unlock(&g->lock);
    if (*created) {
        game_changed(g);
        return GAMES_OK;
    }
    if (st != GAMES_OK) return st;
    return rematch_join(gm, existing, color, out);
}

/* ---- record -------------------------------------------------------------- */

char *game_record_sgf(game *g, bool *over, size_t *len) {
    sgf_meta meta;
    memset(&meta, 0, sizeof meta);
    meta.game_id = g->id;
    pthread_mutex_lock(&g->lock);
    meta.started_ms = g->row.created_at_ms;
    *over = referee_result(g->ref).over;
    char *text = *over ? sgf_record_new(g->ref, &meta) : NULL;
    pthread_mutex_unlock(&g->lock);
    *len = text ? strlen(text) : 0;
    return text;
}

/* ---- notes --------------------------------------------------------------- */

games_status game_get_notes(game *g, int color, char **ghosts_json) {
    int rc = store_get_notes(g->owner->st, g->id, color, ghosts_json);
    return rc == STORE_OK ? GAMES_OK : rc == STORE_UNAVAILABLE ? GAMES_UNAVAILABLE
         : rc == STORE_NOT_FOUND ? GAMES_NOT_FOUND : GAMES_ERROR;
}

games_status game_put_notes(game *g, int color, const char *ghosts_json) {
    int rc = store_put_notes(g->owner->st, g->id, color, ghosts_json);
    return rc == STORE_OK ? GAMES_OK : rc == STORE_UNAVAILABLE ? GAMES_UNAVAILABLE
         : rc == STORE_NOT_FOUND ? GAMES_NOT_FOUND : GAMES_ERROR;
}
