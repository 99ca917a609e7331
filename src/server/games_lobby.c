/* games_lobby: the open-games lobby, an index of the public games in play.
 * See games.h.
 *
 * The index holds a reference to each public game until it ends, so those
 * games stay in memory and the lobby is answered without touching the
 * store; at start-up games_resume loads the stored ones back. It changes
 * only when a public game appears, loses its free seat or ends: moves of a
 * listed game do not touch it, so a busy server does not flood lobby
 * watchers. Everything in an entry is public (settings, time control,
 * which seat is free, when it was created or started). */
#include "server/games_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "wire/clock_json.h"
#include "wire/settings_json.h"

enum { LOBBY_LIST_MAX = 100 };

struct lobby_entry {
    game *g;            /* referenced */
    bool open;          /* a seat is free */
};

void games_lobby_init(games *gm) {
    pthread_mutex_init(&gm->lobby_lock, NULL);
    pthread_mutex_init(&gm->lobby_watch_lock, NULL);
}

void games_lobby_free(games *gm) {
    for (size_t i = 0; i < gm->n_lobby; i++) game_release(gm->lobby[i].g);
    free(gm->lobby);
    gm->lobby = NULL;
    gm->n_lobby = gm->cap_lobby = 0;
    pthread_mutex_destroy(&gm->lobby_lock);
    pthread_mutex_destroy(&gm->lobby_watch_lock);
}

void games_lobby_watch(games *gm, games_watcher *w) {
    pthread_mutex_lock(&gm->lobby_watch_lock);
    watcher_list_add(&gm->lobby_watchers, w);
    pthread_mutex_unlock(&gm->lobby_watch_lock);
}

void games_lobby_unwatch(games *gm, games_watcher *w) {
    pthread_mutex_lock(&gm->lobby_watch_lock);
    watcher_list_remove(&gm->lobby_watchers, w);
    pthread_mutex_unlock(&gm->lobby_watch_lock);
}

static void notify_watchers(games *gm) {
    pthread_mutex_lock(&gm->lobby_watch_lock);
    for (games_watcher *w = gm->lobby_watchers; w; w = w->next) w->notify(w);
    pthread_mutex_unlock(&gm->lobby_watch_lock);
}

static bool seat_free(const game *g) {
    return g->row.invite_color != 0 && !secrets_hash_is_zero(g->row.invite_hash);
}

/* Lobby lock held: entry i becomes (g, open), added when i == n_lobby.
 * False when out of memory. */
static bool put_entry(games *gm, size_t i, game *g, bool open) {
    if (i == gm->n_lobby) {
        if (gm->n_lobby == gm->cap_lobby) {
            size_t cap = gm->cap_lobby ? gm->cap_lobby * 2 : 32;
            struct lobby_entry *bigger = realloc(gm->lobby, cap * sizeof *bigger);
            if (!bigger) return false;
            gm->lobby = bigger;
            gm->cap_lobby = cap;
        }
        gm->lobby[gm->n_lobby++].g = game_ref(g);
    }
    gm->lobby[i].open = open;
    return true;
}

void games_lobby_update(game *g) {
    if (!g->row.is_public) return;
    pthread_mutex_lock(&g->lock);
    bool listed = !referee_result(g->ref).over, open = seat_free(g);
    pthread_mutex_unlock(&g->lock);
    games *gm = g->owner;
    game *dropped = NULL;
    bool changed = false;
    pthread_mutex_lock(&gm->lobby_lock);
    size_t i = 0;
    while (i < gm->n_lobby && gm->lobby[i].g != g) i++;
    bool found = i < gm->n_lobby;
    if (listed && (!found || gm->lobby[i].open != open)) {
        changed = put_entry(gm, i, g, open);
        if (!changed) fprintf(stderr, "phantomgo: game %s: out of memory for the lobby\n", g->id);
    } else if (!listed && found) {
        dropped = gm->lobby[i].g;
        gm->lobby[i] = gm->lobby[--gm->n_lobby];
        changed = true;
    }
    pthread_mutex_unlock(&gm->lobby_lock);
    game_release(dropped);
    if (changed) notify_watchers(gm);
}

