/* game: one game's life, seats and actions. See game.h; its clock is in
 * game_clock.c and what it tells in game_view.c.
 *
 * Time runs out in two places, both under the game lock and both appending
 * the same ACT_TIMEOUT: before any action is judged (so a late move is
 * never accepted), and in game_check_clock, which the deadline timer calls
 * when a game's deadline passes (server/deadlines.c). */
#include "games/game_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/vertex.h"
#include "util/metrics.h"
#include "store/store_chat.h"
#include "util/now.h"
#include "wire/clock_json.h"
#include "wire/options_json.h"
#include "wire/settings_json.h"

/* ---- facts ----------------------------------------------------------------- */

const char *game_id(const game *g) { return g->id; }
game_mode game_get_mode(const game *g) { return g->mode; }
const game_settings *game_get_settings(const game *g) { return &g->settings; }
const char *game_level(const game *g) { return g->mode == MODE_COMPUTER ? g->level : NULL; }
const time_control *game_get_time_control(const game *g) { return &g->tc; }
bool game_is_public(const game *g) { return atomic_load(&((game *)g)->is_public); }
bool game_has_aid(const game *g) { return g->aid; }
int game_computer_color(const game *g) { return g->computer_color; }
bool game_is_over(const game *g) { return atomic_load(&g->over); }

/* ---- life ------------------------------------------------------------------ */

static game *game_alloc(game_env *env, const char *id) {
    game *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->env = env;
    snprintf(g->id, sizeof g->id, "%s", id);
    pthread_mutex_init(&g->lock, NULL);
    pthread_mutex_init(&g->watch_lock, NULL);
    atomic_init(&g->refs, 0);
    atomic_init(&g->last_used_ms, now_monotonic_ms());
    atomic_init(&g->over, false);
    for (int c = 0; c < 3; c++) atomic_init(&g->presence[c], 0);
    for (int r = 0; r < 3; r++) atomic_init(&g->chat_last[r], 0);
    atomic_init(&g->spectators, 0);
    return g;
}

void game_free(game *g) {
    if (!g) return;
    referee_free(g->ref);
    free(g->at_ms);
    store_game_free_fields(&g->row);
    game_invalidate(g);
    game_aid_free(g);
    pthread_mutex_destroy(&g->lock);
    pthread_mutex_destroy(&g->watch_lock);
    free(g);
}

game *game_ref(game *g) {
    atomic_fetch_add(&g->refs, 1);
    return g;
}

void game_release(game *g) {
    if (!g) return;
    atomic_store(&g->last_used_ms, now_monotonic_ms()); /* before the count can reach 0 */
    atomic_fetch_sub(&g->refs, 1);
}

bool game_idle(const game *g, int64_t now, int64_t idle_ms) {
    return atomic_load(&g->refs) == 0 && now - atomic_load(&g->last_used_ms) > idle_ms;
}

/* ---- loading ------------------------------------------------------------- */

/* Table options: {"deduction_aid":true} (absent in games stored before
 * the aid existed: off), plus {"level":"medium","computer":"white"} for
 * computer games. */
static bool read_options(game *g) {
    table_options o;
    if (!mode_parse(g->row.mode, &g->mode) ||
        !table_options_parse(g->row.options_json, g->mode == MODE_COMPUTER, &o))
        return false;
    g->aid = o.deduction_aid;
    snprintf(g->level, sizeof g->level, "%s", o.level);
    g->computer_color = o.computer_color;
    return true;
}

static bool action_from_store(const store_action *sa, int size, action *out) {
    memset(out, 0, sizeof *out);
    out->color = sa->color;
    out->point = NO_POINT;
    if (!strcmp(sa->kind, "attempt")) {
        out->kind = ACT_ATTEMPT;
        return vertex_parse(sa->vertex, size, &out->point) && out->point != PASS_POINT;
    }
    if (!strcmp(sa->kind, "pass")) out->kind = ACT_PASS;
    else if (!strcmp(sa->kind, "resign")) out->kind = ACT_RESIGN;
    else if (!strcmp(sa->kind, "timeout")) out->kind = ACT_TIMEOUT;
    else if (!strcmp(sa->kind, "forfeit")) out->kind = ACT_FORFEIT;
    else return false;
    return true;
}

