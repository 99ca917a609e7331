/* registry: the games in memory. See registry.h.
 *
 * The registry is a chained hash table under one lock that is only held
 * for lookups, insertions and the sweep, never while a game is loaded from
 * the store and never with a game's lock: it is a leaf. Games nobody
 * references and nobody used for a while are dropped by a sweep that runs
 * at most once a minute; the store still has them, so the next request
 * replays them again. (The lobby, the computer's queue and every WebSocket
 * hold references, so the games they need stay.) */
#include "games/registry.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "util/metrics.h"
#include "util/now.h"
#include "wire/options_json.h"

enum {
    SWEEP_EVERY_MS = 60 * 1000,
    IDLE_DROP_MS = 10 * 60 * 1000,
    CREATE_ATTEMPTS = 4,
    DEFAULT_ABANDON_MS = 10 * 60 * 1000
};

typedef struct entry {
    game *g;
    struct entry *next;
} entry;

struct registry {
    registry_listener rematch_parents; /* first: the listener finds gm from it */
    game_env env;
    bool test_clock;
    bool computer_allowed;
    pthread_mutex_t lock; /* the table */
    entry **buckets;
    size_t nbuckets, count;
    int64_t last_sweep_ms;
};

/* ---- the table ------------------------------------------------------------- */

static size_t bucket_of(size_t nbuckets, const char *id) {
    uint64_t h = 1469598103934665603ull;
    for (; *id; id++) h = (h ^ (uint8_t)*id) * 1099511628211ull;
    return (size_t)(h % nbuckets);
}

static void table_grow(registry *gm) {
    size_t n = gm->nbuckets * 2;
    entry **b = calloc(n, sizeof *b);
    if (!b) return; /* longer chains, still correct */
    for (size_t i = 0; i < gm->nbuckets; i++)
        for (entry *e = gm->buckets[i], *next; e; e = next) {
            next = e->next;
            size_t k = bucket_of(n, game_id(e->g));
            e->next = b[k];
            b[k] = e;
        }
    free(gm->buckets);
    gm->buckets = b;
    gm->nbuckets = n;
}

static entry *table_find(registry *gm, const char *id) {
    for (entry *e = gm->buckets[bucket_of(gm->nbuckets, id)]; e; e = e->next)
        if (!strcmp(game_id(e->g), id)) return e;
    return NULL;
}

/* Table lock held. Unlinks idle games into *dropped (freed by the caller
 * after unlocking). */
static void sweep(registry *gm, int64_t now, entry **dropped) {
    if (now - gm->last_sweep_ms < SWEEP_EVERY_MS) return;
    gm->last_sweep_ms = now;
    for (size_t i = 0; i < gm->nbuckets; i++)
        for (entry **pp = &gm->buckets[i]; *pp;) {
            entry *e = *pp;
            if (!game_idle(e->g, now, IDLE_DROP_MS)) {
                pp = &e->next;
                continue;
            }
            *pp = e->next;
            e->next = *dropped;
            *dropped = e;
            gm->count--;
        }
}

static void free_entries(entry *e) {
    while (e) {
        entry *next = e->next;
        game_free(e->g);
        free(e);
        e = next;
    }
}

/* Inserts g unless a game with its id is there already; returns the one
 * in the table, referenced (g is freed if it lost, or if out of memory:
 * then NULL). */
static game *table_insert(registry *gm, game *g) {
    entry *dropped = NULL, *fresh = malloc(sizeof *fresh);
    pthread_mutex_lock(&gm->lock);
    sweep(gm, now_monotonic_ms(), &dropped);
    entry *there = table_find(gm, game_id(g));
    game *winner = there ? there->g : fresh ? g : NULL;
    if (!there && fresh) {
        if (gm->count + 1 > gm->nbuckets * 2) table_grow(gm);
        size_t k = bucket_of(gm->nbuckets, game_id(g));
        fresh->g = g;
        fresh->next = gm->buckets[k];
        gm->buckets[k] = fresh;
        gm->count++;
        fresh = NULL;
    }
    if (winner) game_ref(winner);
    pthread_mutex_unlock(&gm->lock);
    free_entries(dropped);
    free(fresh);
    if (winner != g) game_free(g);
    return winner;
}

/* ---- opening --------------------------------------------------------------- */