/* ---- the lobby as JSON ------------------------------------------------------ */

typedef struct listed { game *g; int64_t when; } listed;

static int newest_first(const void *a, const void *b) {
    int64_t x = ((const listed *)a)->when, y = ((const listed *)b)->when;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* One entry; game lock held. */
static cJSON *entry_json(const game *g, bool open) {
    cJSON *o = cJSON_CreateObject();
    cJSON *settings = settings_to_json(referee_settings(g->ref));
    cJSON *tc = time_control_to_json(&g->tc);
    bool ok = o && settings && tc && cJSON_AddStringToObject(o, "id", g->id);
    if (ok) {
        cJSON_AddItemToObject(o, "settings", settings);
        cJSON_AddItemToObject(o, "time_control", tc);
        settings = tc = NULL;
        const char *free_color = open ? view_json_color_name(g->row.invite_color) : NULL;
        ok = (free_color ? cJSON_AddStringToObject(o, "free", free_color) != NULL
                         : cJSON_AddNullToObject(o, "free") != NULL) &&
             cJSON_AddNumberToObject(o, "created_ms", (double)g->row.created_at_ms) &&
             (g->row.started_at_ms ? cJSON_AddNumberToObject(o, "started_ms", (double)g->row.started_at_ms) != NULL
                                   : cJSON_AddNullToObject(o, "started_ms") != NULL);
    }
    cJSON_Delete(settings);
    cJSON_Delete(tc);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* Appends up to LOBBY_LIST_MAX entries of `list` to array; false when out
 * of memory. */
static bool add_entries(cJSON *array, listed *list, size_t n, bool open) {
    qsort(list, n, sizeof *list, newest_first);
    for (size_t i = 0; i < n && i < LOBBY_LIST_MAX; i++) {
        pthread_mutex_lock(&list[i].g->lock);
        cJSON *e = entry_json(list[i].g, open);
        pthread_mutex_unlock(&list[i].g->lock);
        if (!e) return false;
        cJSON_AddItemToArray(array, e);
    }
    return true;
}

/* The listed games, referenced, split into open ones (by creation) and
 * games in progress (by start). */
static bool snapshot(games *gm, listed **open, size_t *n_open, listed **playing, size_t *n_playing) {
    *n_open = *n_playing = 0;
    pthread_mutex_lock(&gm->lobby_lock);
    size_t n = gm->n_lobby;
    *open = malloc((n ? n : 1) * sizeof **open);
    *playing = malloc((n ? n : 1) * sizeof **playing);
    bool ok = *open && *playing;
    for (size_t i = 0; ok && i < n; i++) {
        game *g = game_ref(gm->lobby[i].g);
        if (gm->lobby[i].open) (*open)[(*n_open)++] = (listed){ g, g->row.created_at_ms };
        else (*playing)[(*n_playing)++] = (listed){ g, g->row.started_at_ms };
    }
    pthread_mutex_unlock(&gm->lobby_lock);
    return ok;
}

char *games_lobby_json(games *gm, const char *prefix, size_t *len) {
    listed *open, *playing;
    size_t n_open, n_playing;
    bool ok = snapshot(gm, &open, &n_open, &playing, &n_playing);
    cJSON *lists = cJSON_CreateObject();
    cJSON *open_json = cJSON_AddArrayToObject(lists, "open");
    cJSON *playing_json = cJSON_AddArrayToObject(lists, "playing");
    ok = ok && open_json && playing_json && add_entries(open_json, open, n_open, true) &&
         add_entries(playing_json, playing, n_playing, false);
    for (size_t i = 0; i < n_open; i++) game_release(open[i].g);
    for (size_t i = 0; i < n_playing; i++) game_release(playing[i].g);
    free(open);
    free(playing);
    char *text = ok ? cJSON_PrintUnformatted(lists) : NULL;
    cJSON_Delete(lists);
    strbuf sb;
    strbuf_init(&sb);
    if (!text) sb.failed = true;
    else strbuf_printf(&sb, "%s%s", prefix, text + 1);      /* text is "{...}" */
    cJSON_free(text);
    return strbuf_take(&sb, len);
}