/* Replays the stored log; every action must be accepted with its seq. */
static bool replay_log(game *g, const store_action *acts, int n, char *err, size_t errlen) {
    int size = g->settings.size;
    g->at_ms = malloc((size_t)(n > 0 ? n : 1) * sizeof *g->at_ms);
    if (!g->at_ms) return snprintf(err, errlen, "out of memory"), false;
    g->cap_at = n > 0 ? n : 1;
    for (int i = 0; i < n; i++) {
        g->at_ms[i] = acts[i].at_ms;
        g->n_at = i + 1;
        action a;
        const ref_event *ev;
        refusal why = REFUSE_NONE;
        if (acts[i].seq != i + 1 || !action_from_store(&acts[i], size, &a) ||
            (why = referee_apply(g->ref, a, &ev)) != REFUSE_NONE) {
            snprintf(err, errlen, "action %d (%s %s) is %s", i + 1, acts[i].kind, acts[i].vertex,
                     why != REFUSE_NONE ? "refused by the referee" : "malformed or out of order");
            return false;
        }
    }
    return true;
}

/* The seat whose request an action was: a claim (forfeit) is the
 * opponent's request, a timeout nobody's (0). */
static int requester_of(const action *a) {
    if (a->kind == ACT_TIMEOUT) return 0;
    return a->kind == ACT_FORFEIT ? color_other(a->color) : a->color;
}

/* Each seat's last action, so that a retry after a restart is known as
 * one (its answer is rendered when it comes: repeat_answer). */
static void note_last_actions(game *g) {
    int n = referee_event_count(g->ref);
    for (int seq = n; seq >= 1; seq--) {
        const action *a = referee_action(g->ref, seq);
        int seat = requester_of(a);
        seat_answer *sa = &g->last[seat];
        if (!seat || sa->seq) continue;
        sa->seq = seq;
        sa->act = *a;
        if (g->last[BLACK].seq && g->last[WHITE].seq) break;
    }
}

/* The row's settings, options and time control. */
static bool read_row(game *g, char *err, size_t errlen) {
    if (!settings_parse_json(g->row.settings_json, &g->settings, err, errlen)) return false;
    if (!read_options(g)) return snprintf(err, errlen, "bad mode or options"), false;
    if (!time_control_parse_json(g->row.time_control_json, &g->tc, err, errlen)) return false;
    g->is_public = g->row.is_public;
    return true;
}

/* Whether the rematch g links was cancelled lives in that game's row: the
 * offer's end is stored once, where the cancellation is. */
static int load_rematch_state(game *g) {
    g->rematch_cancelled = false;
    if (!g->row.rematch_id[0]) return STORE_OK;
    store_game rematch;
    int rc = store_load_game(g->env->st, g->row.rematch_id, &rematch, NULL, NULL);
    if (rc == STORE_NOT_FOUND) return STORE_OK;
    if (rc != STORE_OK) return rc;
    g->rematch_cancelled = rematch.cancelled_at_ms != 0;
    store_game_free_fields(&rematch);
    return STORE_OK;
}

game *game_from_store(game_env *env, store_game *row, const store_action *acts, int n, int *store_rc,
                      char *err, size_t errlen) {
    *store_rc = STORE_OK;
    game *g = game_alloc(env, row->id);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    g->row = *row;
    row->settings_json = row->options_json = row->time_control_json = NULL;
    bool ok = read_row(g, err, errlen);
    if (ok && !(g->ref = referee_new(&g->settings))) ok = (snprintf(err, errlen, "out of memory"), false);
    ok = ok && replay_log(g, acts, n, err, errlen);
    if (ok && (*store_rc = game_talk_load(g)) != STORE_OK)
        ok = (snprintf(err, errlen, "cannot read its names and chat: %s", store_strerror(*store_rc)), false);
    if (ok && (*store_rc = load_rematch_state(g)) != STORE_OK)
        ok = (snprintf(err, errlen, "cannot read its rematch: %s", store_strerror(*store_rc)), false);
    if (ok) note_last_actions(g);
    if (!ok) {
        game_free(g);
        return NULL;
    }
    atomic_store(&g->over, referee_result(g->ref).over);
    return g;
}

