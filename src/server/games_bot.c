/* games_bot: the workers that ask the computer player for its moves, off
 * the HTTP threads. See games.h for the hook.
 *
 * A game where the computer is to move is queued once (its bot_queued
 * flag), holding a reference. A worker takes it, copies the computer
 * seat's view and observations under the game lock, releases the lock,
 * lets the bot think as long as it likes, and plays the answer through
 * game_act with seq = view.seq + 1, exactly like a client: if the game
 * moved on meanwhile the answer is stale and the game is simply considered
 * again. A refused choice is retried; after a few the computer passes, so a
 * buggy bot cannot stall a game. At start-up every stored computer game is
 * considered, so a restart resumes games where the computer was thinking. */
#include "server/games_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { REFUSALS_BEFORE_PASS = 3 };

/* The computer's view and observations of g and how long its clock lets
 * it think, or false if it is not the computer's turn. Game lock held. */
static bool snapshot(game *g, view *vw, observation **obs, int *n, int64_t *think_ms) {
    int c = g->computer_color;
    if (!c || referee_result(g->ref).over || referee_to_move(g->ref) != c) return false;
    game_clock clock;
    game_clock_fold(g, g->ref, referee_event_count(g->ref), &clock);
    *think_ms = clock_think_budget_ms(&clock, games_now_ms(g->owner));
    *n = referee_event_count(g->ref);
    *obs = malloc(sizeof **obs * (size_t)(*n > 0 ? *n : 1));
    if (!*obs) return false;
    view_init(vw, referee_settings(g->ref), (viewer)c);
    for (int seq = 1; seq <= *n; seq++) {
        view_observe(g->ref, (viewer)c, seq, &(*obs)[seq - 1]);
        view_apply(vw, &(*obs)[seq - 1]);
    }
    return true;
}

static bool stopping(games *gm) {
    pthread_mutex_lock(&gm->bot_lock);
    bool stop = gm->stopping;
    pthread_mutex_unlock(&gm->bot_lock);
    return stop;
}

static void think_and_play(games *gm, game *g, uint64_t seed) {
    view *vw = malloc(sizeof *vw);
    observation *obs = NULL;
    int n = 0;
    int64_t think_ms = 0;
    char level[sizeof g->level];
    pthread_mutex_lock(&g->lock);
    bool turn = vw && snapshot(g, vw, &obs, &n, &think_ms);
    snprintf(level, sizeof level, "%s", g->level);
    pthread_mutex_unlock(&g->lock);
    for (int tries = 0; turn; tries++) {
        bot_request rq = { g->id, level, vw->viewer, vw, obs, n, seed + (uint64_t)tries, think_ms };
        action a;
        memset(&a, 0, sizeof a);
        bool chosen = tries < REFUSALS_BEFORE_PASS && gm->bot.choose(gm->bot.ctx, &rq, &a);
        if (stopping(gm)) break;             /* shutting down: the game resumes at the next start */
        if (!chosen) a.kind = ACT_PASS;
        a.color = vw->viewer;
        char *answer = NULL;
        size_t len;
        games_status st = game_act(g, vw->viewer, vw->seq + 1, &a, &answer, &len);
        free(answer);
        bool refused = st == GAMES_ALREADY_TRIED || st == GAMES_OWN_STONE || st == GAMES_BAD_VERTEX;
        if (!refused || !chosen) {
            if (st != GAMES_OK && st != GAMES_STALE_SEQ && st != GAMES_GAME_OVER && st != GAMES_NOT_YOUR_TURN)
                fprintf(stderr, "phantomgo: game %s: the computer's move was not played (status %d)\n",
                        g->id, (int)st);
            break;
        }
    }
    free(obs);
    free(vw);
}

static game *dequeue(games *gm) {
    pthread_mutex_lock(&gm->bot_lock);
    while (!gm->stopping && gm->q_len == 0) pthread_cond_wait(&gm->bot_cond, &gm->bot_lock);
    game *g = NULL;
    if (!gm->stopping) {
        g = gm->queue[gm->q_head];
        gm->q_head = (gm->q_head + 1) % gm->q_cap;
        gm->q_len--;
    }
    pthread_mutex_unlock(&gm->bot_lock);
    return g;
}

