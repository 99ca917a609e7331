/* game_talk: what is said around one game: the seats' names, the two chat
 * rooms and how many spectators watch.
 * Part of the game (game_internal.h); see game.h.
 *
 * Who reads which room is decided here and only here (game_room_readable):
 * the seats read the players' room, spectators the spectators' room (online
 * games only), and once the game is over everyone reads both. A message is
 * numbered within its room under the game lock and stored (group commit)
 * before anyone hears of it, like an action, but it never touches the
 * referee: talk changes no seq and no view. Only the watchers that may read
 * its room are told (notify_talk), so nothing of the spectators' room, not
 * even a wake-up, reaches a player's socket during the game.
 *
 * With several servers on one database, a message stored by another server
 * arrives as news (game_chat_heard: the room's count raised, its readers
 * woken, by the same rule), and a number another server took first is
 * refused by the store and taken again from the store's count. */
#include "games/game_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_chat.h"
#include "wire/chat_json.h"

_Static_assert(GAME_NAME_BYTES == STORE_NAME_BYTES, "one size of a stored name");
_Static_assert((int)GAME_ROOM_PLAYERS == (int)STORE_ROOM_PLAYERS &&
                   (int)GAME_ROOM_SPECTATORS == (int)STORE_ROOM_SPECTATORS &&
                   (int)GAME_ROOM_PLAYERS == (int)CHAT_ROOM_PLAYERS &&
                   (int)GAME_ROOM_SPECTATORS == (int)CHAT_ROOM_SPECTATORS,
               "one numbering of the rooms");

int game_talk_load(game *g) {
    char names[2][STORE_NAME_BYTES];
    int players = 0, spectators = 0;
    int rc = store_get_names(g->env->st, g->id, names);
    if (rc == STORE_OK) rc = store_chat_count(g->env->st, g->id, GAME_ROOM_PLAYERS, &players);
    if (rc == STORE_OK) rc = store_chat_count(g->env->st, g->id, GAME_ROOM_SPECTATORS, &spectators);
    if (rc != STORE_OK) return rc;
    for (int c = BLACK; c <= WHITE; c++) snprintf(g->names[c], sizeof g->names[c], "%s", names[c - 1]);
    atomic_init(&g->chat_last[GAME_ROOM_PLAYERS], players);
    atomic_init(&g->chat_last[GAME_ROOM_SPECTATORS], spectators);
    return STORE_OK;
}

bool game_room_readable(game_mode mode, viewer v, int room, bool over) {
    bool seat = v == (viewer)BLACK || v == (viewer)WHITE;
    if (room == GAME_ROOM_PLAYERS) return seat || over;
    if (room == GAME_ROOM_SPECTATORS) return mode == MODE_ONLINE && (!seat || over);
    return false;
}

int game_chat_last(game *g, int room) {
    return room == GAME_ROOM_PLAYERS || room == GAME_ROOM_SPECTATORS ? atomic_load(&g->chat_last[room]) : 0;
}

/* Tells the watchers that may read `room` that it has a new message. */
static void notify_talk(game *g, int room) {
    pthread_mutex_lock(&g->watch_lock);
    for (game_watcher *w = g->watchers; w; w = w->next)
        if (w->talk) w->talk(w, room);
    pthread_mutex_unlock(&g->watch_lock);
}

/* Raises the room's highest number to n; true if it was lower. */
static bool game_chat_raise(game *g, int room, int n) {
    int last = atomic_load(&g->chat_last[room]);
    while (n > last && !atomic_compare_exchange_weak(&g->chat_last[room], &last, n)) continue;
    return n > last;
}

void game_chat_heard(game *g, int room, int n) {
    if ((room == GAME_ROOM_PLAYERS || room == GAME_ROOM_SPECTATORS) && game_chat_raise(g, room, n))
        notify_talk(g, room);
}

void game_watching(game *g, int delta) {
    atomic_fetch_add(&g->spectators, delta);
    pthread_mutex_lock(&g->lock);
    game_invalidate(g);
    pthread_mutex_unlock(&g->lock);
    game_notify(g);
}

/* ---- names ------------------------------------------------------------- */

bool game_names_text(game *g, strbuf *out) {
    pthread_mutex_lock(&g->lock);
    bool ok = chat_json_names_append(out, g->names[BLACK], g->names[WHITE]);
    pthread_mutex_unlock(&g->lock);
    return ok;
}

game_status game_rename(game *g, int color, const char *name) {
    if (color != BLACK && color != WHITE) return GAME_ERROR;
    pthread_mutex_lock(&g->lock);
    game_status st = game_status_of_store(store_put_name(g->env->st, g->id, color, name));
    if (st == GAME_OK) {
        snprintf(g->names[color], sizeof g->names[color], "%s", name ? name : "");
        game_invalidate(g);
    }
    pthread_mutex_unlock(&g->lock);
    if (st == GAME_OK) game_notify(g);
    return st;
}

