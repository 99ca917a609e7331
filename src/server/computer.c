/* computer: the queue and workers of the computer player. See computer.h.
 *
 * The queue is a ring of referenced games, each at most once (a game
 * already queued is not queued again: the worker reads the game as it is
 * when it gets there). Its lock is a leaf. */
#include "server/computer.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { REFUSALS_BEFORE_PASS = 3 };

struct computer {
    game_listener listener; /* first: the callback finds the queue from it */
    games *gm;
    games_bot bot;
    pthread_t *workers;
    int n_workers;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    game **queue; /* ring of referenced games */
    size_t head, len, cap;
    bool stopping;
};

static bool stopping(computer *cq) {
    pthread_mutex_lock(&cq->lock);
    bool stop = cq->stopping;
    pthread_mutex_unlock(&cq->lock);
    return stop;
}

/* Plays one choice of the player; true if it should be asked again (its
 * choice was refused). */
static bool play_choice(computer *cq, game *g, const game_computer_turn *turn, int tries, uint64_t seed,
                        const char *level) {
    const view *vw = &turn->vw;
    bot_request rq = { game_id(g), level, vw->viewer, vw, turn->obs, turn->n_obs, seed, turn->think_ms };
    action a;
    memset(&a, 0, sizeof a);
    bool chosen = tries < REFUSALS_BEFORE_PASS && cq->bot.choose(cq->bot.ctx, &rq, &a);
    if (stopping(cq)) return false; /* shutting down: the game resumes at the next start */
    if (!chosen) a.kind = ACT_PASS;
    a.color = vw->viewer;
    cJSON *answer = NULL;
    games_status st = game_act(g, vw->viewer, vw->seq + 1, &a, &answer);
    cJSON_Delete(answer);
    bool refused = st == GAMES_ALREADY_TRIED || st == GAMES_OWN_STONE || st == GAMES_BAD_VERTEX;
    if (refused && chosen) return true;
    if (st != GAMES_OK && st != GAMES_STALE_SEQ && st != GAMES_GAME_OVER && st != GAMES_NOT_YOUR_TURN)
        fprintf(stderr, "phantomgo: game %s: the computer's move was not played (status %d)\n", game_id(g),
                (int)st);
    return false;
}

static void think_and_play(computer *cq, game *g, uint64_t seed) {
    game_computer_turn *turn = malloc(sizeof *turn);
    if (!turn || !game_computer_turn_of(g, turn)) {
        free(turn);
        return;
    }
    for (int tries = 0; play_choice(cq, g, turn, tries, seed + (uint64_t)tries, game_level(g)); tries++)
        continue;
    free(turn->obs);
    free(turn);
}

static game *dequeue(computer *cq) {
    pthread_mutex_lock(&cq->lock);
    while (!cq->stopping && cq->len == 0) pthread_cond_wait(&cq->cond, &cq->lock);
    game *g = NULL;
    if (!cq->stopping) {
        g = cq->queue[cq->head];
        cq->head = (cq->head + 1) % cq->cap;
        cq->len--;
    }
    pthread_mutex_unlock(&cq->lock);
    return g;
}

static void *worker_main(void *arg) {
    computer *cq = arg;
    uint64_t seed;
    if (!secrets_random_bytes(&seed, sizeof seed)) seed = (uint64_t)time(NULL);
    for (game *g; (g = dequeue(cq)) != NULL; seed = seed * 6364136223846793005ull + 1442695040888963407ull) {
        think_and_play(cq, g, seed);
        game_release(g);
    }
    return NULL;
}

/* Lock held: is g in the queue? */
static bool queued(const computer *cq, const game *g) {
    for (size_t i = 0; i < cq->len; i++)
        if (cq->queue[(cq->head + i) % cq->cap] == g) return true;
    return false;
}

/* Lock held: room for one more; false when out of memory. */
static bool reserve(computer *cq) {
    if (cq->len < cq->cap) return true;
    size_t cap = cq->cap ? cq->cap * 2 : 64;
    game **q = malloc(cap * sizeof *q);
    if (!q) return false;
    for (size_t i = 0; i < cq->len; i++) q[i] = cq->queue[(cq->head + i) % cq->cap];
    free(cq->queue);
    cq->queue = q;
    cq->cap = cap;
    cq->head = 0;
    return true;
}

/* The listener: queues g if the computer is to move there. */
static void consider(game_listener *l, game *g) {
    computer *cq = (computer *)l;
    if (!game_computer_due(g)) return;
    pthread_mutex_lock(&cq->lock);
    bool add = !cq->stopping && !queued(cq, g) && reserve(cq);
    if (add) {
        cq->queue[(cq->head + cq->len) % cq->cap] = game_ref(g);
        cq->len++;
        pthread_cond_signal(&cq->cond);
    }
    pthread_mutex_unlock(&cq->lock);
}

computer *computer_start(games *gm, const games_bot *bot) {
    computer *cq = calloc(1, sizeof *cq);
    int n = bot->threads > 0 ? bot->threads : 1;
    if (!cq || !(cq->workers = calloc((size_t)n, sizeof *cq->workers))) {
        free(cq);
        return NULL;
    }
    cq->gm = gm;
    cq->bot = *bot;
    cq->listener.changed = consider;
    pthread_mutex_init(&cq->lock, NULL);
    pthread_cond_init(&cq->cond, NULL);
    for (; cq->n_workers < n; cq->n_workers++)
        if (pthread_create(&cq->workers[cq->n_workers], NULL, worker_main, cq) != 0) break;
    if (cq->n_workers == 0) {
        computer_stop(cq);
        return NULL;
    }
    games_listen(gm, &cq->listener);
    games_allow_computer(gm);
    games_load_listed(gm, "computer_to_resume", &cq->listener);
    return cq;
}

void computer_stop(computer *cq) {
    if (!cq) return;
    games_unlisten(cq->gm, &cq->listener);
    pthread_mutex_lock(&cq->lock);
    cq->stopping = true;
    pthread_cond_broadcast(&cq->cond);
    pthread_mutex_unlock(&cq->lock);
    for (int i = 0; i < cq->n_workers; i++) pthread_join(cq->workers[i], NULL);
    for (size_t i = 0; i < cq->len; i++) game_release(cq->queue[(cq->head + i) % cq->cap]);
    free(cq->queue);
    free(cq->workers);
    pthread_cond_destroy(&cq->cond);
    pthread_mutex_destroy(&cq->lock);
    free(cq);
}
