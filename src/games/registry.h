/* registry: the games in memory, a cache of the store. It finds a
 * game by id (replaying it from the store when it is not in memory),
 * creates games and rematches, and drops games nobody used for a while.
 * One game's own interface (acting, seats, views) is games/game.h.
 *
 * The registry starts no thread and knows none of its clients: the
 * deadline timer (deadlines.h), the computer's work queue (computer.h) and
 * the lobby (lobby.h) each listen to every game's changes (registry_listen)
 * and keep their own state. A game loaded or created is told to the
 * listeners like any change, so a public game loaded by a request appears
 * in the lobby and a timed one gets its deadline. */
#ifndef PG_GAMES_REGISTRY_H
#define PG_GAMES_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/game.h"

typedef struct registry registry;

/* Opens an empty registry over store st; GAME_ERROR with a message in err
 * when out of memory. */
int registry_open(registry **out, store *st, char *err, size_t errlen);
/* Frees every game. Its clients must be closed first; no call may be in
 * flight. */
void registry_close(registry *gm);

/* abandon_after_s: how long the side to move of an untimed game may stay
 * silent before the opponent may claim the game (default 600). test_clock:
 * registry_advance_clock may move the server's clock (tests only). Call
 * before serving. */
void registry_set_options(registry *gm, int abandon_after_s, bool test_clock);
/* Adds a listener of every game's changes; after registry_unlisten returns,
 * l is never called again. */
void registry_listen(registry *gm, registry_listener *l);
void registry_unlisten(registry *gm, registry_listener *l);
/* Computer games may be created (the computer's queue is running). */
void registry_allow_computer(registry *gm);

/* The server's clock (game_env_now_ms of every game). */
int64_t registry_now_ms(registry *gm);
/* Moves the clock forward by ms (tests only): false unless test_clock. */
bool registry_advance_clock(registry *gm, int64_t ms);

/* Games in memory, and of those the ones still in play. */
void registry_count(registry *gm, long *loaded, long *in_play);

/* The game `id`, replayed from the store if not in memory: a reference
 * released with game_release. */
game_status registry_get(registry *gm, const char *id, game **out);

/* Loads every game of a store list (store_list_games' where_kind) and
 * hands each to l->changed (its client catches up at start-up; l may be
 * NULL: a game newly loaded reaches every listener anyway). Returns
 * the store's status of the listing (STORE_OK); every game that loads is
 * handed over either way. */
int registry_load_listed(registry *gm, const char *which, registry_listener *l);

typedef struct game_new {
    game_mode mode;
    game_settings settings;
    time_control tc;
    bool public_game;  /* online: listed in the lobby */
    int creator_color; /* BLACK or WHITE (online, computer) */
    const char *level; /* computer: "easy" | "medium" | "strong" */
    bool aid;          /* the deduction aid is offered to the seats */
} game_new;

/* The secrets a new game hands out, once. */
typedef struct game_created {
    char id[24];
    char token[3][SECRET_TEXT_LEN + 1]; /* [BLACK], [WHITE]: "" if not the caller's */
    char invite[SECRET_TEXT_LEN + 1];   /* "" if none */
} game_created;

game_status registry_create(registry *gm, const game_new *req, game_created *out);

/* registry_create with the id, tokens and invite drawn by the caller (all
 * set; those the mode does not use are cleared in out), so that a request
 * run again after a crash makes the same game: when a game of that id
 * exists already and drawn's seat token holds a seat of it, that game is
 * the answer (GAME_OK, out as drawn, nothing stored or told again). */
game_status registry_create_drawn(registry *gm, const game_new *req, const game_created *drawn,
                                game_created *out);

/* Rematch by seat `color` of a finished game g: the first call creates the
 * new game (colours swapped; *created true, out holds the caller's seat)
 * in one store transaction with the link from g; a later call by the other
 * seat takes its seat there (*created false). */
game_status registry_rematch(registry *gm, game *g, int color, bool *created, game_created *out);

/* The opponent's rematch offer, accepted by seat `color` of g (as the
 * second registry_rematch call): GAME_NO_REMATCH when none is open,
 * GAME_OWN_OFFER when the offer is the caller's own. */
game_status registry_rematch_accept(registry *gm, game *g, int color, game_created *out);

/* Ends the open rematch offer of g: withdrawn by the seat that offered it
 * (withdraw) or declined by the other (!withdraw). The rematch game is
 * cancelled (as game_cancel) and g's view then says so; either seat may
 * offer again. GAME_NO_REMATCH when no offer is open, GAME_SEAT_TAKEN
 * when it was accepted already, GAME_NOT_OFFERER / GAME_OWN_OFFER when
 * the caller is on the wrong side of it. */
game_status registry_rematch_end(registry *gm, game *g, int color, bool withdraw);

#endif
