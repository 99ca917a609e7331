/* games: the registry of games in memory, loading a game by replaying its
 * stored log, and creating games. See games.h; acting lives in
 * game_play.c and the computer's workers in games_bot.c.
 *
 * The registry is a chained hash table under one lock that is only held
 * for lookups and insertions, never while a game is loaded from the store.
 * Games nobody has used for a while (no reference, no watcher, no queued
 * computer move) are dropped by a sweep that runs at most once a minute;
 * the store still has them, so the next request replays them again. */
#include "server/games_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "engine/vertex.h"
#include "server/metrics.h"
#include "wire/clock_json.h"
#include "wire/settings_json.h"

enum { SWEEP_EVERY_MS = 60 * 1000, IDLE_DROP_MS = 10 * 60 * 1000, CREATE_ATTEMPTS = 4 };

int64_t games_clock_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const char *game_mode_name(game_mode m) {
    return m == MODE_HOTSEAT ? "hotseat" : m == MODE_COMPUTER ? "computer" : "online";
}

static bool mode_from_name(const char *s, game_mode *out) {
    if (!strcmp(s, "online")) *out = MODE_ONLINE;
    else if (!strcmp(s, "hotseat")) *out = MODE_HOTSEAT;
    else if (!strcmp(s, "computer")) *out = MODE_COMPUTER;
    else return false;
    return true;
}

const char *game_id(const game *g) { return g->id; }
game_mode game_get_mode(const game *g) { return g->mode; }
const game_settings *game_get_settings(const game *g) { return &g->settings; }
const char *game_level(const game *g) { return g->mode == MODE_COMPUTER ? g->level : NULL; }
const time_control *game_get_time_control(const game *g) { return &g->tc; }
bool game_is_public(const game *g) { return g->row.is_public; }

void game_table(const game *g, view_table *t) {
    memset(t, 0, sizeof *t);
    t->game_id = g->id;
    t->mode = game_mode_name(g->mode);
    t->level = game_level(g);
    t->tc = &g->tc;
    t->public_game = g->row.is_public;
    for (int c = BLACK; c <= WHITE; c++) {
        t->seat_computer[c] = c == g->computer_color;
        t->seat_taken[c] = t->seat_computer[c] || !secrets_hash_is_zero(g->row.seat_hash[c - 1]);
        t->seat_connected[c] = t->seat_computer[c] || atomic_load(&g->presence[c]) > 0;
    }
    t->rematch_id = g->row.rematch_id;
}

/* ---- the registry -------------------------------------------------------- */

static size_t bucket_of(const games *gm, const char *id) {
    uint64_t h = 1469598103934665603ull;
    for (; *id; id++) h = (h ^ (uint8_t)*id) * 1099511628211ull;
    return (size_t)(h % gm->nbuckets);
}

static bool registry_grow(games *gm) {
    size_t n = gm->nbuckets * 2;
    game **b = calloc(n, sizeof *b);
    if (!b) return false;
    game **old = gm->buckets;
    size_t old_n = gm->nbuckets;
    gm->buckets = b;
    gm->nbuckets = n;
    for (size_t i = 0; i < old_n; i++)
        for (game *g = old[i], *next; g; g = next) {
            next = g->hash_next;
            size_t k = bucket_of(gm, g->id);
            g->hash_next = b[k];
            b[k] = g;
        }
    free(old);
    return true;
}

static game *registry_find(games *gm, const char *id) {
    for (game *g = gm->buckets[bucket_of(gm, id)]; g; g = g->hash_next)
        if (!strcmp(g->id, id)) return g;
    return NULL;
}

static void game_free(game *g) {
    if (!g) return;
    referee_free(g->ref);
    free(g->at_ms);
    store_game_free_fields(&g->row);
    for (int c = 0; c < 3; c++) free(g->last[c].text);
    for (int v = 0; v < VIEWERS; v++) free(g->view_text[v]);
    pthread_mutex_destroy(&g->lock);
    pthread_mutex_destroy(&g->watch_lock);
    free(g);
}

