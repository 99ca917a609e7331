/* board_text: boards as ASCII diagrams, for tests and debugging.
 *
 * The diagram style of Pachi's t-unit files: one row per line, top row
 * first, 'X' black, 'O' white, '.' (or '+') empty; spaces are ignored. The
 * number of rows gives the size. Parsing places stones directly (no
 * captures, no legality), so any position can be set up, and checks that
 * no group is left without liberties. No I/O: text goes to and from
 * buffers. */
#ifndef PG_ENGINE_BOARD_TEXT_H
#define PG_ENGINE_BOARD_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/board.h"

/* Sets b to the position drawn in text. Returns false on a malformed
 * diagram (ragged rows, size out of range, unknown character, a group
 * without liberties). */
bool board_from_text(board *b, const char *text, bool torus);

/* Draws b into buf (size rows of size characters plus '\n', NUL ended);
 * returns false if buf is too small. */
bool board_to_text(const board *b, char *buf, size_t len);

#endif
