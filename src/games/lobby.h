/* lobby: the open-games lobby, an index of the public games in play.
 *
 * A client of the games registry: it listens to every game's changes and
 * holds a reference to each public game until it ends, so those games
 * stay in memory and the lobby is answered without touching the store; at
 * start it loads the stored ones back. It changes only when a public game
 * appears, loses its free seat, has a seat renamed or ends: moves of a
 * listed game do not touch it, so a busy server does not flood the lobby's
 * watchers. With several servers on one database, the registry loads a
 * public game created on another server and refreshes the copies others
 * change (store_watch), so every server's lobby lists the same games. */
#ifndef PG_GAMES_LOBBY_H
#define PG_GAMES_LOBBY_H


#include "games/registry.h"

typedef struct lobby lobby;

/* Listens to gm and loads the stored public games; NULL when out of
 * memory. Call before serving. */
lobby *lobby_open(registry *gm);
/* Stops listening and releases the listed games. NULL is allowed. */
void lobby_close(lobby *lb);

/* Appends the members "open":[..],"playing":[..] of the lobby's answer:
 * the public games with a free seat, newest first, and those in progress
 * (docs/API.md, Lobby), at most 100 each. The caller writes the braces
 * around them. False when out of memory. */
bool lobby_now_members(lobby *lb, strbuf *out);

/* Watchers of the lobby, notified (same rules as a game's) when a public
 * game appears, loses its free seat, has a seat renamed or ends. */
void lobby_watch(lobby *lb, game_watcher *w);
void lobby_unwatch(lobby *lb, game_watcher *w);

#endif