static bool droppable(const game *g, int64_t now) {
    return g->refs == 0 && atomic_load(&g->n_watchers) == 0 && !atomic_load(&g->bot_queued) &&
           now - g->last_used_ms > IDLE_DROP_MS;
}

/* Registry lock held. Unlinks idle games into *dropped (freed by the caller
 * after unlocking). */
static void sweep(games *gm, int64_t now, game **dropped) {
    if (now - gm->last_sweep_ms < SWEEP_EVERY_MS) return;
    gm->last_sweep_ms = now;
    for (size_t i = 0; i < gm->nbuckets; i++)
        for (game **pp = &gm->buckets[i]; *pp;) {
            game *g = *pp;
            if (!droppable(g, now)) { pp = &g->hash_next; continue; }
            *pp = g->hash_next;
            g->hash_next = *dropped;
            *dropped = g;
            gm->count--;
        }
}

static void free_list(game *g) {
    while (g) {
        game *next = g->hash_next;
        game_free(g);
        g = next;
    }
}

/* Inserts g unless a game with its id is there already; returns the one
 * in the registry, referenced (g is freed if it lost). */
static game *registry_insert(games *gm, game *g) {
    game *dropped = NULL;
    pthread_mutex_lock(&gm->lock);
    int64_t now = games_clock_ms();
    sweep(gm, now, &dropped);
    game *there = registry_find(gm, g->id);
    if (!there && gm->count + 1 > gm->nbuckets * 2) registry_grow(gm);
    if (!there) {
        size_t k = bucket_of(gm, g->id);
        g->hash_next = gm->buckets[k];
        gm->buckets[k] = g;
        gm->count++;
        there = g;
        g = NULL;
    }
    there->refs++;
    there->last_used_ms = now;
    pthread_mutex_unlock(&gm->lock);
    free_list(dropped);
    game_free(g);
    return there;
}

game *game_ref(game *g) {
    pthread_mutex_lock(&g->owner->lock);
    g->refs++;
    pthread_mutex_unlock(&g->owner->lock);
    return g;
}

void game_release(game *g) {
    if (!g) return;
    games *gm = g->owner;
    pthread_mutex_lock(&gm->lock);
    g->refs--;
    g->last_used_ms = games_clock_ms();
    pthread_mutex_unlock(&gm->lock);
}

/* Any server sharing the database stored action seq of game id: a copy
 * held here that is behind (the game was played on another server
 * meanwhile) catches up from the log and tells its watchers, so sockets
 * still open here see every event. */
static void on_stored_action(void *ctx, const char *id, int seq) {
    games *gm = ctx;
    pthread_mutex_lock(&gm->lock);
    game *g = registry_find(gm, id);
    if (g) g->refs++;
    pthread_mutex_unlock(&gm->lock);
    if (!g) return;
    pthread_mutex_lock(&g->lock);
    bool caught_up = referee_event_count(g->ref) < seq && game_reload_log(g);
    pthread_mutex_unlock(&g->lock);
    if (caught_up) game_changed(g);
    game_release(g);
}

int games_open(games **out, store *st, char *err, size_t errlen) {
    *out = NULL;
    games *gm = calloc(1, sizeof *gm);
    if (!gm || !(gm->buckets = calloc(256, sizeof *gm->buckets))) {
        free(gm);
        snprintf(err, errlen, "out of memory");
        return GAMES_ERROR;
    }
    gm->nbuckets = 256;
    gm->st = st;
    gm->last_sweep_ms = games_clock_ms();
    pthread_mutex_init(&gm->lock, NULL);
    pthread_mutex_init(&gm->bot_lock, NULL);
    pthread_cond_init(&gm->bot_cond, NULL);
    games_lobby_init(gm);
    if (!games_clock_start(gm)) {
        snprintf(err, errlen, "cannot start the clock thread");
        games_close(gm);
        return GAMES_ERROR;
    }
    store_watch_actions(st, on_stored_action, gm);
    *out = gm;
    return GAMES_OK;
}