/* The game with this id if this server holds it in memory (referenced),
 * else NULL: news about a game nobody here holds needs no work, the next
 * load reads the store anyway. */
static game *held(registry *gm, const char *id) {
    pthread_mutex_lock(&gm->lock);
    entry *e = table_find(gm, id);
    game *g = e ? game_ref(e->g) : NULL;
    pthread_mutex_unlock(&gm->lock);
    return g;
}

/* News from the store (store_watch): what any server sharing the database
 * stored. A copy held here that another server moved on (a game played,
 * joined, renamed or talked about elsewhere meanwhile) catches up from the
 * store and tells its watchers, so sockets still open here see every event
 * and message, each only to the viewers that may have it. */
static void on_stored_action(void *ctx, const char *id, int seq) {
    game *g = held(ctx, id);
    if (g) game_catch_up(g, seq);
    game_release(g);
}

static void refresh_rematch_parents(registry *gm, const char *id);

static void on_stored_row(void *ctx, const char *id) {
    game *g = held(ctx, id);
    if (g) game_refresh(g);
    else refresh_rematch_parents(ctx, id); /* held here, g tells them itself */
    game_release(g);
}

static void on_stored_names(void *ctx, const char *id) {
    game *g = held(ctx, id);
    if (g) game_names_heard(g);
    game_release(g);
}

static void on_stored_chat(void *ctx, const char *id, int room, int n) {
    game *g = held(ctx, id);
    if (g) game_chat_heard(g, room, n);
    game_release(g);
}

static void on_stored_unchat(void *ctx, const char *id, int room, int n) {
    game *g = held(ctx, id);
    if (g) game_chat_removed(g, room, n);
    game_release(g);
}

/* A public game created on any server is loaded here too, and reaches
 * this server's listeners as one created here would (the lobby lists
 * it); one created here is in the table already. */
static void on_created_public(void *ctx, const char *id) {
    game *g;
    if (registry_get(ctx, id, &g) == GAME_OK) game_release(g);
}

/* Every game held here, referenced, in a malloc'd array (NULL when there
 * are none or out of memory). */
static game **held_all(registry *gm, size_t *n) {
    pthread_mutex_lock(&gm->lock);
    game **list = gm->count ? malloc(gm->count * sizeof *list) : NULL;
    *n = 0;
    for (size_t i = 0; list && i < gm->nbuckets; i++)
        for (entry *e = gm->buckets[i]; e; e = e->next) list[(*n)++] = game_ref(e->g);
    pthread_mutex_unlock(&gm->lock);
    return list;
}

/* ---- a rematch cancelled from its own page -------------------------------- */

/* A rematch offer ends when its new game is cancelled, however that came
 * about: withdrawn or declined (registry_rematch_end), or cancelled by the
 * offerer on the new game's page (game_cancel). The finished game it came
 * from must then say so, live, which its own code cannot see: the new game
 * does not know where it came from. So the registry listens to every game
 * and, when one is cancelled, marks the games held here whose rematch it
 * is; a game cancelled on another server arrives as news of its row. */

/* Calls fn on every game held here whose rematch is game id. */
static void each_rematch_parent(registry *gm, const char *id, void (*fn)(game *parent, const char *id)) {
    size_t n;
    game **list = held_all(gm, &n);
    for (size_t i = 0; i < n; i++) {
        bool over, cancelled;
        char rematch[24];
        game_rematch_of(list[i], &over, rematch, &cancelled);
        if (!cancelled && !strcmp(rematch, id)) fn(list[i], id);
        game_release(list[i]);
    }
    free(list);
}

static void refresh_parent(game *parent, const char *id) {
    (void)id;
    game_refresh(parent);
}

static void refresh_rematch_parents(registry *gm, const char *id) { each_rematch_parent(gm, id, refresh_parent); }

static void on_game_changed(registry_listener *l, game *g, const game_change *c) {
    if (c->cancelled) each_rematch_parent((registry *)l, game_id(g), game_set_rematch_cancelled);
}

/* Some news may have been lost: every copy held here is read afresh and
 * every public game loaded, as if each had been news. */
static void on_news_lost(void *ctx) {
    registry *gm = ctx;
    size_t n;
    game **list = held_all(gm, &n);
    for (size_t i = 0; i < n; i++) {
        game_refresh(list[i]);
        game_release(list[i]);
    }
    free(list);
    registry_load_listed(gm, "public_to_list", NULL);
}

