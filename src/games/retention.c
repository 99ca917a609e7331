/* retention: the sweep that erases old games' talk. See retention.h.
 *
 * The store finds the games whose names or messages outlived the cutoff
 * (cancelled before it, or quiet since before it: the last action of an
 * ended game is its end), a page at a time in id order; the referee
 * decides which of them ended, so a game still in play keeps its talk
 * however old. Each erase is one transaction (store_erase_talk) and tells
 * the sockets still open on that game. The sweep holds no lock while it
 * works and stops between games when told to stop. */
#include "games/retention.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/store_admin.h"

#define SWEEP_EVERY_S 3600
#define PAGE 100

struct retention {
    registry *gm;
    store *st;
    int64_t keep_ms;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool stopping, wake;
};

static bool stopping(retention *rt) {
    pthread_mutex_lock(&rt->lock);
    bool stop = rt->stopping;
    pthread_mutex_unlock(&rt->lock);
    return stop;
}

/* Erases the talk of game id if it has ended; a game in play is left. */
static void erase_if_ended(retention *rt, const char *id) {
    game *g;
    if (registry_get(rt->gm, id, &g) != GAME_OK) return;
    int erased = 0;
    game_status st = game_erase_talk(g, 0, &erased);
    if (st != GAME_OK && st != GAME_NOT_OVER)
        fprintf(stderr, "phantomgo: retention: game %s: its talk could not be erased now\n", id);
    game_release(g);
}

static void sweep(retention *rt) {
    int64_t cutoff = registry_now_ms(rt->gm) - rt->keep_ms;
    char(*ids)[24] = malloc(PAGE * sizeof *ids);
    char after[24] = "";
    int count = PAGE;
    while (ids && count == PAGE && !stopping(rt)) {
        if (store_talk_older_than(rt->st, cutoff, after, PAGE, ids, &count) != STORE_OK) break;
        for (int i = 0; i < count && !stopping(rt); i++) erase_if_ended(rt, ids[i]);
        if (count > 0) snprintf(after, sizeof after, "%s", ids[count - 1]);
    }
    free(ids);
}

static void *sweeper_main(void *arg) {
    retention *rt = arg;
    while (!stopping(rt)) {
        sweep(rt);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += SWEEP_EVERY_S;
        pthread_mutex_lock(&rt->lock);
        while (!rt->stopping && !rt->wake)
            if (pthread_cond_timedwait(&rt->cond, &rt->lock, &until) == ETIMEDOUT) break;
        rt->wake = false;
        pthread_mutex_unlock(&rt->lock);
    }
    return NULL;
}

retention *retention_start(registry *gm, store *st, int days, char *err, size_t errlen) {
    if (days <= 0) return NULL;
    retention *rt = calloc(1, sizeof *rt);
    if (!rt) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    rt->gm = gm;
    rt->st = st;
    rt->keep_ms = (int64_t)days * 86400 * 1000;
    pthread_mutex_init(&rt->lock, NULL);
    pthread_cond_init(&rt->cond, NULL);
    if (pthread_create(&rt->thread, NULL, sweeper_main, rt) != 0) {
        snprintf(err, errlen, "cannot start the chat retention thread");
        pthread_cond_destroy(&rt->cond);
        pthread_mutex_destroy(&rt->lock);
        free(rt);
        return NULL;
    }
    return rt;
}

void retention_wake(retention *rt) {
    if (!rt) return;
    pthread_mutex_lock(&rt->lock);
    rt->wake = true;
    pthread_cond_signal(&rt->cond);
    pthread_mutex_unlock(&rt->lock);
}

void retention_stop(retention *rt) {
    if (!rt) return;
    pthread_mutex_lock(&rt->lock);
    rt->stopping = true;
    pthread_cond_signal(&rt->cond);
    pthread_mutex_unlock(&rt->lock);
    pthread_join(rt->thread, NULL);
    pthread_cond_destroy(&rt->cond);
    pthread_mutex_destroy(&rt->lock);
    free(rt);
}
