/* computer_player: the computer player behind `computer` games (see
 * computer_player.c). */
#ifndef PG_GAMES_COMPUTER_PLAYER_H
#define PG_GAMES_COMPUTER_PLAYER_H

#include <stdbool.h>

#include "games/computer.h"

/* Starts the computer's workers (one per core) on gm and queues the stored
 * games where it is to move; NULL if they cannot start. Call once, before
 * serving. */
computer *computer_player_start(registry *gm);

/* The hook computer_player_start gives the workers, with the knobs read
 * from the environment now; for tests that ask the player for decisions
 * without the queue. Its seats' carries live as long as the process. */
games_bot computer_player_hook(void);

#endif