int registry_open(registry **out, store *st, char *err, size_t errlen) {
    *out = NULL;
    registry *gm = calloc(1, sizeof *gm);
    if (!gm || !(gm->buckets = calloc(256, sizeof *gm->buckets))) {
        free(gm);
        snprintf(err, errlen, "out of memory");
        return GAME_ERROR;
    }
    gm->nbuckets = 256;
    gm->env.st = st;
    atomic_init(&gm->env.clock_offset_ms, 0);
    gm->env.abandon_ms = DEFAULT_ABANDON_MS;
    gm->last_sweep_ms = now_monotonic_ms();
    pthread_mutex_init(&gm->lock, NULL);
    pthread_rwlock_init(&gm->env.listeners_lock, NULL);
    store_news news = { .action = on_stored_action,
                        .row = on_stored_row,
                        .names = on_stored_names,
                        .chat = on_stored_chat,
                        .unchat = on_stored_unchat,
                        .created = on_created_public,
                        .lost = on_news_lost,
                        .ctx = gm };
    store_watch(st, &news);
    gm->rematch_parents.changed = on_game_changed;
    registry_listen(gm, &gm->rematch_parents);
    *out = gm;
    return GAME_OK;
}

void registry_close(registry *gm) {
    if (!gm) return;
    store_watch(gm->env.st, NULL);
    registry_unlisten(gm, &gm->rematch_parents);
    for (size_t i = 0; i < gm->nbuckets; i++) free_entries(gm->buckets[i]);
    free(gm->buckets);
    pthread_mutex_destroy(&gm->lock);
    pthread_rwlock_destroy(&gm->env.listeners_lock);
    free(gm);
}

void registry_set_options(registry *gm, int abandon_after_s, bool test_clock) {
    gm->env.abandon_ms = (int64_t)abandon_after_s * 1000;
    gm->test_clock = test_clock;
}

void registry_listen(registry *gm, registry_listener *l) {
    pthread_rwlock_wrlock(&gm->env.listeners_lock);
    l->next = gm->env.listeners;
    gm->env.listeners = l;
    pthread_rwlock_unlock(&gm->env.listeners_lock);
}

void registry_unlisten(registry *gm, registry_listener *l) {
    pthread_rwlock_wrlock(&gm->env.listeners_lock);
    registry_listener **pp = &gm->env.listeners;
    while (*pp && *pp != l) pp = &(*pp)->next;
    if (*pp) *pp = l->next;
    pthread_rwlock_unlock(&gm->env.listeners_lock);
}

void registry_allow_computer(registry *gm) { gm->computer_allowed = true; }

int64_t registry_now_ms(registry *gm) { return game_env_now_ms(&gm->env); }

bool registry_advance_clock(registry *gm, int64_t ms) {
    if (!gm->test_clock || ms < 0) return false;
    atomic_fetch_add(&gm->env.clock_offset_ms, ms);
    return true;
}

void registry_count(registry *gm, long *loaded, long *in_play) {
    long n = 0, playing = 0;
    pthread_mutex_lock(&gm->lock);
    for (size_t i = 0; i < gm->nbuckets; i++)
        for (entry *e = gm->buckets[i]; e; e = e->next) {
            n++;
            if (!game_is_over(e->g)) playing++;
        }
    pthread_mutex_unlock(&gm->lock);
    *loaded = n;
    *in_play = playing;
}

/* ---- loading --------------------------------------------------------------- */

static game_status load_game(registry *gm, const char *id, game **out) {
    store_game row;
    store_action *acts = NULL;
    int n = 0;
    game_status st = game_status_of_store(store_load_game(gm->env.st, id, &row, &acts, &n));
    if (st != GAME_OK) return st == GAME_SEAT_TAKEN ? GAME_ERROR : st;
    char err[200];
    int rc;
    *out = game_from_store(&gm->env, &row, acts, n, &rc, err, sizeof err);
    free(acts);
    store_game_free_fields(&row);
    if (!*out) {
        fprintf(stderr, "phantomgo: game %s cannot be replayed from the store: %s\n", id, err);
        /* The database lost halfway through (a failover): try again. */
        return rc == STORE_UNAVAILABLE ? GAME_UNAVAILABLE : GAME_ERROR;
    }
    return GAME_OK;
}

