/* games: the registry of games in memory, a cache of the store. It finds a
 * game by id (replaying it from the store when it is not in memory),
 * creates games and rematches, and drops games nobody used for a while.
 * One game's own interface (acting, seats, views) is server/game.h.
 *
 * The registry starts no thread and knows none of its clients: the
 * deadline timer (deadlines.h), the computer's work queue (computer.h) and
 * the lobby (lobby.h) each listen to every game's changes (games_listen)
 * and keep their own state. A game loaded or created is told to the
 * listeners like any change, so a public game loaded by a request appears
 * in the lobby and a timed one gets its deadline. */
#ifndef PG_GAMES_GAMES_H
#define PG_GAMES_GAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/game.h"

typedef struct games games;

/* Opens an empty registry over store st; GAMES_ERROR with a message in err
 * when out of memory. */
int games_open(games **out, store *st, char *err, size_t errlen);
/* Frees every game. Its clients must be closed first; no call may be in
 * flight. */
void games_close(games *gm);

/* abandon_after_s: how long the side to move of an untimed game may stay
 * silent before the opponent may claim the game (default 600). test_clock:
 * games_advance_clock may move the server's clock (tests only). Call
 * before serving. */
void games_set_options(games *gm, int abandon_after_s, bool test_clock);
/* Adds a listener of every game's changes; after games_unlisten returns,
 * l is never called again. */
void games_listen(games *gm, game_listener *l);
void games_unlisten(games *gm, game_listener *l);
/* Computer games may be created (the computer's queue is running). */
void games_allow_computer(games *gm);

/* The server's clock (game_env_now_ms of every game). */
int64_t games_now_ms(games *gm);
/* Moves the clock forward by ms (tests only): false unless test_clock. */
bool games_advance_clock(games *gm, int64_t ms);

/* Games in memory, and of those the ones still in play. */
void games_count(games *gm, long *loaded, long *in_play);

/* The game `id`, replayed from the store if not in memory: a reference
 * released with game_release. */
games_status games_get(games *gm, const char *id, game **out);

/* Loads every game of a store list (store_list_games' where_kind) and
 * hands each to l->changed (its client catches up at start-up; l may be
 * NULL: a game newly loaded reaches every listener anyway). Returns
 * the store's status of the listing (STORE_OK); every game that loads is
 * handed over either way. */
int games_load_listed(games *gm, const char *which, game_listener *l);

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

games_status games_create(games *gm, const game_new *req, game_created *out);

/* games_create with the id, tokens and invite drawn by the caller (all
 * set; those the mode does not use are cleared in out), so that a request
 * run again after a crash makes the same game: when a game of that id
 * exists already and drawn's seat token holds a seat of it, that game is
 * the answer (GAMES_OK, out as drawn, nothing stored or told again). */
games_status games_create_drawn(games *gm, const game_new *req, const game_created *drawn,
                                game_created *out);

/* Rematch by seat `color` of a finished game g: the first call creates the
 * new game (colours swapped; *created true, out holds the caller's seat)
 * in one store transaction with the link from g; a later call by the other
 * seat takes its seat there (*created false). */
games_status games_rematch(games *gm, game *g, int color, bool *created, game_created *out);

/* The opponent's rematch offer, accepted by seat `color` of g (as the
 * second games_rematch call): GAMES_NO_REMATCH when none is open,
 * GAMES_OWN_OFFER when the offer is the caller's own. */
games_status games_rematch_accept(games *gm, game *g, int color, game_created *out);

/* Ends the open rematch offer of g: withdrawn by the seat that offered it
 * (withdraw) or declined by the other (!withdraw). The rematch game is
 * cancelled (as game_cancel) and g's view then says so; either seat may
 * offer again. GAMES_NO_REMATCH when no offer is open, GAMES_SEAT_TAKEN
 * when it was accepted already, GAMES_NOT_OFFERER / GAMES_OWN_OFFER when
 * the caller is on the wrong side of it. */
games_status games_rematch_end(games *gm, game *g, int color, bool withdraw);

#endif
