/* computer: the queue and workers of the computer player. See computer.h.
 *
 * The queue is a ring of referenced games, each at most once, and never a
 * game a worker is thinking about (thinking[]): a game that changes while
 * a worker holds it (its own illegal attempts) stays with that worker,
 * which considers it again when it lets go. The worker reads the game as
 * it is when it gets there. A worker's share is set when it takes a game
 * and lowered by whoever queues one behind it. The lock is a leaf. */
#include "games/computer.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { REFUSALS_BEFORE_PASS = 3 };

struct computer {
    registry_listener listener; /* first: the callback finds the queue from it */
    registry *gm;
    games_bot bot;
    pthread_t *workers;
    int n_workers;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    game **queue; /* ring of referenced registry */
    size_t head, len, cap;
    game **thinking;   /* [n_workers]: the game each worker holds, or NULL */
    atomic_int *share; /* [n_workers]: the share its turn may use (bot_request) */
    bool stopping;
};

int computer_think_percent(int workers, int waiting) {
    if (workers < 1) workers = 1;
    if (waiting <= workers) return 100;
    int percent = (100 * workers + waiting - 1) / waiting;
    return percent < COMPUTER_THINK_FLOOR_PERCENT ? COMPUTER_THINK_FLOOR_PERCENT : percent;
}

static bool stopping(computer *cq) {
    pthread_mutex_lock(&cq->lock);
    bool stop = cq->stopping;
    pthread_mutex_unlock(&cq->lock);
    return stop;
}

typedef enum { CHOICE_PLAYED, CHOICE_REFUSED, CHOICE_STOP } choice_outcome;

/* Plays one decision of the player: CHOICE_PLAYED when the game took it
 * (a move, a pass, or an illegal attempt, after which the turn goes on),
 * CHOICE_REFUSED when the game refused the point (ask again), CHOICE_STOP
 * when nothing more should be tried now. */
static choice_outcome play_choice(computer *cq, game *g, const game_computer_turn *turn, int refusals,
                                  uint64_t seed, const atomic_int *share) {
    const view *vw = &turn->vw;
    bot_request rq = { game_id(g),  game_level(g), vw->viewer,     vw,   turn->obs,
                       turn->n_obs, seed,          turn->think_ms, share };
    action a;
    memset(&a, 0, sizeof a);
    bool chosen = refusals < REFUSALS_BEFORE_PASS && cq->bot.choose(cq->bot.ctx, &rq, &a);
    if (stopping(cq)) return CHOICE_STOP;          /* shutting down: the game resumes at the next start */
    game_set_computer_pace(g, atomic_load(share)); /* lowered while it thought? told with the move */
    if (!chosen) a.kind = ACT_PASS;
    a.color = vw->viewer;
    game_status st = game_act(g, vw->viewer, vw->seq + 1, &a, NULL);
    if (st == GAME_OK) return CHOICE_PLAYED;
    bool refused = st == GAME_ALREADY_TRIED || st == GAME_OWN_STONE || st == GAME_BAD_VERTEX;
    if (refused && chosen) return CHOICE_REFUSED;
    if (st != GAME_STALE_SEQ && st != GAME_GAME_OVER && st != GAME_NOT_YOUR_TURN)
        fprintf(stderr, "phantomgo: game %s: the computer's move was not played (status %d)\n", game_id(g),
                (int)st);
    return CHOICE_STOP;
}

/* Plays the computer's whole turn in g with its worker's share of the
 * budget: its attempts until one is a move (or a pass), each decided from
 * the observations of the moment. Nothing if the computer is not to move.
 * One turn only: if the opponent has already answered by the time the
 * move is in, the next turn goes to the back of the queue (let_go), behind
 * the games that waited meanwhile. */
static void think_and_play(computer *cq, game *g, uint64_t seed, const atomic_int *share) {
    game_computer_turn *turn = malloc(sizeof *turn);
    if (!turn) return;
    choice_outcome outcome = CHOICE_PLAYED;
    int first_turn = 0;
    for (int decision = 0, refusals = 0; outcome != CHOICE_STOP && game_computer_turn_of(g, turn);
         decision++) {
        if (decision == 0) {
            first_turn = turn->vw.turn;
            game_set_computer_pace(g, atomic_load(share)); /* a turn begins: tell its share */
        }
        if (turn->vw.turn != first_turn) outcome = CHOICE_STOP; /* the opponent began the next turn */
        else outcome = play_choice(cq, g, turn, refusals, seed + (uint64_t)decision, share);
        if (outcome == CHOICE_REFUSED) refusals++;
        free(turn->obs);
    }
    free(turn);
}

/* Lock held: how many turns wait for the computer, those being thought
 * included. */
static int waiting_turns(const computer *cq) {
    int n = (int)cq->len;
    for (int i = 0; i < cq->n_workers; i++) n += cq->thinking[i] != NULL;
    return n;
}

/* Waits for the next game of worker `slot`, records it as held and sets
 * the worker's share for its turn. NULL when stopping. */
static game *dequeue(computer *cq, int slot) {
    pthread_mutex_lock(&cq->lock);
    while (!cq->stopping && cq->len == 0) pthread_cond_wait(&cq->cond, &cq->lock);
    game *g = NULL;
    if (!cq->stopping) {
        g = cq->queue[cq->head];
        cq->head = (cq->head + 1) % cq->cap;
        cq->len--;
        cq->thinking[slot] = g;
        atomic_store(&cq->share[slot],
                     cq->bot.share ? computer_think_percent(cq->n_workers, waiting_turns(cq)) : 100);
    }
    pthread_mutex_unlock(&cq->lock);
    return g;
}

