/* playout: uniform random light playouts (see playout.h).
 *
 * A move is drawn by picking a random index among the board's empty points
 * still in the draw; if that point is not playable (illegal, or an own eye)
 * it is swapped to the end of the draw and the draw shrinks. This is exactly
 * uniform over the playable points and costs one test per rejected point.
 * The empty list's order is free (board.h promises none), so the swaps are
 * done in place: no allocation, no copy. */
#include "engine/playout.h"

#include <stddef.h>

static void empty_swap(board *b, int i, int j) {
    point pi = b->empty[i], pj = b->empty[j];
    b->empty[i] = pj;
    b->empty[j] = pi;
    b->empty_pos[pj] = (int16_t)i;
    b->empty_pos[pi] = (int16_t)j;
}

static point random_move(board *b, int color, rng *r) {
    int n = b->n_empty;
    while (n > 0) {
        int i = (int)rng_below(r, (uint32_t)n);
        point p = b->empty[i];
        if (!board_is_eye(b, color, p) && board_check(b, color, p) == MOVE_OK) return p;
        empty_swap(b, i, --n);
    }
    return PASS_POINT;
}

playout_result playout_random(board *b, int to_move, int komi_x2, rng *r, uint8_t *first_mover) {
    int passes = 0, moves = 0, cap = playout_move_cap(b->npoints), color = to_move;
    while (passes < 2 && moves < cap) {
        point p = random_move(b, color, r);
        if (p == PASS_POINT) {
            board_pass(b);
            passes++;
        } else {
            if (first_mover && !first_mover[p]) first_mover[p] = (uint8_t)color;
            board_play(b, color, p, NULL);
            passes = 0;
            moves++;
        }
        color = color_other(color);
    }
    int black, white;
    board_score_area(b, &black, &white);
    playout_result res = { 2 * (black - white) - komi_x2, EMPTY, moves };
    res.winner = res.score_x2 > 0 ? BLACK : res.score_x2 < 0 ? WHITE : EMPTY;
    return res;
}