void games_close(games *gm) {
    if (!gm) return;
    store_watch_actions(gm->st, NULL, NULL);
    games_clock_stop(gm);
    games_bot_stop(gm);
    games_lobby_free(gm);
    for (size_t i = 0; i < gm->nbuckets; i++) free_list(gm->buckets[i]);
    free(gm->buckets);
    pthread_mutex_destroy(&gm->lock);
    pthread_mutex_destroy(&gm->bot_lock);
    pthread_cond_destroy(&gm->bot_cond);
    free(gm);
}

void games_count(games *gm, long *loaded, long *in_play) {
    long n = 0, playing = 0;
    pthread_mutex_lock(&gm->lock);
    for (size_t i = 0; i < gm->nbuckets; i++)
        for (game *g = gm->buckets[i]; g; g = g->hash_next) {
            n++;
            if (!atomic_load(&g->over)) playing++;
        }
    pthread_mutex_unlock(&gm->lock);
    *loaded = n;
    *in_play = playing;
}

/* ---- loading ------------------------------------------------------------- */

static game *game_alloc(games *gm, const char *id) {
    game *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->owner = gm;
    snprintf(g->id, sizeof g->id, "%s", id);
    pthread_mutex_init(&g->lock, NULL);
    pthread_mutex_init(&g->watch_lock, NULL);
    atomic_init(&g->over, false);
    atomic_init(&g->n_watchers, 0);
    atomic_init(&g->bot_queued, false);
    for (int c = 0; c < 3; c++) atomic_init(&g->presence[c], 0);
    return g;
}

