/* handicap: the fixed handicap points of GTP v2's fixed_handicap command.
 *
 * Stones go on the 4-4 points on boards of 13x13 and larger and on the 3-3
 * points below; 2 to 9 stones on odd boards of 9x9 and larger, at most 4 on
 * 7x7 and on even boards, none below 7x7 (GTP v2, section 4.1.1). The order
 * is GTP's: the two diagonal corners, the other two, then centre and sides. */
#ifndef PG_ENGINE_HANDICAP_H
#define PG_ENGINE_HANDICAP_H

#include "engine/board.h"

#define HANDICAP_MAX 9

/* The largest fixed handicap on a board of this size (0 if none allowed). */
int handicap_max(int size);

/* Fills out[0..n-1] with the points of an n-stone handicap (n = 0, or 2 up
 * to handicap_max(size)) and returns n, or returns -1 if n is not allowed
 * on this size. */
int handicap_points(int size, int n, point out[HANDICAP_MAX]);

#endif