void game_names_heard(game *g) {
    char names[2][STORE_NAME_BYTES];
    pthread_mutex_lock(&g->lock);
    bool changed = store_get_names(g->env->st, g->id, names) == STORE_OK &&
                   (strcmp(names[0], g->names[BLACK]) || strcmp(names[1], g->names[WHITE]));
    if (changed) {
        for (int c = BLACK; c <= WHITE; c++) snprintf(g->names[c], sizeof g->names[c], "%s", names[c - 1]);
        game_invalidate(g);
    }
    pthread_mutex_unlock(&g->lock);
    if (changed) game_notify(g);
}

/* ---- chat ---------------------------------------------------------------- */

static chat_entry entry_of(const store_chat_message *m) {
    return (chat_entry){ m->room, m->n, m->author, m->removed ? "" : m->name, m->removed ? "" : m->text,
                         m->at_ms, m->removed };
}

/* Numbers and stores message m (game lock held). The number the copy
 * expects may have been taken by another server sharing the database
 * (its news not heard yet): the store refuses it as a conflict, and the
 * room's count is read again from the store before the next try. */
static game_status say_locked(game *g, int room, int author, const char *name, const char *text,
                               store_chat_message *m) {
    if (g->row.cancelled_at_ms) return GAME_CANCELLED;
    for (int attempt = 0; attempt < 3; attempt++) {
        int last = atomic_load(&g->chat_last[room]);
        if (last >= GAME_CHAT_ROOM_MAX) return GAME_CHAT_FULL;
        *m = (store_chat_message){ .room = room, .n = last + 1, .author = author, .at_ms = game_env_now_ms(g->env) };
        snprintf(m->name, sizeof m->name, "%s", name ? name : "");
        snprintf(m->text, sizeof m->text, "%s", text);
        int rc = store_append_chat(g->env->st, g->id, m);
        if (rc == STORE_OK) {
            game_chat_raise(g, room, m->n);
            return GAME_OK;
        }
        int stored = 0;
        if (rc != STORE_CONFLICT || store_chat_count(g->env->st, g->id, room, &stored) != STORE_OK)
            return game_status_of_store(rc);
        game_chat_raise(g, room, stored);
    }
    return GAME_UNAVAILABLE;
}

game_status game_say(game *g, viewer author, const char *name, const char *text, strbuf *message) {
    bool seat = author == (viewer)BLACK || author == (viewer)WHITE;
    int room = seat ? GAME_ROOM_PLAYERS : GAME_ROOM_SPECTATORS;
    if (!seat && g->mode != MODE_ONLINE) return GAME_CHAT_CLOSED;
    store_chat_message *m = calloc(1, sizeof *m);
    if (!m) return GAME_ERROR;
    pthread_mutex_lock(&g->lock);
    game_status st = say_locked(g, room, seat ? (int)author : 0, seat ? g->names[author] : name, text, m);
    pthread_mutex_unlock(&g->lock);
    if (st == GAME_OK) {
        chat_entry e = entry_of(m);
        notify_talk(g, room);
        if (!chat_json_message_append(message, &e)) st = GAME_ERROR;
    }
    free(m);
    return st;
}

/* Messages n > after of `room` (at most limit, the newest), read from
 * the store as their entries (removed ones blank); *last: the room's
 * highest number. STORE_* code. */
static int read_room(game *g, int room, int after, int limit, store_chat_message **list, chat_entry **entries,
                     int *count, int *last) {
    *list = NULL;
    *entries = NULL;
    *count = 0;
    *last = game_chat_last(g, room);
    if (*last - after > limit) after = *last - limit;
    int rc = store_read_chat(g->env->st, g->id, room, after, limit, list, count);
    if (rc != STORE_OK) return rc;
    *entries = *count ? calloc((size_t)*count, sizeof **entries) : NULL;
    if (*count && !*entries) return STORE_ERROR;
    for (int i = 0; i < *count; i++) (*entries)[i] = entry_of(&(*list)[i]);
    return STORE_OK;
}

game_status game_chat_room_text(game *g, int room, int after, int limit, strbuf *out) {
    store_chat_message *list;
    chat_entry *entries;
    int count, last;
    game_status st = game_status_of_store(read_room(g, room, after, limit, &list, &entries, &count, &last));
    if (st == GAME_OK && !chat_json_room_append(out, entries, count, last)) st = GAME_ERROR;
    free(entries);
    free(list);
    return st;
}

game_status game_chat_frames(game *g, int room, int after, int limit, game_frame_fn each, void *ctx) {
    store_chat_message *list;
    chat_entry *entries;
    int count, last;
    game_status st = game_status_of_store(read_room(g, room, after, limit, &list, &entries, &count, &last));
    for (int i = 0; st == GAME_OK && i < count; i++) {
        size_t len = 0;
        char *frame = chat_json_message_frame(&entries[i], &len);
        if (!frame) st = GAME_ERROR;
        else if (!each(ctx, entries[i].n, frame, len)) st = GAME_UNAVAILABLE;
        free(frame);
    }
    free(entries);
    free(list);
    return st;
}