/* Replaces what the log determines in g (referee, times, last actions,
 * row) with the store's, keeping g's watchers and references; false (g
 * unchanged) if the store cannot be read. Game lock held. */
static bool reload_log(game *g) {
    store_game row;
    store_action *acts = NULL;
    int n = 0;
    if (store_load_game(g->env->st, g->id, &row, &acts, &n) != STORE_OK) return false;
    char err[200];
    int rc;
    game *fresh = game_from_store(g->env, &row, acts, n, &rc, err, sizeof err);
    free(acts);
    store_game_free_fields(&row);
    if (!fresh) return false;
    referee *ref = g->ref;
    g->ref = fresh->ref;
    fresh->ref = ref;
    game_clock_forget(g);
    int64_t *at = g->at_ms;
    g->at_ms = fresh->at_ms;
    fresh->at_ms = at;
    int n_at = g->n_at;
    g->n_at = fresh->n_at;
    fresh->n_at = n_at;
    int cap_at = g->cap_at;
    g->cap_at = fresh->cap_at;
    fresh->cap_at = cap_at;
    store_game old_row = g->row;
    g->row = fresh->row;
    fresh->row = old_row;
    g->is_public = g->row.is_public; /* the operator may have hidden it */
    g->rematch_cancelled = fresh->rematch_cancelled;
    for (int c = 0; c < 3; c++) {
        seat_answer last = g->last[c];
        g->last[c] = fresh->last[c];
        fresh->last[c] = last;
    }
    memcpy(g->names, fresh->names, sizeof g->names);
    game_free(fresh);
    g->log_in_doubt = false;
    game_invalidate(g);
    atomic_store(&g->over, referee_result(g->ref).over);
    return true;
}

void game_catch_up(game *g, int seq) {
    pthread_mutex_lock(&g->lock);
    bool caught_up = referee_event_count(g->ref) < seq && reload_log(g);
    pthread_mutex_unlock(&g->lock);
    if (caught_up) game_notify(g);
}

/* What another server may change in a row without an action. */
static bool same_row_facts(const store_game *a, const store_game *b) {
    return !memcmp(a->seat_hash, b->seat_hash, sizeof a->seat_hash) &&
           !memcmp(a->invite_hash, b->invite_hash, sizeof a->invite_hash) && a->invite_color == b->invite_color &&
           !strcmp(a->rematch_id, b->rematch_id) && a->started_at_ms == b->started_at_ms &&
           a->cancelled_at_ms == b->cancelled_at_ms && a->is_public == b->is_public;
}

void game_refresh(game *g) {
    pthread_mutex_lock(&g->lock);
    store_game before = g->row; /* its fixed fields only: the pointers go with the reload */
    char names[3][GAME_NAME_BYTES];
    memcpy(names, g->names, sizeof names);
    int events = referee_event_count(g->ref);
    bool rematch_cancelled = g->rematch_cancelled;
    bool changed = reload_log(g) && (!same_row_facts(&before, &g->row) || referee_event_count(g->ref) != events ||
                                     g->rematch_cancelled != rematch_cancelled ||
                                     strcmp(names[BLACK], g->names[BLACK]) || strcmp(names[WHITE], g->names[WHITE]));
    pthread_mutex_unlock(&g->lock);
    if (changed) game_notify(g);
    for (int room = GAME_ROOM_PLAYERS; room <= GAME_ROOM_SPECTATORS; room++) {
        int last = 0;
        if (store_chat_count(g->env->st, g->id, room, &last) == STORE_OK) game_chat_heard(g, room, last);
    }
}

/* ---- seats --------------------------------------------------------------- */