/* Mode options: {"level":"medium","computer":"white"} for computer games. */
static bool read_options(game *g) {
    if (!mode_from_name(g->row.mode, &g->mode)) return false;
    if (g->mode != MODE_COMPUTER) return true;
    cJSON *o = cJSON_Parse(g->row.options_json ? g->row.options_json : "{}");
    const cJSON *level = cJSON_GetObjectItemCaseSensitive(o, "level");
    const cJSON *comp = cJSON_GetObjectItemCaseSensitive(o, "computer");
    bool ok = cJSON_IsString(level) && cJSON_IsString(comp);
    if (ok) {
        snprintf(g->level, sizeof g->level, "%s", level->valuestring);
        g->computer_color = !strcmp(comp->valuestring, "black") ? BLACK
                          : !strcmp(comp->valuestring, "white") ? WHITE : 0;
        ok = g->computer_color != 0;
    }
    cJSON_Delete(o);
    return ok;
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
static bool replay_log(game *g, const store_action *acts, int n) {
    int size = referee_settings(g->ref)->size;
    g->at_ms = malloc((size_t)(n > 0 ? n : 1) * sizeof *g->at_ms);
    if (!g->at_ms) return false;
    g->cap_at = n > 0 ? n : 1;
    for (int i = 0; i < n; i++) {
        g->at_ms[i] = acts[i].at_ms;
        g->n_at = i + 1;
        action a;
        const ref_event *ev;
        if (acts[i].seq != i + 1 || !action_from_store(&acts[i], size, &a) ||
            referee_apply(g->ref, a, &ev) != REFUSE_NONE)
            return false;
    }
    return true;
}

/* The seat whose request an action was: a claim (forfeit) is the
 * opponent's request, a timeout nobody's (0). */
static int requester_of(const action *a) {
    if (a->kind == ACT_TIMEOUT) return 0;
    return a->kind == ACT_FORFEIT ? color_other(a->color) : a->color;
}

/* Each seat's last answer, so a retry after a restart still gets it. */
static bool rebuild_answers(game *g) {
    int n = referee_event_count(g->ref);
    for (int seq = n; seq >= 1; seq--) {
        const action *a = referee_action(g->ref, seq);
        int seat = requester_of(a);
        seat_answer *sa = &g->last[seat];
        if (!seat || sa->seq) continue;
        referee *then = seq == n ? g->ref : referee_replay(g->ref, seq);
        if (!then) return false;
        sa->text = game_answer_text(g, then, seat, seq, &sa->len);
        if (then != g->ref) referee_free(then);
        if (!sa->text) return false;
        sa->seq = seq;
        sa->act = *a;
        if (g->last[BLACK].seq && g->last[WHITE].seq) break;
    }
    return true;
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

/* Loads g's row and log from the store into the fresh game g, replaying
 * it; g is freed on failure. */
static games_status load_into(games *gm, const char *id, game *g, game **out) {
    store_action *acts = NULL;
    int n = 0;
    int rc = store_load_game(gm->st, id, &g->row, &acts, &n);
    if (rc != STORE_OK) {
        game_free(g);
        return rc == STORE_NOT_FOUND ? GAMES_NOT_FOUND : rc == STORE_UNAVAILABLE ? GAMES_UNAVAILABLE : GAMES_ERROR;
    }
    game_settings s;
    char err[160];
    bool ok = settings_parse_json(g->row.settings_json, &s, err, sizeof err) && read_options(g) &&
              time_control_parse_json(g->row.time_control_json, &g->tc, err, sizeof err) &&
              (g->ref = referee_new(&s)) != NULL && replay_log(g, acts, n) && rebuild_answers(g);
    free(acts);
    if (!ok) {
        fprintf(stderr, "phantomgo: game %s cannot be replayed from the store\n", id);
        game_free(g);
        return GAMES_ERROR;
    }
    g->settings = s;
    atomic_store(&g->over, referee_result(g->ref).over);
    *out = g;
    return GAMES_OK;
}

static games_status load_game(games *gm, const char *id, game **out) {
    game *g = game_alloc(gm, id);
    if (!g) return GAMES_ERROR;
    games_status st = load_into(gm, id, g, out);
    if (st == GAMES_OK) game_clock_rearm(g);
    return st;
}

bool game_reload_log(game *g) {
    game *fresh = game_alloc(g->owner, g->id), *loaded;
    if (!fresh || load_into(g->owner, g->id, fresh, &loaded) != GAMES_OK) return false;
    /* Swap what the log determines; fresh leaves with the old state. */
    referee *ref = g->ref; g->ref = fresh->ref; fresh->ref = ref;
    int64_t *at = g->at_ms; g->at_ms = fresh->at_ms; fresh->at_ms = at;
    int n_at = g->n_at; g->n_at = fresh->n_at; fresh->n_at = n_at;
    int cap_at = g->cap_at; g->cap_at = fresh->cap_at; fresh->cap_at = cap_at;
    store_game row = g->row; g->row = fresh->row; fresh->row = row;
    for (int c = 0; c < 3; c++) {
        seat_answer last = g->last[c]; g->last[c] = fresh->last[c]; fresh->last[c] = last;
    }
    game_free(fresh);
    g->log_in_doubt = false;
    atomic_store(&g->over, referee_result(g->ref).over);
    game_invalidate(g);
    game_clock_rearm(g);
    return true;
}

static bool id_well_formed(const char *id) {
    size_t n = 0;
    for (; id[n]; n++)
        if (!((id[n] >= 'a' && id[n] <= 'z') || (id[n] >= '0' && id[n] <= '9')) || n >= 20) return false;
    return n >= 10;
}

games_status games_get(games *gm, const char *id, game **out) {
    *out = NULL;
    if (!id_well_formed(id)) return GAMES_NOT_FOUND;
    pthread_mutex_lock(&gm->lock);
    game *g = registry_find(gm, id);
    if (g) {
        g->refs++;
        g->last_used_ms = games_clock_ms();
    }
    pthread_mutex_unlock(&gm->lock);
    if (g) {
        *out = g;
        return GAMES_OK;
    }
    games_status st = load_game(gm, id, &g);
    if (st != GAMES_OK) return st;
    *out = registry_insert(gm, g);
    games_lobby_update(*out);
    return GAMES_OK;
}

/* ---- creation ------------------------------------------------------------ */

static bool new_seat(store_game *row, int color, char token[SECRET_TEXT_LEN + 1]) {
    return secrets_new_token(token) && secrets_hash(token, strlen(token), row->seat_hash[color - 1]);
}

static char *options_json(const game_new *req) {
    if (req->mode != MODE_COMPUTER) return strdup("{}");
    cJSON *o = cJSON_CreateObject();
    char *text = NULL;
    if (o && cJSON_AddStringToObject(o, "level", req->level) &&
        cJSON_AddStringToObject(o, "computer", req->creator_color == BLACK ? "white" : "black"))
        text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return text;
}

static char *json_text(cJSON *o) {
    char *text = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    return text;
}

/* The row of a new game and the secrets it hands out. Its clock starts now
 * unless an online game waits for its second player. */
static bool fill_row(store_game *row, const game_new *req, int64_t now, game_created *out) {
    row->settings_json = json_text(settings_to_json(&req->settings));
    row->options_json = options_json(req);
    row->time_control_json = json_text(time_control_to_json(&req->tc));
    if (!row->settings_json || !row->options_json || !row->time_control_json) return false;
    snprintf(row->mode, sizeof row->mode, "%s", game_mode_name(req->mode));
    row->created_at_ms = now;
    row->started_at_ms = req->mode == MODE_ONLINE ? 0 : now;
    row->is_public = req->mode == MODE_ONLINE && req->public_game;
    if (req->mode == MODE_HOTSEAT)
        return new_seat(row, BLACK, out->token[BLACK]) && new_seat(row, WHITE, out->token[WHITE]);
    if (!new_seat(row, req->creator_color, out->token[req->creator_color])) return false;
    if (req->mode == MODE_COMPUTER) return true;
    row->invite_color = color_other(req->creator_color);
    return secrets_new_token(out->invite) &&
           secrets_hash(out->invite, strlen(out->invite), row->invite_hash);
}

games_status games_create(games *gm, const game_new *req, game_created *out) {
    if (req->mode == MODE_COMPUTER && !gm->has_bot) return GAMES_NO_BOT;
    for (int attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
        memset(out, 0, sizeof *out);
        game *g = NULL;
        if (!secrets_new_game_id(out->id) || !(g = game_alloc(gm, out->id))) return GAMES_ERROR;
        snprintf(g->row.id, sizeof g->row.id, "%s", out->id);
        g->tc = req->tc;
        g->settings = req->settings;
        if (!fill_row(&g->row, req, games_now_ms(gm), out) || !read_options(g) ||
            !(g->ref = referee_new(&req->settings))) {
            game_free(g);
            return GAMES_ERROR;
        }
        int rc = store_insert_game(gm->st, &g->row);
        if (rc == STORE_CONFLICT) {              /* an id drawn twice: draw again */
            game_free(g);
            continue;
        }
        if (rc != STORE_OK) {
            game_free(g);
            return rc == STORE_UNAVAILABLE ? GAMES_UNAVAILABLE : GAMES_ERROR;
        }
        metrics_game_created();
        game_clock_rearm(g);
        g = registry_insert(gm, g);
        games_lobby_update(g);
        games_bot_consider(g);
        game_release(g);
        return GAMES_OK;
    }
    return GAMES_ERROR;
}

int games_collect_id(void *ctx, const char *id) {
    id_list *l = ctx;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        char (*ids)[24] = realloc(l->ids, cap * sizeof *ids);
        if (!ids) return 1;
        l->ids = ids;
        l->cap = cap;
    }
    snprintf(l->ids[l->n++], sizeof l->ids[0], "%s", id);
    return 0;
}