static bool id_well_formed(const char *id) {
    size_t n = 0;
    for (; id[n]; n++)
        if (!((id[n] >= 'a' && id[n] <= 'z') || (id[n] >= '0' && id[n] <= '9')) || n >= 20) return false;
    return n >= 10;
}

game_status registry_get(registry *gm, const char *id, game **out) {
    *out = NULL;
    if (!id_well_formed(id)) return GAME_NOT_FOUND;
    pthread_mutex_lock(&gm->lock);
    entry *e = table_find(gm, id);
    if (e) *out = game_ref(e->g);
    pthread_mutex_unlock(&gm->lock);
    if (*out) return GAME_OK;
    game *g;
    game_status st = load_game(gm, id, &g);
    if (st != GAME_OK) return st;
    bool ours = (*out = table_insert(gm, g)) == g;
    if (!*out) return GAME_ERROR;
    if (ours) game_notify(*out); /* loaded: its listeners catch up */
    return GAME_OK;
}

/* Game ids copied out of a store_list_games walk, so games are loaded
 * after the walk (the store's walk is not held while games replay). */
typedef struct id_list {
    char (*ids)[24];
    size_t n, cap;
} id_list;

static int collect_id(void *ctx, const char *id) {
    id_list *l = ctx;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        char(*ids)[24] = realloc(l->ids, cap * sizeof *ids);
        if (!ids) return 1;
        l->ids = ids;
        l->cap = cap;
    }
    snprintf(l->ids[l->n++], sizeof l->ids[0], "%s", id);
    return 0;
}

int registry_load_listed(registry *gm, const char *which, registry_listener *l) {
    id_list list = { NULL, 0, 0 };
    int rc = store_list_games(gm->env.st, which, collect_id, &list);
    if (rc != STORE_OK)
        fprintf(stderr, "phantomgo: cannot list the stored games (%s: %s); some may resume late\n", which,
                rc == 1 ? "out of memory" : store_strerror(rc));
    for (size_t i = 0; i < list.n; i++) {
        game *g;
        if (registry_get(gm, list.ids[i], &g) != GAME_OK) continue;
        if (l) {
            game_change c;
            game_change_now(g, &c);
            l->changed(l, g, &c);
        }
        game_release(g);
    }
    free(list.ids);
    return rc;
}

/* ---- creation ------------------------------------------------------------ */

/* A seat's token (drawn now unless given) and its hash in the row. */
static bool new_seat(store_game *row, int color, char token[SECRET_TEXT_LEN + 1]) {
    if (color != BLACK && color != WHITE) return false;
    uint8_t *hash = color == BLACK ? row->seat_hash[0] : row->seat_hash[1];
    return (token[0] || secrets_new_token(token)) && secrets_hash(token, strlen(token), hash);
}

/* {"deduction_aid":..} plus, for computer games, the level and seat. */
static char *options_text(const game_new *req) {
    table_options o = { .deduction_aid = req->aid };
    if (req->mode == MODE_COMPUTER) {
        snprintf(o.level, sizeof o.level, "%s", req->level);
        o.computer_color = color_other(req->creator_color);
    }
    return table_options_text(&o);
}

/* The row of a new game and the secrets it hands out. Its clock starts now
 * unless an online game waits for its second player. */
static bool fill_row(store_game *row, const game_new *req, int64_t now, game_created *out) {
    snprintf(row->id, sizeof row->id, "%s", out->id);
    row->settings_json = settings_text(&req->settings);
    row->options_json = options_text(req);
    row->time_control_json = time_control_text(&req->tc);
    if (!row->settings_json || !row->options_json || !row->time_control_json) return false;
    snprintf(row->mode, sizeof row->mode, "%s", mode_name(req->mode));
    row->created_at_ms = now;
    row->started_at_ms = req->mode == MODE_ONLINE ? 0 : now;
    row->is_public = req->mode == MODE_ONLINE && req->public_game;
    if (req->mode == MODE_HOTSEAT)
        return new_seat(row, BLACK, out->token[BLACK]) && new_seat(row, WHITE, out->token[WHITE]);
    out->token[color_other(req->creator_color)][0] = '\0'; /* not the caller's */
    if (!new_seat(row, req->creator_color, out->token[req->creator_color])) return false;
    if (req->mode == MODE_COMPUTER) {
        out->invite[0] = '\0';
        return true;
    }
    row->invite_color = color_other(req->creator_color);
    return (out->invite[0] || secrets_new_token(out->invite)) &&
           secrets_hash(out->invite, strlen(out->invite), row->invite_hash);
}

