/* games_computer: the computer player behind `computer` games (see
 * games_computer.c). */
#ifndef PG_SERVER_GAMES_COMPUTER_H
#define PG_SERVER_GAMES_COMPUTER_H

#include <stdbool.h>

#include "server/games.h"

/* Starts the computer's workers (one per core) on gm and queues the stored
 * games where it is to move. Call once, before serving. */
bool games_enable_computer(games *gm);

#endif
