/* vertex: GTP vertices ("A1".."Z25", no letter I, case-insensitive; "pass")
 * to and from board points, for a given board size.
 *
 * Column letters skip I as in GTP and SGF-less Go software, so 25 letters
 * cover the largest board. Row 1 is the bottom row (y = 0). Parsing is
 * strict: no spaces, no leading zero in the row, nothing after it. */
#ifndef PG_ENGINE_VERTEX_H
#define PG_ENGINE_VERTEX_H

#include <stdbool.h>

#include "engine/board.h"

/* Enough room for the longest vertex, "pass", and the terminating NUL. */
#define VERTEX_BUF 8

/* Parses s for a board of the given size into *out: a point y*size+x, or
 * PASS_POINT for "pass". Returns false (and leaves *out alone) if s is not a
 * vertex on this board. "resign" is not a vertex. */
bool vertex_parse(const char *s, int size, point *out);

/* Writes the vertex of p ("D4", "pass") into buf (VERTEX_BUF bytes) and
 * returns buf. Any other special or out-of-range point gives "?". */
const char *vertex_format(point p, int size, char buf[VERTEX_BUF]);

#endif