/* Stores a new game's row: the plain insert, or with rematch_of the
 * rematch transaction (the new row and the link from the old game). */
static int store_new_row(registry *gm, const store_game *row, const char *rematch_of) {
    return rematch_of ? store_create_rematch(gm->env.st, rematch_of, row)
                      : store_insert_game(gm->env.st, row);
}

/* A new game stored and in the table, told to the listeners. Its id and
 * secrets are drawn now, or are drawn's (all of them given). */
static game_status create_one(registry *gm, const game_new *req, const char *rematch_of,
                               const game_created *drawn, game_created *out) {
    store_game row;
    memset(&row, 0, sizeof row);
    memset(out, 0, sizeof *out);
    if (drawn) *out = *drawn;
    bool ok = (drawn || secrets_new_game_id(out->id)) && fill_row(&row, req, registry_now_ms(gm), out);
    int rc = ok ? store_new_row(gm, &row, rematch_of) : STORE_ERROR;
    char err[200] = "";
    int load_rc = STORE_OK;
    game *g = rc == STORE_OK ? game_from_store(&gm->env, &row, NULL, 0, &load_rc, err, sizeof err) : NULL;
    store_game_free_fields(&row);
    if (rc == STORE_CONFLICT) return GAME_SEAT_TAKEN; /* the caller sorts it out */
    if (rc != STORE_OK) return game_status_of_store(rc);
    if (!g) {
        fprintf(stderr, "phantomgo: game %s: created but not loaded: %s\n", out->id, err);
        return load_rc == STORE_UNAVAILABLE ? GAME_UNAVAILABLE : GAME_ERROR;
    }
    metrics_game_created();
    if (!(g = table_insert(gm, g))) return GAME_ERROR;
    game_notify(g);
    game_release(g);
    return GAME_OK;
}

game_status registry_create(registry *gm, const game_new *req, game_created *out) {
    if (req->mode == MODE_COMPUTER && !gm->computer_allowed) return GAME_NO_BOT;
    for (int attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
        game_status st = create_one(gm, req, NULL, NULL, out);
        if (st != GAME_SEAT_TAKEN) return st; /* a conflict: an id drawn twice, draw again */
    }
    return GAME_ERROR;
}

/* Is the stored game `id` the one c describes: does c's first token hold
 * one of its seats? */
static bool is_created(registry *gm, const game_created *c) {
    const char *token = c->token[BLACK][0] ? c->token[BLACK] : c->token[WHITE];
    game *g;
    if (registry_get(gm, c->id, &g) != GAME_OK) return false;
    bool mine = token[0] && game_seat_of(g, token) != 0;
    game_release(g);
    return mine;
}

game_status registry_create_drawn(registry *gm, const game_new *req, const game_created *drawn,
                                game_created *out) {
    if (req->mode == MODE_COMPUTER && !gm->computer_allowed) return GAME_NO_BOT;
    game_status st = create_one(gm, req, NULL, drawn, out);
    if (st != GAME_SEAT_TAKEN) return st;
    /* The id exists: made by an earlier attempt of this very request, or
     * (a chance of about 2^-62) by another. */
    return is_created(gm, out) ? GAME_OK : GAME_ERROR;
}

/* ---- rematch --------------------------------------------------------------- */

/* The rematch the store holds for game id ("" if none). */
static game_status stored_rematch(registry *gm, const char *id, char rematch[24]) {
    store_game row;
    game_status st = game_status_of_store(store_load_game(gm->env.st, id, &row, NULL, NULL));
    if (st != GAME_OK) return st == GAME_SEAT_TAKEN ? GAME_ERROR : st;
    snprintf(rematch, 24, "%s", row.rematch_id);
    store_game_free_fields(&row);
    return GAME_OK;
}

/* Creates g's rematch for seat `color` in one store transaction. Another
 * seat's rematch created meanwhile makes the store refuse ours; then
 * *existing names theirs. */
