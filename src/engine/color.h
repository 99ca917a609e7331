/* color: the one table of how a colour is written, so that the JSON API
 * ("black"), the event lines and SGF ("B") and prose ("Black") cannot drift
 * apart. Colours themselves (EMPTY, BLACK, WHITE) are the board's.
 *
 * A string table is pure data, so it sits in the engine beside the colour
 * values rather than in util, which may not include the engine. */
#ifndef PG_ENGINE_COLOR_H
#define PG_ENGINE_COLOR_H

#include <stdbool.h>

#include "engine/board.h"

/* "black", "white"; NULL for any other value. */
const char *color_name(int color);
/* "Black", "White" (the start of a sentence); NULL for any other value. */
const char *color_title(int color);
/* "B", "W" (GTP, SGF, event lines); NULL for any other value. */
const char *color_letter(int color);
/* "black" or "white" (exactly, lower case) into *out; false otherwise. */
bool color_parse(const char *name, int *out);

#endif