int game_seat_of(game *g, const char *token) {
    uint8_t h[SECRET_HASH_LEN];
    if (!token || !secrets_token_well_formed(token) || !secrets_hash(token, strlen(token), h)) return 0;
    pthread_mutex_lock(&g->lock);
    bool black = secrets_hash_equal(h, g->row.seat_hash[0]) && !secrets_hash_is_zero(g->row.seat_hash[0]);
    bool white = secrets_hash_equal(h, g->row.seat_hash[1]) && !secrets_hash_is_zero(g->row.seat_hash[1]);
    pthread_mutex_unlock(&g->lock);
    return black ? BLACK : white ? WHITE : 0;
}

/* Seat `c` gets a new token, stored: the invite is used and the clock
 * starts now if it had not. Game lock held. */
static game_status seat_taken(game *g, int c, char token[SECRET_TEXT_LEN + 1]) {
    uint8_t h[SECRET_HASH_LEN];
    if (!secrets_new_token(token) || !secrets_hash(token, strlen(token), h)) return GAME_ERROR;
    int64_t now = game_env_now_ms(g->env);
    game_status st = game_status_of_store(store_claim_seat(g->env->st, g->id, c, h, now));
    if (st != GAME_OK) return st;
    memcpy(g->row.seat_hash[c - 1], h, SECRET_HASH_LEN);
    memset(g->row.invite_hash, 0, SECRET_HASH_LEN);
    g->row.invite_color = 0;
    if (!g->row.started_at_ms) g->row.started_at_ms = now;
    game_invalidate(g);
    return GAME_OK;
}

/* Takes the invited seat; with invite_hash NULL (a public game's join) no
 * secret is needed. Game lock held. */
static game_status claim_locked(game *g, const uint8_t *invite_hash, int *color,
                                 char token[SECRET_TEXT_LEN + 1]) {
    if (g->row.cancelled_at_ms) return GAME_CANCELLED;
    if (!invite_hash && !g->is_public) return GAME_NOT_PUBLIC;
    if (secrets_hash_is_zero(g->row.invite_hash) || g->row.invite_color == 0) return GAME_SEAT_TAKEN;
    if (invite_hash && !secrets_hash_equal(invite_hash, g->row.invite_hash)) return GAME_BAD_INVITE;
    int c = g->row.invite_color;
    game_status st = seat_taken(g, c, token);
    if (st == GAME_OK) *color = c;
    return st;
}

game_status game_claim(game *g, const char *invite, int *color, char token[SECRET_TEXT_LEN + 1]) {
    uint8_t h[SECRET_HASH_LEN];
    token[0] = '\0';
    if (!secrets_hash(invite, strlen(invite), h)) return GAME_ERROR;
    pthread_mutex_lock(&g->lock);
    game_status st = claim_locked(g, h, color, token);
    pthread_mutex_unlock(&g->lock);
    if (st == GAME_OK) game_notify(g);
    return st;
}

game_status game_join(game *g, int *color, char token[SECRET_TEXT_LEN + 1]) {
    token[0] = '\0';
    pthread_mutex_lock(&g->lock);
    game_status st = claim_locked(g, NULL, color, token);
    pthread_mutex_unlock(&g->lock);
    if (st == GAME_OK) game_notify(g);
    return st;
}

game_status game_take_rematch_seat(game *g, int color, char token[SECRET_TEXT_LEN + 1]) {
    token[0] = '\0';
    pthread_mutex_lock(&g->lock);
    game_status st = GAME_SEAT_TAKEN;
    if (secrets_hash_is_zero(g->row.seat_hash[color - 1]) && g->row.invite_color == color)
        st = seat_taken(g, color, token);
    if (st != GAME_OK) token[0] = '\0';
    pthread_mutex_unlock(&g->lock);
    if (st == GAME_OK) game_notify(g);
    return st;
}

void game_set_computer_pace(game *g, int think_percent) {
    pthread_mutex_lock(&g->lock);
    bool changed = (g->computer_percent ? g->computer_percent : 100) != think_percent;
    g->computer_percent = think_percent;
    pthread_mutex_unlock(&g->lock);
    if (changed) game_notify(g);
}