static game_status rematch_create(registry *gm, game *g, int color, game_created *out, char existing[24]) {
    char level[16];
    game_new req;
    memset(&req, 0, sizeof req);
    game_rematch_request(g, &req.mode, &req.settings, &req.tc, level);
    req.creator_color = color_other(color);
    req.level = level;
    req.aid = game_has_aid(g);
    for (int attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
        game_status st = create_one(gm, &req, game_id(g), NULL, out);
        if (st == GAME_OK) {
            /* The other seat is the opponent's, taken by their own rematch
             * call: its invite secret is told to nobody. */
            out->invite[0] = '\0';
            game_set_rematch(g, out->id);
            return GAME_OK;
        }
        if (st != GAME_SEAT_TAKEN) return st;
        st = stored_rematch(gm, game_id(g), existing);
        if (st != GAME_OK || existing[0]) return st;
    }
    return GAME_ERROR;
}

/* The other seat takes its place in the rematch the first seat created.
 * A rematch cancelled meanwhile (the offer withdrawn while this call ran,
 * or the offerer cancelled that game) is marked so in g. */
static game_status rematch_join(registry *gm, game *g, const char *id, int color, game_created *out) {
    game *ng;
    game_status st = registry_get(gm, id, &ng);
    if (st != GAME_OK) return st;
    int seat = color_other(color);
    if (game_rematch_invited_color(ng) == color) st = GAME_OWN_OFFER;
    else st = game_take_rematch_seat(ng, seat, out->token[seat]);
    if (st == GAME_OK) snprintf(out->id, sizeof out->id, "%s", id);
    if (st == GAME_SEAT_TAKEN && game_cancelled(ng)) {
        game_set_rematch_cancelled(g, id);
        st = GAME_NO_REMATCH;
    }
    game_release(ng);
    return st;
}

/* g's open rematch offer, copied into id: GAME_NOT_OVER, GAME_NO_REMATCH. */
static game_status open_rematch(game *g, char id[24]) {
    bool over, cancelled;
    game_rematch_of(g, &over, id, &cancelled);
    if (!over) return GAME_NOT_OVER;
    return id[0] && !cancelled ? GAME_OK : GAME_NO_REMATCH;
}

game_status registry_rematch(registry *gm, game *g, int color, bool *created, game_created *out) {
    memset(out, 0, sizeof *out);
    *created = false;
    char existing[24] = "";
    game_status st = open_rematch(g, existing);
    if (st == GAME_OK) {
        st = rematch_join(gm, g, existing, color, out);
        /* The offer ended while we looked: this call makes a new one. */
        if (st != GAME_NO_REMATCH) return st == GAME_OWN_OFFER ? GAME_SEAT_TAKEN : st;
        memset(out, 0, sizeof *out);
    } else if (st != GAME_NO_REMATCH) {
        return st;
    }
    existing[0] = '\0';
    st = rematch_create(gm, g, color, out, existing);
    if (st != GAME_OK) return st;
    *created = !existing[0];
    if (*created) return GAME_OK;
    memset(out, 0, sizeof *out);
    return rematch_join(gm, g, existing, color, out);
}

game_status registry_rematch_accept(registry *gm, game *g, int color, game_created *out) {
    memset(out, 0, sizeof *out);
    char existing[24] = "";
    game_status st = open_rematch(g, existing);
    return st == GAME_OK ? rematch_join(gm, g, existing, color, out) : st;
}

game_status registry_rematch_end(registry *gm, game *g, int color, bool withdraw) {
    char existing[24] = "";
    game_status st = open_rematch(g, existing);
    if (st != GAME_OK) return st;
    game *ng;
    if ((st = registry_get(gm, existing, &ng)) != GAME_OK) return st;
    int offerer = game_rematch_invited_color(ng);
    if (!offerer) st = game_cancelled(ng) ? GAME_NO_REMATCH : GAME_SEAT_TAKEN;
    else if (withdraw && offerer != color) st = GAME_NOT_OFFERER;
    else if (!withdraw && offerer == color) st = GAME_OWN_OFFER;
    else st = game_cancel(ng, color_other(offerer));
    /* Accepted meanwhile: the cancel finds the seat taken (SEAT_TAKEN). */
    if (st == GAME_CANCELLED) st = GAME_NO_REMATCH;
    /* Our cancel marked g already (the registry's listener); one made
     * elsewhere may not have reached g yet. */
    if (st == GAME_NO_REMATCH && !offerer) game_set_rematch_cancelled(g, existing);
    game_release(ng);
    return st;
}