static void consider(registry_listener *l, game *g, const game_change *c);

/* Worker `slot` lets go of g, which is queued again if the computer is to
 * move there (a change it heard of while holding g was not queued). */
static void let_go(computer *cq, int slot, game *g) {
    pthread_mutex_lock(&cq->lock);
    cq->thinking[slot] = NULL;
    pthread_mutex_unlock(&cq->lock);
    game_change c;
    game_change_now(g, &c);
    consider(&cq->listener, g, &c);
    game_release(g);
}

typedef struct worker_arg {
    computer *cq;
    int slot;
} worker_arg;

static void *worker_main(void *arg) {
    worker_arg w = *(worker_arg *)arg;
    free(arg);
    uint64_t seed;
    if (!secrets_random_bytes(&seed, sizeof seed)) seed = (uint64_t)time(NULL);
    for (game *g; (g = dequeue(w.cq, w.slot)) != NULL;
         seed = seed * 6364136223846793005ull + 1442695040888963407ull) {
        think_and_play(w.cq, g, seed, &w.cq->share[w.slot]);
        let_go(w.cq, w.slot, g);
    }
    return NULL;
}

/* Lock held: is g in the queue, or held by a worker? */
static bool queued(const computer *cq, const game *g) {
    for (size_t i = 0; i < cq->len; i++)
        if (cq->queue[(cq->head + i) % cq->cap] == g) return true;
    for (int i = 0; i < cq->n_workers; i++)
        if (cq->thinking[i] == g) return true;
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

/* Lock held: a game was queued; the turns being thought yield to it. */
static void lower_shares(computer *cq) {
    if (!cq->bot.share) return;
    int share = computer_think_percent(cq->n_workers, waiting_turns(cq));
    for (int i = 0; i < cq->n_workers; i++)
        if (cq->thinking[i] && atomic_load(&cq->share[i]) > share) atomic_store(&cq->share[i], share);
}

/* The listener: queues g if the computer is to move there. */
/* A stale record does no harm here: a game queued when the computer is no
 * longer due is let go by its worker (game_computer_turn_of says no), and
 * a record that says "not due" only skips queueing. */
static void consider(registry_listener *l, game *g, const game_change *c) {
    computer *cq = (computer *)l;
    if (!c->computer_due) return;
    pthread_mutex_lock(&cq->lock);
    bool add = !cq->stopping && !queued(cq, g) && reserve(cq);
    if (add) {
        cq->queue[(cq->head + cq->len) % cq->cap] = game_ref(g);
        cq->len++;
        lower_shares(cq);
        pthread_cond_signal(&cq->cond);
    }
    pthread_mutex_unlock(&cq->lock);
}

computer *computer_start(registry *gm, const games_bot *bot) {
    computer *cq = calloc(1, sizeof *cq);
    int n = bot->threads > 0 ? bot->threads : 1;
    if (!cq || !(cq->workers = calloc((size_t)n, sizeof *cq->workers)) ||
        !(cq->thinking = calloc((size_t)n, sizeof *cq->thinking)) ||
        !(cq->share = calloc((size_t)n, sizeof *cq->share))) {
        if (cq) {
            free(cq->workers);
            free(cq->thinking);
        }
        free(cq);
        return NULL;
    }
    cq->gm = gm;
    cq->bot = *bot;
    cq->listener.changed = consider;
    pthread_mutex_init(&cq->lock, NULL);
    pthread_cond_init(&cq->cond, NULL);
    /* The lock keeps a worker from reading n_workers while it grows. */
    pthread_mutex_lock(&cq->lock);
    for (; cq->n_workers < n; cq->n_workers++) {
        worker_arg *w = malloc(sizeof *w);
        if (w) *w = (worker_arg){ cq, cq->n_workers };
        if (!w || pthread_create(&cq->workers[cq->n_workers], NULL, worker_main, w) != 0) {
            free(w);
            break;
        }
    }
    pthread_mutex_unlock(&cq->lock);
    if (cq->n_workers == 0) {
        computer_stop(cq);
        return NULL;
    }
    registry_listen(gm, &cq->listener);
    registry_allow_computer(gm);
    registry_load_listed(gm, "computer_to_resume", &cq->listener);
    return cq;
}

void computer_stop(computer *cq) {
    if (!cq) return;
    registry_unlisten(cq->gm, &cq->listener);
    pthread_mutex_lock(&cq->lock);
    cq->stopping = true;
    for (int i = 0; i < cq->n_workers; i++) atomic_store(&cq->share[i], 0); /* a search in progress ends */
    pthread_cond_broadcast(&cq->cond);
    pthread_mutex_unlock(&cq->lock);
    for (int i = 0; i < cq->n_workers; i++) pthread_join(cq->workers[i], NULL);
    for (size_t i = 0; i < cq->len; i++) game_release(cq->queue[(cq->head + i) % cq->cap]);
    free(cq->queue);
    free(cq->thinking);
    free(cq->share);
    free(cq->workers);
    pthread_cond_destroy(&cq->cond);
    pthread_mutex_destroy(&cq->lock);
    free(cq);
}
