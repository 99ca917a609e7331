/* game_notify: telling everyone who follows a game that it changed.
 *
 * A game's sockets (its watchers, each woken to send what its viewer may
 * now see) and the registry's listeners (the lobby, the computer's queue)
 * hear of every change through this one function. It sits in a file of its
 * own because every part of a game calls it, game.c and game_talk.c alike,
 * while it calls none of them back: the arrows between a game's files then
 * run one way (scripts/server-circles.py checks it). */
#include "games/game_internal.h"

void game_notify(game *g) {
    pthread_mutex_lock(&g->watch_lock);
    for (games_watcher *w = g->watchers; w; w = w->next) w->notify(w);
    pthread_mutex_unlock(&g->watch_lock);
    pthread_rwlock_rdlock(&g->env->listeners_lock);
    for (game_listener *l = g->env->listeners; l; l = l->next) l->changed(l, g);
    pthread_rwlock_unlock(&g->env->listeners_lock);
}
