/* game_moderation: what the operator and the retention rule do to one
 * game's talk: a report of a message, its removal, and erasing a seat's
 * (or everyone's) names and messages after the end. Part of the game
 * (game_internal.h); see game.h.
 *
 * A removal is a tombstone in the store (store_admin.h): the message keeps
 * its number, so the rooms' counts and every client's "after" stay right,
 * and any later read shows it removed. Only the sockets that had the
 * message hear of its removal (the watcher's `removed` callback decides,
 * like `talk`), so a removal in a room a viewer cannot read yet tells it
 * nothing. With several servers, the store's news brings the removal to the
 * others; the one that made it hears it back, and the last removals told
 * are remembered so that each is told once. */
#include "games/game_internal.h"

#include <stdlib.h>

#include "store/store_admin.h"

static bool room_ok(int room) { return room == GAME_ROOM_PLAYERS || room == GAME_ROOM_SPECTATORS; }

game_status game_report(game *g, viewer v, int room, int n, const char *reason) {
    if (!room_ok(room) || !game_room_readable(g->mode, v, room, game_is_over(g)) || n < 1 ||
        n > game_chat_last(g, room))
        return GAME_NOT_FOUND;
    const char *reporter = v == (viewer)BLACK ? "black" : v == (viewer)WHITE ? "white" : "spectator";
    return game_status_of_store(store_add_report(g->env->st, g->id, room, n, reporter, reason ? reason : "",
                                                  game_env_now_ms(g->env)));
}

/* True the first time (room, n) is told; remembers it (watch_lock held). */
static bool first_telling(game *g, int room, int n) {
    int kept = (int)(sizeof g->removals_told / sizeof g->removals_told[0]);
    for (int i = 0; i < kept; i++)
        if (g->removals_told[i][0] == room && g->removals_told[i][1] == n) return false;
    g->removals_told[g->removals_next][0] = room;
    g->removals_told[g->removals_next][1] = n;
    g->removals_next = (g->removals_next + 1) % kept;
    return true;
}

void game_chat_removed(game *g, int room, int n) {
    if (!room_ok(room) || n < 1) return;
    pthread_mutex_lock(&g->watch_lock);
    if (first_telling(g, room, n))
        for (game_watcher *w = g->watchers; w; w = w->next)
            if (w->removed) w->removed(w, room, n);
    pthread_mutex_unlock(&g->watch_lock);
}

game_status game_remove_message(game *g, int room, int n) {
    if (!room_ok(room) || n < 1) return GAME_NOT_FOUND;
    int rc = store_remove_chat(g->env->st, g->id, room, n, game_env_now_ms(g->env));
    if (rc == STORE_CONFLICT) return GAME_REMOVED_ALREADY;
    game_status st = game_status_of_store(rc);
    if (st == GAME_OK) game_chat_removed(g, room, n);
    return st;
}

game_status game_erase_talk(game *g, int seat, int *erased) {
    *erased = 0;
    if (seat < 0 || seat > WHITE) return GAME_ERROR;
    if (!game_is_over(g) && !game_cancelled(g)) return GAME_NOT_OVER;
    enum { MOST = 2 * GAME_CHAT_ROOM_MAX };
    int *removed = malloc(MOST * sizeof *removed);
    if (!removed) return GAME_ERROR;
    int count = 0, players = 0;
    game_status st = game_status_of_store(
        store_erase_talk(g->env->st, g->id, seat, game_env_now_ms(g->env), removed, MOST, &count, &players));
    if (st == GAME_OK) {
        for (int i = 0; i < count; i++)
            game_chat_removed(g, i < players ? GAME_ROOM_PLAYERS : GAME_ROOM_SPECTATORS, removed[i]);
        game_names_heard(g);
        *erased = count;
    }
    free(removed);
    return st;
}