void game_presence(game *g, int color, int delta) {
    if (color == VIEWER_SPECTATOR) {
        game_watching(g, delta);
        return;
    }
    if (color != BLACK && color != WHITE) return;
    int before = atomic_fetch_add(&g->presence[color], delta);
    if ((before > 0) == (before + delta > 0)) return;
    pthread_mutex_lock(&g->lock);
    game_invalidate(g);
    pthread_mutex_unlock(&g->lock);
    game_notify(g);
}

/* ---- acting -------------------------------------------------------------- */

static bool same_action(const action *a, const action *b) {
    return a->kind == b->kind && a->color == b->color && (a->kind != ACT_ATTEMPT || a->point == b->point);
}

static game_status from_refusal(refusal r) {
    switch (r) {
    case REFUSE_NOT_YOUR_TURN: return GAME_NOT_YOUR_TURN;
    case REFUSE_ALREADY_TRIED: return GAME_ALREADY_TRIED;
    case REFUSE_OWN_STONE: return GAME_OWN_STONE;
    case REFUSE_BAD_VERTEX: return GAME_BAD_VERTEX;
    case REFUSE_GAME_OVER: return GAME_GAME_OVER;
    case REFUSE_NONE: break;
    }
    return GAME_OK;
}

static const char *store_kind(action_kind k) {
    switch (k) {
    case ACT_ATTEMPT: return "attempt";
    case ACT_PASS: return "pass";
    case ACT_RESIGN: return "resign";
    case ACT_TIMEOUT: return "timeout";
    case ACT_FORFEIT: return "forfeit";
    }
    return "?";
}

