/* lobby: the index of public games and its watchers. See lobby.h.
 *
 * Locks: the index lock is taken alone (a change reads the game's facts
 * before taking it; a listing references the games under it and reads
 * their facts after); the watcher lock is taken alone. */
#include "games/lobby.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "wire/lobby_json.h"

enum { LOBBY_LIST_MAX = 100 };

typedef struct listed {
    game *g;             /* referenced */
    bool open;           /* a seat is free */
    uint64_t names_hash; /* of the seats' names, which the lobby shows */
} listed;

struct lobby {
    registry_listener listener; /* first: the callback finds the lobby from it */
    registry *gm;
    pthread_mutex_t lock; /* the index */
    listed *list;
    size_t n, cap;
    pthread_mutex_t watch_lock;
    game_watcher *watchers;
};

void lobby_watch(lobby *lb, game_watcher *w) {
    pthread_mutex_lock(&lb->watch_lock);
    watcher_list_add(&lb->watchers, w);
    pthread_mutex_unlock(&lb->watch_lock);
}

void lobby_unwatch(lobby *lb, game_watcher *w) {
    pthread_mutex_lock(&lb->watch_lock);
    watcher_list_remove(&lb->watchers, w);
    pthread_mutex_unlock(&lb->watch_lock);
}

static void notify_watchers(lobby *lb) {
    pthread_mutex_lock(&lb->watch_lock);
    for (game_watcher *w = lb->watchers; w; w = w->next) w->notify(w);
    pthread_mutex_unlock(&lb->watch_lock);
}

/* FNV-1a of both names: a rename changes what the lobby shows. */
static uint64_t names_hash_of(const game_lobby_facts *f) {
    uint64_t h = 1469598103934665603ull;
    for (int c = BLACK; c <= WHITE; c++)
        for (const char *p = f->names[c];; p++) {
            h = (h ^ (uint8_t)*p) * 1099511628211ull;
            if (!*p) break;
        }
    return h;
}

/* Index lock held: entry i becomes (g, open, names), added when i == n.
 * False when out of memory. */
static bool put_entry(lobby *lb, size_t i, game *g, bool open, uint64_t names_hash) {
    if (i == lb->n) {
        if (lb->n == lb->cap) {
            size_t cap = lb->cap ? lb->cap * 2 : 32;
            listed *bigger = realloc(lb->list, cap * sizeof *bigger);
            if (!bigger) return false;
            lb->list = bigger;
            lb->cap = cap;
        }
        lb->list[lb->n++].g = game_ref(g);
    }
    lb->list[i].open = open;
    lb->list[i].names_hash = names_hash;
    return true;
}

/* The listener: adds, updates or removes public game g as record c says,
 * unless c is stale. The check is made under the lobby's lock, so a stale
 * record that arrives after the latest one (a game listed again after it
 * ended) cannot undo it. */
static void on_changed(registry_listener *l, game *g, const game_change *c) {
    lobby *lb = (lobby *)l;
    const game_lobby_facts *facts = &c->lobby;
    bool open = facts->free_color != 0;
    uint64_t names = names_hash_of(facts);
    game *dropped = NULL;
    bool changed = false;
    pthread_mutex_lock(&lb->lock);
    if (!game_change_is_latest(g, c)) {
        pthread_mutex_unlock(&lb->lock);
        return;
    }
    size_t i = 0;
    while (i < lb->n && lb->list[i].g != g) i++;
    bool found = i < lb->n;
    if (facts->listed && (!found || lb->list[i].open != open || lb->list[i].names_hash != names)) {
        changed = put_entry(lb, i, g, open, names);
        if (!changed) fprintf(stderr, "phantomgo: game %s: out of memory for the lobby\n", game_id(g));
    } else if (!facts->listed && found) {
        dropped = lb->list[i].g;
        lb->list[i] = lb->list[--lb->n];
        changed = true;
    }
    pthread_mutex_unlock(&lb->lock);
    game_release(dropped);
    if (changed) notify_watchers(lb);
}

