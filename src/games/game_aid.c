/* game_aid: the deduction aid of one game (docs/API.md, Deduction aid).
 *
 * Who may read what is decided here, from the table's setting and the
 * game's state, and nowhere else:
 *  - while the game is on, a seat reads its own aid, for the position now,
 *    if the table has the aid on; nobody else reads any (a spectator, the
 *    other seat, a token of neither);
 *  - once it is over the board is public, and so is any seat's aid at any
 *    position before the end (seq 0..n-1) when the table had it on; the
 *    computer's seat is always readable then, so the replay can show what
 *    the computer believed when it chose each move.
 *
 * The input is the seat's own observations, from the visibility filter:
 * of the live referee while the game is on, of a replay of the log up to
 * seq after the end (the finished game's observations are the whole
 * truth). They are folded into a bot_memory under the game lock (as cheap
 * as building a view), which is then released: the sampling (bot/aid.h, a
 * fixed budget, the costly part) runs on the caller's thread with no lock
 * held, so a move is never held up by someone's aid. Answers are cached per (seat, seq) with the seed
 * they were drawn from, the hash of the view: a repeated request costs the
 * view's fold, and an answer is never served for another view. */
#include "games/game_internal.h"

#include <stdlib.h>
#include <string.h>

#include "bot/aid.h"
#include "wire/aid_json.h"

/* Answers kept per seat: a live game needs one per position reached, a
 * finished game's replay one per move; past this, answers are computed
 * and not kept, so crawling every position of long games costs no memory. */
#define AID_CACHE_MAX 400

struct aid_entry {
    uint64_t seed; /* 0: empty */
    char *text;
};

void game_aid_free(game *g) {
    for (int c = BLACK; c <= WHITE; c++) {
        for (int i = 0; i < g->aid_cap[c]; i++) free(g->aid_cache[c][i].text);
        free(g->aid_cache[c]);
        g->aid_cache[c] = NULL;
        g->aid_cap[c] = g->aid_cached[c] = 0;
    }
}

/* Decides the seat and position asked for; GAME_OK or the refusal.
 * Game lock held. */
static game_status aid_target(const game *g, viewer v, int n, bool over, int *color, int *seq) {
    if (!over) {
        if (!g->aid) return GAME_AID_OFF;
        if (v == VIEWER_SPECTATOR) return GAME_AID_FOR_SEATS;
        if (*color && *color != (int)v) return GAME_AID_NOT_YOURS;
        if (*seq >= 0 && *seq != n) return GAME_STALE_SEQ;
        *color = (int)v;
        *seq = n;
        return GAME_OK;
    }
    if (!*color) *color = v != VIEWER_SPECTATOR ? (int)v : g->computer_color;
    bool computer_seat = *color != 0 && *color == g->computer_color;
    if (!g->aid && !computer_seat) return GAME_AID_OFF;
    if (!*color) return GAME_BAD_AID_REQUEST;
    if (*seq < 0) *seq = n - 1;
    return *seq <= n - 1 ? GAME_OK : GAME_BAD_AID_REQUEST;
}

/* Seat color's memory folded from its observations 1..seq (of the live
 * referee, or after the end of a replay up to seq); NULL when out of
 * memory. Game lock held. */
static bot_memory *memory_of(game *g, int color, int seq, bool over) {
    bot_memory *m = malloc(sizeof *m);
    observation *ob = m ? malloc(sizeof *ob) : NULL;
    referee *r = !ob ? NULL : over ? referee_replay(g->ref, seq) : g->ref;
    if (r) {
        bot_memory_init(m, &g->settings, color);
        for (int s = 1; s <= seq; s++) {
            view_observe(r, (viewer)color, s, ob);
            bot_memory_apply(m, ob);
        }
    }
    if (r != g->ref) referee_free(r);
    free(ob);
    if (!r) {
        free(m);
        return NULL;
    }
    return m;
}

/* The cached answer for (color, seq) drawn from seed, copied; NULL if none.
 * Game lock held. */
static char *cached(const game *g, int color, int seq, uint64_t seed) {
    if (seq >= g->aid_cap[color]) return NULL;
    const struct aid_entry *e = &g->aid_cache[color][seq];
    return e->seed == seed && e->text ? strdup(e->text) : NULL;
}

/* Keeps a copy of text for (color, seq). Game lock held; out of memory
 * only means no cache. */
static void remember(game *g, int color, int seq, uint64_t seed, const char *text) {
    if (g->aid_cached[color] >= AID_CACHE_MAX) return;
    if (seq >= g->aid_cap[color]) {
        int cap = seq + 16;
        struct aid_entry *grown = realloc(g->aid_cache[color], sizeof *grown * (size_t)cap);
        if (!grown) return;
        memset(grown + g->aid_cap[color], 0, sizeof *grown * (size_t)(cap - g->aid_cap[color]));
        g->aid_cache[color] = grown;
        g->aid_cap[color] = cap;
    }
    struct aid_entry *e = &g->aid_cache[color][seq];
    char *copy = strdup(text);
    if (!copy) return;
    if (!e->text) g->aid_cached[color]++;
    free(e->text);
    e->text = copy;
    e->seed = seed;
}

/* The estimate's text for the seat whose memory is m, after event seq. */
static char *estimate(const bot_memory *m, int seq, uint64_t seed) {
    aid_map *map = malloc(sizeof *map);
    char *text = map && aid_estimate(m, seed, AID_SAMPLES, map)
                     ? aid_json_render(m->me, seq, m->view.settings.size, map->samples, map->percent)
                     : NULL;
    free(map);
    return text;
}

game_status game_aid(game *g, viewer v, int color, int seq, char **json) {
    *json = NULL;
    pthread_mutex_lock(&g->lock);
    int n = referee_event_count(g->ref);
    bool over = referee_result(g->ref).over;
    game_status st = aid_target(g, v, n, over, &color, &seq);
    bot_memory *m = st == GAME_OK ? memory_of(g, color, seq, over) : NULL;
    pthread_mutex_unlock(&g->lock);
    if (st != GAME_OK) return st;
    if (!m) return GAME_ERROR;
    /* The seed is the hash of the view: same view, same answer, so the
     * cache is checked with it and never serves another position. */
    uint64_t seed = aid_seed(&m->view);
    pthread_mutex_lock(&g->lock);
    *json = cached(g, color, seq, seed);
    pthread_mutex_unlock(&g->lock);
    if (!*json && (*json = estimate(m, seq, seed)) != NULL) {
        pthread_mutex_lock(&g->lock);
        remember(g, color, seq, seed, *json);
        pthread_mutex_unlock(&g->lock);
    }
    free(m);
    return *json ? GAME_OK : GAME_ERROR;
}
