/* deadlines: the timer thread and its list of deadlines. See deadlines.h.
 *
 * Lock order: the deadline lock, then a game's lock (a change reads the
 * game's deadline and records it under the deadline lock, so two changes
 * of one game cannot record their deadlines out of order). The timer never
 * holds the deadline lock while it asks a game to check its clock. */
#include "games/deadlines.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/now.h"

enum { MAX_SLEEP_MS = 60 * 1000, RETRY_MS = 1000 };

typedef struct deadline {
    char id[24];
    int64_t at_ms;
} deadline;

struct deadlines {
    registry_listener listener; /* first: the callback finds the timer from it */
    registry *gm;
    pthread_t thread;
    bool running, stopping;
    pthread_mutex_t lock;
    pthread_cond_t cond; /* on CLOCK_MONOTONIC */
    deadline *list;
    size_t n, cap;
};

/* Sets (at_ms < INT64_MAX) or drops the deadline of game id. Lock held. */
static void set_locked(deadlines *dl, const char *id, int64_t at_ms) {
    size_t i = 0;
    while (i < dl->n && strcmp(dl->list[i].id, id)) i++;
    bool found = i < dl->n;
    if (at_ms == INT64_MAX) {
        if (found) dl->list[i] = dl->list[--dl->n];
        return;
    }
    if (!found && dl->n == dl->cap) {
        size_t cap = dl->cap ? dl->cap * 2 : 64;
        deadline *bigger = realloc(dl->list, cap * sizeof *bigger);
        if (!bigger) {
            fprintf(stderr, "phantomgo: game %s: out of memory for its deadline\n", id);
            return;
        }
        dl->list = bigger;
        dl->cap = cap;
    }
    if (!found) snprintf(dl->list[dl->n++].id, sizeof dl->list[0].id, "%s", id);
    dl->list[i].at_ms = at_ms;
    pthread_cond_signal(&dl->cond);
}

static void set_deadline(deadlines *dl, const char *id, int64_t at_ms) {
    pthread_mutex_lock(&dl->lock);
    set_locked(dl, id, at_ms);
    pthread_mutex_unlock(&dl->lock);
}

/* Records g's deadline as change record c gives it, unless c is stale (a
 * newer record of g exists: it is, or will be, recorded instead). The
 * check is made under the deadline lock, so a stale record that arrives
 * after the latest one cannot undo it. */
static void rearm(deadlines *dl, game *g, const game_change *c) {
    pthread_mutex_lock(&dl->lock);
    if (game_change_is_latest(g, c)) set_locked(dl, game_id(g), c->deadline_ms);
    pthread_mutex_unlock(&dl->lock);
}

static void on_changed(registry_listener *l, game *g, const game_change *c) { rearm((deadlines *)l, g, c); }

/* The game whose deadline passed: its side to move loses, unless it moved
 * meanwhile (then its new deadline is armed). A game the store cannot read
 * now is tried again shortly; one that cannot be replayed at all is left. */
static void expire(deadlines *dl, const char *id) {
    game *g;
    game_status st = registry_get(dl->gm, id, &g);
    if (st == GAME_UNAVAILABLE) set_deadline(dl, id, registry_now_ms(dl->gm) + RETRY_MS);
    else if (st != GAME_OK) fprintf(stderr, "phantomgo: game %s cannot be loaded; its clock is left\n", id);
    if (st != GAME_OK) return;
    int fired = game_check_clock(g);
    if (fired == 0) {
        game_change c;
        game_change_now(g, &c);
        rearm(dl, g, &c);
    }
    if (fired < 0) {
        fprintf(stderr, "phantomgo: game %s: its timeout could not be stored; retrying\n", id);
        set_deadline(dl, id, registry_now_ms(dl->gm) + RETRY_MS);
    }
    game_release(g);
}

static size_t earliest(const deadlines *dl) {
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < dl->n; i++)
        if (best == SIZE_MAX || dl->list[i].at_ms < dl->list[best].at_ms) best = i;
    return best;
}

/* Sleeps up to ms on the condition. Lock held. */
static void sleep_for(deadlines *dl, int64_t ms) {
    if (ms > MAX_SLEEP_MS) ms = MAX_SLEEP_MS;
    struct timespec until = now_monotonic_deadline(ms);
    int rc = pthread_cond_timedwait(&dl->cond, &dl->lock, &until);
    if (rc != 0 && rc != ETIMEDOUT) fprintf(stderr, "phantomgo: clock thread wait failed (%d)\n", rc);
}

static void *timer_main(void *arg) {
    deadlines *dl = arg;
    pthread_mutex_lock(&dl->lock);
    while (!dl->stopping) {
        size_t i = earliest(dl);
        int64_t now = registry_now_ms(dl->gm);
        if (i == SIZE_MAX || dl->list[i].at_ms > now) {
            sleep_for(dl, i == SIZE_MAX ? MAX_SLEEP_MS : dl->list[i].at_ms - now);
            continue;
        }
        char id[24];
        snprintf(id, sizeof id, "%s", dl->list[i].id);
        dl->list[i] = dl->list[--dl->n];
        pthread_mutex_unlock(&dl->lock);
        expire(dl, id);
        pthread_mutex_lock(&dl->lock);
    }
    pthread_mutex_unlock(&dl->lock);
    return NULL;
}

deadlines *deadlines_start(registry *gm) {
    deadlines *dl = calloc(1, sizeof *dl);
    if (!dl) return NULL;
    dl->gm = gm;
    dl->listener.changed = on_changed;
    pthread_mutex_init(&dl->lock, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&dl->cond, &attr);
    pthread_condattr_destroy(&attr);
    registry_listen(gm, &dl->listener);
    registry_load_listed(gm, "clock_to_resume", &dl->listener);
    dl->running = pthread_create(&dl->thread, NULL, timer_main, dl) == 0;
    if (dl->running) return dl;
    deadlines_stop(dl);
    return NULL;
}

void deadlines_wake(deadlines *dl) {
    pthread_mutex_lock(&dl->lock);
    pthread_cond_broadcast(&dl->cond);
    pthread_mutex_unlock(&dl->lock);
}

void deadlines_stop(deadlines *dl) {
    if (!dl) return;
    registry_unlisten(dl->gm, &dl->listener);
    if (dl->running) {
        pthread_mutex_lock(&dl->lock);
        dl->stopping = true;
        pthread_cond_broadcast(&dl->cond);
        pthread_mutex_unlock(&dl->lock);
        pthread_join(dl->thread, NULL);
    }
    free(dl->list);
    pthread_cond_destroy(&dl->cond);
    pthread_mutex_destroy(&dl->lock);
    free(dl);
}
