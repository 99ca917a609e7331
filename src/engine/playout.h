/* playout: uniform random light playouts, the Monte-Carlo workhorse.
 *
 * From a position, both sides play uniformly random legal moves that do not
 * fill their own single-point eyes (board_is_eye) until two passes in a row
 * (a side passes when it has no such move), then the final position is
 * scored Tromp-Taylor. Uniform means exactly uniform over the candidates:
 * a drawn point that is not playable is swapped out of the draw, not
 * replaced by its neighbour in the list.
 *
 * Kept apart from board.c so that the bot (src/bot) and the benchmark share
 * one implementation; the bot copies its sampled board, then calls this. */
#ifndef PG_ENGINE_PLAYOUT_H
#define PG_ENGINE_PLAYOUT_H

#include "engine/board.h"
#include "engine/rng.h"

typedef struct playout_result {
    int score_x2; /* (black area - white area) * 2 - komi_x2 */
    int winner;   /* BLACK, WHITE, or EMPTY on a jigo */
    int moves;    /* moves played (passes not counted) */
} playout_result;

/* The cap on moves in one playout, for a board of npoints points: beyond it
 * (only reached in long ko/superko cycles) the position is scored as is. */
static inline int playout_move_cap(int npoints) { return 3 * npoints; }

/* Plays a random game on b (modified in place) starting with colour to_move
 * and returns its outcome with komi_x2 (komi in half points) to White. If
 * first_mover is not NULL (room for BOARD_MAX_POINTS), each entry still 0
 * when colour c plays at p is set to c: the caller zeroes it first and gets,
 * per point, the colour that played there first (AMAF statistics). */
playout_result playout_random(board *b, int to_move, int komi_x2, rng *r, uint8_t *first_mover);

#endif