static void *worker_main(void *arg) {
    games *gm = arg;
    uint64_t seed;
    if (!secrets_random_bytes(&seed, sizeof seed)) seed = (uint64_t)games_clock_ms();
    for (game *g; (g = dequeue(gm)) != NULL; seed = seed * 6364136223846793005ull + 1442695040888963407ull) {
        atomic_store(&g->bot_queued, false);
        think_and_play(gm, g, seed);
        game_release(g);
    }
    return NULL;
}

static bool enqueue(games *gm, game *g) {
    pthread_mutex_lock(&gm->bot_lock);
    bool ok = !gm->stopping;
    if (ok && gm->q_len == gm->q_cap) {
        size_t cap = gm->q_cap ? gm->q_cap * 2 : 64;
        game **q = malloc(cap * sizeof *q);
        ok = q != NULL;
        for (size_t i = 0; ok && i < gm->q_len; i++) q[i] = gm->queue[(gm->q_head + i) % gm->q_cap];
        if (ok) {
            free(gm->queue);
            gm->queue = q;
            gm->q_cap = cap;
            gm->q_head = 0;
        }
    }
    if (ok) {
        gm->queue[(gm->q_head + gm->q_len) % gm->q_cap] = g;
        gm->q_len++;
        pthread_cond_signal(&gm->bot_cond);
    }
    pthread_mutex_unlock(&gm->bot_lock);
    return ok;
}

void games_bot_consider(game *g) {
    if (!g || !g->owner->has_bot || !g->computer_color) return;
    pthread_mutex_lock(&g->lock);
    bool due = !referee_result(g->ref).over && referee_to_move(g->ref) == g->computer_color;
    pthread_mutex_unlock(&g->lock);
    if (!due || atomic_exchange(&g->bot_queued, true)) return;
    game_ref(g);
    if (!enqueue(g->owner, g)) {
        atomic_store(&g->bot_queued, false);
        game_release(g);
    }
}

/* Games where the computer may be to move, listed first and loaded after
 * (the store's walk is not held while games replay). */
static void resume_stored_games(games *gm) {
    id_list l = { NULL, 0, 0 };
    store_list_games(gm->st, "computer_to_resume", games_collect_id, &l);
    for (size_t i = 0; i < l.n; i++) {
        game *g;
        if (games_get(gm, l.ids[i], &g) != GAMES_OK) continue;
        games_bot_consider(g);
        game_release(g);
    }
    free(l.ids);
}

bool games_bot_start(games *gm) {
    int n = gm->bot.threads > 0 ? gm->bot.threads : 1;
    gm->workers = calloc((size_t)n, sizeof *gm->workers);
    if (!gm->workers) return false;
    for (; gm->n_workers < n; gm->n_workers++)
        if (pthread_create(&gm->workers[gm->n_workers], NULL, worker_main, gm) != 0) break;
    if (gm->n_workers == 0) return false;
    resume_stored_games(gm);
    return true;
}

bool games_set_bot(games *gm, const games_bot *bot) {
    if (gm->has_bot || !bot || !bot->choose) return false;
    gm->bot = *bot;
    gm->has_bot = true;
    if (games_bot_start(gm)) return true;
    gm->has_bot = false;
    return false;
}

bool games_has_bot(const games *gm) { return gm->has_bot; }

void games_bot_stop(games *gm) {
    pthread_mutex_lock(&gm->bot_lock);
    gm->stopping = true;
    pthread_cond_broadcast(&gm->bot_cond);
    pthread_mutex_unlock(&gm->bot_lock);
    for (int i = 0; i < gm->n_workers; i++) pthread_join(gm->workers[i], NULL);
    for (size_t i = 0; i < gm->q_len; i++) {
        game *g = gm->queue[(gm->q_head + i) % gm->q_cap];
        atomic_store(&g->bot_queued, false);
        game_release(g);
    }
    free(gm->queue);
    free(gm->workers);
    gm->queue = NULL;
    gm->workers = NULL;
    gm->q_len = 0;
    gm->n_workers = 0;
}