lobby *lobby_open(registry *gm) {
    lobby *lb = calloc(1, sizeof *lb);
    if (!lb) return NULL;
    lb->gm = gm;
    lb->listener.changed = on_changed;
    pthread_mutex_init(&lb->lock, NULL);
    pthread_mutex_init(&lb->watch_lock, NULL);
    registry_listen(gm, &lb->listener);
    registry_load_listed(gm, "public_to_list", &lb->listener);
    return lb;
}

void lobby_close(lobby *lb) {
    if (!lb) return;
    registry_unlisten(lb->gm, &lb->listener);
    for (size_t i = 0; i < lb->n; i++) game_release(lb->list[i].g);
    free(lb->list);
    pthread_mutex_destroy(&lb->lock);
    pthread_mutex_destroy(&lb->watch_lock);
    free(lb);
}

/* ---- listing ----------------------------------------------------------------- */

typedef struct item {
    game *g;
    game_lobby_facts facts;
} item;

static int open_newest_first(const void *a, const void *b) {
    int64_t x = ((const item *)a)->facts.created_ms, y = ((const item *)b)->facts.created_ms;
    return x < y ? 1 : x > y ? -1 : 0;
}

static int playing_newest_first(const void *a, const void *b) {
    int64_t x = ((const item *)a)->facts.started_ms, y = ((const item *)b)->facts.started_ms;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The listed games, referenced, split by the index into open ones and
 * games in progress; each with its facts as of now. */
static bool snapshot(lobby *lb, item **open, size_t *n_open, item **playing, size_t *n_playing) {
    *n_open = *n_playing = 0;
    pthread_mutex_lock(&lb->lock);
    size_t n = lb->n;
    *open = malloc((n ? n : 1) * sizeof **open);
    *playing = malloc((n ? n : 1) * sizeof **playing);
    bool ok = *open && *playing;
    for (size_t i = 0; ok && i < n; i++) {
        item it = { game_ref(lb->list[i].g), { 0 } };
        if (lb->list[i].open) (*open)[(*n_open)++] = it;
        else (*playing)[(*n_playing)++] = it;
    }
    pthread_mutex_unlock(&lb->lock);
    for (size_t i = 0; i < *n_open; i++) game_lobby_facts_of((*open)[i].g, &(*open)[i].facts);
    for (size_t i = 0; i < *n_playing; i++) game_lobby_facts_of((*playing)[i].g, &(*playing)[i].facts);
    return ok;
}

/* The first LOBBY_LIST_MAX of items as the wire's lobby items. */
static lobby_item *wire_items(const item *items, size_t n, size_t *out_n) {
    *out_n = n < LOBBY_LIST_MAX ? n : LOBBY_LIST_MAX;
    lobby_item *out = malloc((*out_n ? *out_n : 1) * sizeof *out);
    for (size_t i = 0; out && i < *out_n; i++) {
        game *g = items[i].g;
        out[i] = (lobby_item){ game_id(g),
                               game_get_settings(g),
                               game_get_time_control(g),
                               items[i].facts.free_color,
                               items[i].facts.created_ms,
                               items[i].facts.started_ms,
                               items[i].facts.names[BLACK],
                               items[i].facts.names[WHITE] };
    }
    return out;
}

bool lobby_now_members(lobby *lb, strbuf *out) {
    item *open, *playing;
    size_t n_open, n_playing, w_open = 0, w_playing = 0;
    bool ok = snapshot(lb, &open, &n_open, &playing, &n_playing);
    lobby_item *wo = NULL, *wp = NULL;
    if (ok) {
        qsort(open, n_open, sizeof *open, open_newest_first);
        qsort(playing, n_playing, sizeof *playing, playing_newest_first);
        wo = wire_items(open, n_open, &w_open);
        wp = wire_items(playing, n_playing, &w_playing);
    }
    ok = ok && wo && wp && lobby_json_members(out, wo, w_open, wp, w_playing);
    for (size_t i = 0; i < n_open; i++) game_release(open[i].g);
    for (size_t i = 0; i < n_playing; i++) game_release(playing[i].g);
    free(open);
    free(playing);
    free(wo);
    free(wp);
    return ok;
}