static metrics_move metric_of(const ref_event *ev) {
    switch (ev->kind) {
    case EV_MOVE: return MOVE_LEGAL;
    case EV_ILLEGAL: return MOVE_ILLEGAL;
    case EV_PASS: return MOVE_PASS;
    case EV_RESIGN: return MOVE_RESIGN;
    default: return MOVE_OTHER;
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

/* Commits the event the referee just produced for action a, stamped at
 * at_ms; on failure the referee goes back to the log before it. Game lock
 * held. */
static game_status commit_event(game *g, const action *a, const ref_event *ev, int64_t at_ms) {
    store_action sa;
    memset(&sa, 0, sizeof sa);
    sa.seq = ev->seq;
    snprintf(sa.kind, sizeof sa.kind, "%s", store_kind(a->kind));
    sa.color = a->color;
    if (a->kind == ACT_ATTEMPT) vertex_format(a->point, g->settings.size, sa.vertex);
    sa.at_ms = at_ms;
    int rc = reserve_time(g) ? store_append_action(g->env->st, g->id, &sa) : STORE_ERROR;
    if (rc == STORE_OK) {
        g->at_ms[g->n_at++] = at_ms;
        game_invalidate(g);
        atomic_store(&g->over, referee_result(g->ref).over);
        return GAME_OK;
    }
    referee *before = referee_replay(g->ref, ev->seq - 1);
    if (!before) abort(); /* cannot happen short of memory: the log replayed before */
    referee_free(g->ref);
    g->ref = before;
    game_clock_forget(g);
    fprintf(stderr, "phantomgo: game %s: action %d not stored (%s)\n", g->id, sa.seq, store_strerror(rc));
    /* A taken seq: another server moved the game on. Unavailable: the
     * commit may have happened all the same. Either way the log decides. */
    if (rc == STORE_CONFLICT || rc == STORE_UNAVAILABLE) g->log_in_doubt = true;
    game_status st = game_status_of_store(rc);
    return st == GAME_UNAVAILABLE ? st : GAME_ERROR;
}

/* Appends the timeout of the side to move if it has run out at now: 1 if
 * it did, 0 if nothing was due, -1 if it could not be stored. Game lock
 * held. */
static int enforce_clock(game *g, int64_t now) {
    if (referee_result(g->ref).over) return 0;
    game_clock c;
    game_clock_now(g, &c);
    if (!clock_flagged(&c, now)) return 0;
    action a = { .kind = ACT_TIMEOUT, .color = c.running, .point = NO_POINT };
    const ref_event *ev;
    if (referee_apply(g->ref, a, &ev) != REFUSE_NONE) return -1;
    return commit_event(g, &a, ev, now) == GAME_OK ? 1 : -1;
}

/* Seat color's answer to its last action again (a retry), rendered as the
 * first one was: its event, and its view and clock as of that event (a
 * replay when the game has moved on since). Answers are not kept between
 * requests: an idle game would hold two rendered views for a rare retry.
 * Game lock held. */
static game_status repeat_answer(game *g, int color, strbuf *answer) {
    if (!answer) return GAME_OK;
    int seq = g->last[color].seq;
    referee *then = seq == referee_event_count(g->ref) ? g->ref : referee_replay(g->ref, seq);
    if (!then) return GAME_ERROR;
    bool ok = game_answer_append(g, then, color, seq, answer);
    if (then != g->ref) referee_free(then);
    return ok ? GAME_OK : GAME_ERROR;
}

/* Game lock held. The order of the checks is the API's: a retry first, then
 * the clock (a side out of time loses before anything else is judged), the
 * game's end, the sequence number, a claim's limit, and the referee's own
 * refusals. */
static game_status act_locked(game *g, int color, int seq, const action *a, strbuf *answer) {
    /* The log is the truth when this copy may be behind it: after a failed
     * write, or when the player knows of later events than it holds (the
     * game was played on another server meanwhile). */
    if ((g->log_in_doubt || seq > referee_event_count(g->ref) + 1) && !reload_log(g) && g->log_in_doubt)
        return GAME_UNAVAILABLE;
    seat_answer *last = &g->last[color];
    if (last->seq && seq == last->seq && same_action(a, &last->act)) return repeat_answer(g, color, answer);
    if (g->row.cancelled_at_ms) return GAME_CANCELLED;
    int64_t now = game_env_now_ms(g->env);
    if (enforce_clock(g, now) < 0) return GAME_UNAVAILABLE;
    if (referee_result(g->ref).over) return GAME_GAME_OVER;
    if (seq != referee_event_count(g->ref) + 1) return GAME_STALE_SEQ;
    if (a->kind == ACT_FORFEIT) {
        game_status allowed =
            a->color == color_other(color) ? game_claim_allowed(g, color, now) : GAME_TOO_EARLY;
        if (allowed != GAME_OK) return allowed;
    }
    const ref_event *ev;
    refusal why = referee_apply(g->ref, *a, &ev);
    if (why != REFUSE_NONE) return from_refusal(why);
    metrics_move kind = metric_of(ev);
    game_status st = commit_event(g, a, ev, now);
    if (st == GAME_ERROR && g->log_in_doubt && reload_log(g))
        return act_locked(g, color, seq, a, answer); /* judged again on the log */
    if (st != GAME_OK) return st;
    metrics_move_played(kind);
    last->seq = seq;
    last->act = *a;
    if (!answer) return GAME_OK;
    /* stored either way: a retry or the next read shows it */
    return game_answer_append(g, g->ref, color, seq, answer) ? GAME_OK : GAME_ERROR;
}

game_status game_act(game *g, int color, int seq, const action *a, strbuf *answer) {
    if (color != BLACK && color != WHITE) return GAME_NOT_YOUR_TURN;
    pthread_mutex_lock(&g->lock);
    int before = referee_event_count(g->ref);
    game_status st = act_locked(g, color, seq, a, answer);
    bool changed = referee_event_count(g->ref) != before;
    pthread_mutex_unlock(&g->lock);
    if (changed) game_notify(g);
    return st;
}

int game_check_clock(game *g) {
    pthread_mutex_lock(&g->lock);
    int fired = enforce_clock(g, game_env_now_ms(g->env));
    pthread_mutex_unlock(&g->lock);
    if (fired > 0) game_notify(g);
    return fired;
}

int64_t game_deadline(game *g) {
    pthread_mutex_lock(&g->lock);
    int64_t at = game_deadline_locked(g);
    pthread_mutex_unlock(&g->lock);
    return at;
}

/* ---- rematch --------------------------------------------------------------- */

void game_rematch_of(game *g, bool *over, char id[24], bool *cancelled) {
    pthread_mutex_lock(&g->lock);
    *over = referee_result(g->ref).over;
    snprintf(id, 24, "%s", g->row.rematch_id);
    *cancelled = g->rematch_cancelled;
    pthread_mutex_unlock(&g->lock);
}

void game_rematch_request(game *g, game_mode *mode, game_settings *settings, time_control *tc,
                          char level[16]) {
    *mode = g->mode;
    *settings = g->settings;
    *tc = g->tc;
    snprintf(level, 16, "%s", g->level);
}

void game_set_rematch(game *g, const char *rematch_id) {
    pthread_mutex_lock(&g->lock);
    snprintf(g->row.rematch_id, sizeof g->row.rematch_id, "%s", rematch_id);
    g->rematch_cancelled = false;
    game_invalidate(g);
    pthread_mutex_unlock(&g->lock);
    game_notify(g);
}

void game_set_rematch_cancelled(game *g, const char *rematch_id) {
    pthread_mutex_lock(&g->lock);
    bool ours = strcmp(g->row.rematch_id, rematch_id) == 0 && !g->rematch_cancelled;
    if (ours) {
        g->rematch_cancelled = true;
        game_invalidate(g);
    }
    pthread_mutex_unlock(&g->lock);
    if (ours) game_notify(g);
}

int game_rematch_invited_color(game *g) {
    pthread_mutex_lock(&g->lock);
    int color = g->row.cancelled_at_ms || secrets_hash_is_zero(g->row.invite_hash) ? 0 : g->row.invite_color;
    pthread_mutex_unlock(&g->lock);
    return color;
}

/* ---- notes ----------------------------------------------------------------- */

game_status game_get_notes(game *g, int color, char **ghosts_json) {
    return game_status_of_store(store_get_notes(g->env->st, g->id, color, ghosts_json));
}

game_status game_put_notes(game *g, int color, const char *ghosts_json) {
    return game_status_of_store(store_put_notes(g->env->st, g->id, color, ghosts_json));
}

/* ---- watchers -------------------------------------------------------------- */

void watcher_list_add(game_watcher **head, game_watcher *w) {
    w->prev = NULL;
    w->next = *head;
    if (*head) (*head)->prev = w;
    *head = w;
}

void watcher_list_remove(game_watcher **head, game_watcher *w) {
    if (w->prev) w->prev->next = w->next;
    else *head = w->next;
    if (w->next) w->next->prev = w->prev;
    w->next = w->prev = NULL;
}

void game_watch(game *g, game_watcher *w) {
    pthread_mutex_lock(&g->watch_lock);
    watcher_list_add(&g->watchers, w);
    pthread_mutex_unlock(&g->watch_lock);
}

void game_unwatch(game *g, game_watcher *w) {
    pthread_mutex_lock(&g->watch_lock);
    watcher_list_remove(&g->watchers, w);
    pthread_mutex_unlock(&g->watch_lock);
}

/* ---- cancelling a game nobody joined ---------------------------------------- */

game_status game_cancel(game *g, int color) {
    if (color != BLACK && color != WHITE) return GAME_ERROR;
    pthread_mutex_lock(&g->lock);
    game_status st = GAME_OK;
    if (g->row.cancelled_at_ms) st = GAME_CANCELLED;
    else if (g->mode != MODE_ONLINE || secrets_hash_is_zero(g->row.invite_hash)) st = GAME_SEAT_TAKEN;
    int64_t now = game_env_now_ms(g->env);
    if (st == GAME_OK) st = game_status_of_store(store_cancel_game(g->env->st, g->id, now));
    if (st == GAME_OK) {
        g->row.cancelled_at_ms = now;
        memset(g->row.invite_hash, 0, sizeof g->row.invite_hash);
        g->row.invite_color = 0;
        game_invalidate(g);
    }
    pthread_mutex_unlock(&g->lock);
    if (st == GAME_OK) game_notify(g);
    return st;
}

bool game_cancelled(game *g) {
    pthread_mutex_lock(&g->lock);
    bool cancelled = g->row.cancelled_at_ms != 0;
    pthread_mutex_unlock(&g->lock);
    return cancelled;
}
