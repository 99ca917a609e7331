/* hub: live updates over WebSocket, one socket per viewer per game
 * (GET /api/v1/games/{id}/ws, protocol in docs/API.md), and sockets on the
 * open-games lobby (GET /api/v1/lobby/ws), which get the whole lobby after
 * their hello and again after each change of it. A seat's open sockets
 * make it "connected" in its game's view (game_presence).
 *
 * Each socket watches its game (game_watcher) and has its own writer
 * thread: a change only marks the socket "due" and wakes that thread,
 * which then composes one update (the events since the last one it sent,
 * and the current view, both for its viewer) under the game lock and
 * writes it with no lock held. A slow reader therefore delays only its own
 * thread, and what waits for it is a flag, not a queue: however many moves
 * it misses, its next frame carries them all, so memory per socket is
 * bounded. A write that fails or times out closes that socket.
 *
 * civetweb keeps one worker thread per open WebSocket, so sockets are
 * capped (--max-websockets); past the cap a socket is accepted and closed
 * at once with code 1013 "too many connections". */
#ifndef PG_HTTP_HUB_H
#define PG_HTTP_HUB_H

#include <stdbool.h>

#include "http/server.h"

struct mg_context;
struct mg_connection;

hub *hub_new(server_ctx *srv);
void hub_free(hub *hb);

/* Registers the WebSocket handler on a started civetweb context. */
void hub_attach(hub *hb, struct mg_context *mg);
/* The server is about to stop: each socket gets what is due to it, then a
 * close frame with code 1012 (service restart), and so does any socket
 * opened after this; clients reconnect at once (to another server behind
 * a balancer). The sockets end when the clients answer the close. */
void hub_restart(hub *hb);
/* Closes every socket (their close handlers then run inside mg_stop). */
void hub_shutdown(hub *hb);

/* civetweb's connection_close callback: frees what a socket whose
 * handshake failed left behind (its close handler never ran). */
void hub_connection_closed(const struct mg_connection *conn);

long hub_open_count(hub *hb);

/* True when addr holds --websockets-per-address open sockets. Checked
 * before an upgrade so the client gets a 429 with Retry-After; the hub still
 * enforces the cap (close 1013) for upgrades that race past this check. */
bool hub_address_full(hub *hb, const char *addr);

/* Is this the path of a game's WebSocket (/api/v1/games/{id}/ws) or the
 * lobby's (/api/v1/lobby/ws)? */
bool hub_is_socket_path(const char *path);

#endif
