/* game_mode: how a game is played (online between two people, hot-seat on
 * one device, against the computer) and the one table of its names, which
 * are the same in the JSON API and in the store's mode column.
 *
 * The games module decides what a mode means; this leaf only names them so
 * that every layer spells them alike. */
#ifndef PG_UTIL_GAME_MODE_H
#define PG_UTIL_GAME_MODE_H

#include <stdbool.h>

typedef enum { MODE_ONLINE = 0, MODE_HOTSEAT, MODE_COMPUTER } game_mode;

/* "online", "hotseat", "computer"; NULL for a value outside the enum. */
const char *mode_name(game_mode m);
/* One of the names above (exactly) into *out; false otherwise. */
bool mode_parse(const char *name, game_mode *out);

#endif
