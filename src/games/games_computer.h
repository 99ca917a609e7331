/* games_computer: the computer player behind `computer` games (see
 * games_computer.c). */
#ifndef PG_GAMES_GAMES_COMPUTER_H
#define PG_GAMES_GAMES_COMPUTER_H

#include <stdbool.h>

#include "games/computer.h"

/* Starts the computer's workers (one per core) on gm and queues the stored
 * games where it is to move; NULL if they cannot start. Call once, before
 * serving. */
computer *games_enable_computer(games *gm);

#endif
